/** The lessons panel's own words, in both languages (lesson texts come with the lessons). */
import type { Lang } from '../../lessons/types';

const STRINGS = {
  lessons: { 'zh-CN': '课程练习', en: 'Lessons' },
  loading: { 'zh-CN': '正在载入课程…', en: 'Loading the lessons…' },
  back: { 'zh-CN': '← 全部课程', en: '← All lessons' },
  start: { 'zh-CN': '开始本课（载入场景）', en: 'Start (load the scenario)' },
  restart: { 'zh-CN': '从头开始本课', en: 'Start over' },
  continue: {
    'zh-CN': '继续（重新载入场景并重放已完成的步骤）',
    en: 'Continue (reload the scenario and replay the steps done)',
  },
  goal: { 'zh-CN': '目标', en: 'Goal' },
  textbook: { 'zh-CN': '对应教材', en: 'Textbook' },
  simplification: { 'zh-CN': '说明：实验室的简化', en: 'Note: where the lab simplifies' },
  waiting: { 'zh-CN': '暂不能自动检查', en: 'Not checkable yet' },
  step: { 'zh-CN': '第 {n} 步', en: 'Step {n}' },
  predict: { 'zh-CN': '先预测', en: 'Predict first' },
  predictFirst: {
    'zh-CN': '先回答上面的预测问题，命令才会显示。',
    en: 'Answer the prediction above to see the commands.',
  },
  right: { 'zh-CN': '预测正确。', en: 'Right.' },
  wrong: { 'zh-CN': '不对，看看原因：', en: 'Not quite. Here is why:' },
  edit: { 'zh-CN': '在编辑器里加上这段 YAML', en: 'Add this YAML in the editor' },
  addYaml: { 'zh-CN': '加到场景末尾并应用', en: 'Append to the scenario and apply' },
  change: { 'zh-CN': '在编辑器里做这处修改', en: 'Make this change in the editor' },
  applyEdit: { 'zh-CN': '替我修改并应用', en: 'Change it and apply' },
  editMissing: {
    'zh-CN':
      '编辑器里的场景没有要修改的那段文字（→ 上面的部分），所以什么也没改：先完成本步骤前面的操作（例如加上给出的 YAML），再点一次。',
    en: 'The scenario in the editor has no text to change (the part above →), so nothing was changed: do this step’s earlier part first (such as adding its YAML), then click again.',
  },
  try: { 'zh-CN': '试试这些命令', en: 'Try these commands' },
  run: { 'zh-CN': '运行', en: 'Run' },
  complete: { 'zh-CN': '放进终端补全', en: 'Complete in the terminal' },
  fillIn: {
    'zh-CN': '这一行不能原样运行：先把 {placeholder} 换成：',
    en: 'This line cannot run as written: first replace {placeholder} with:',
  },
  completing: {
    'zh-CN':
      '已放进终端（{host}），还没有运行：光标在 {placeholder} 之后，按 Ctrl+W 删掉它，输入名字，再按回车。',
    en: 'It is in the terminal ({host}), not run yet: the cursor is just after {placeholder}; Ctrl+W deletes it, type the name, then press Enter.',
  },
  batch: { 'zh-CN': '发送 {n} 次', en: 'Send {n} times' },
  running: { 'zh-CN': '运行中…', en: 'Running…' },
  answer: { 'zh-CN': '你的答案', en: 'Your answer' },
  check: { 'zh-CN': '检查', en: 'Check' },
  checking: { 'zh-CN': '检查中…', en: 'Checking…' },
  hint: { 'zh-CN': '提示（{n}/3）', en: 'Hint ({n}/3)' },
  stepDone: { 'zh-CN': '本步完成', en: 'Step done' },
  next: { 'zh-CN': '下一步 →', en: 'Next step →' },
  lessonDone: { 'zh-CN': '本课完成！', en: 'Lesson complete!' },
  progress: { 'zh-CN': '{done}/{total} 步', en: '{done}/{total} steps' },
  histogram: { 'zh-CN': '每个后端的连接数', en: 'Connections per endpoint' },
  scaleTitle: {
    'zh-CN': 'Service 增长时：规则数与第一个包的查找代价（三种模式）',
    en: 'As Services grow: rules, and the cost of a first packet (all three modes)',
  },
  scaleMeasure: {
    'zh-CN': '测量（10 到 1000 个 Service）',
    en: 'Measure (10 to 1,000 Services)',
  },
  scaleMeasuring: { 'zh-CN': '正在测量 {n} 个 Service…', en: 'Measuring {n} Services…' },
  scaleRules: { 'zh-CN': 'node-1 上的规则数', en: 'Rules on node-1' },
  scaleFirstPacket: {
    'zh-CN': '第一个包比对过的规则数',
    en: 'Rules the first packet was compared with',
  },
  scaleServices: { 'zh-CN': 'Service 数', en: 'Services' },
  scaleMode: { 'zh-CN': '模式', en: 'Mode' },
  scaleRulesCol: { 'zh-CN': '规则', en: 'Rules' },
  scaleSets: { 'zh-CN': 'ipset / 集合元素', en: 'ipset / set elements' },
  scaleFirstPacketCol: { 'zh-CN': '第一个包比对的规则', en: 'First packet: rules' },
  scaleLookups: { 'zh-CN': '其中哈希查找', en: 'of which hash lookups' },
  scaleSync: { 'zh-CN': '首次同步（毫秒）', en: 'First sync (ms)' },
  scaleNote: {
    'zh-CN':
      '由引擎在本浏览器里当场测量：N 个 ClusterIP Service，每个 10 个端点；node-1 上一个 Pod 向 iptables 模式下 KUBE-SERVICES 里排在最后的那个 Service 发起新连接（iptables 的最坏情况）。规则数 = nat 与 filter 表（含 kubelet 的规则），nftables 模式为 ip kube-proxy 表。同步时间取决于这台电脑。`npm run bench` 一直测到 10000 个 Service。',
    en: 'Measured now by the engine in this browser: N ClusterIP Services with 10 endpoints each; a pod on node-1 opens a new connection to the Service whose rule is last in iptables mode’s KUBE-SERVICES (iptables’ worst case). Rules = the nat and filter tables (kubelet’s rules included), or the ip kube-proxy table in nftables mode. Sync times depend on this computer. `npm run bench` goes on to 10,000 Services.',
  },
} as const;

export type StringId = keyof typeof STRINGS;

export function t(lang: Lang, id: StringId, params: Record<string, string | number> = {}): string {
  return STRINGS[id][lang].replace(/\{(\w+)\}/g, (m, k: string) =>
    params[k] !== undefined ? String(params[k]) : m,
  );
}
