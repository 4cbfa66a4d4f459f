/**
 * What a check says about the lab, by message id (src/protocol/lessons.ts), in both languages.
 * `{name}` is replaced by the check's parameter of that name.
 */
import type { Lang, Text } from './types';

export const CHECK_MESSAGES: Readonly<Record<string, Text>> = {
  'check.conntrack': {
    'zh-CN': '{node} 的 conntrack 表中符合条件的连接：{found} 条（需要至少 {min} 条）',
    en: '{node} conntrack entries that match: {found} (at least {min} needed)',
  },
  'check.noConntrack': {
    'zh-CN': '{node} 的 conntrack 表中符合条件的连接：{found} 条（应为 0）',
    en: '{node} conntrack entries that match: {found} (there should be none)',
  },
  'check.spread': {
    'zh-CN': '{service} 的连接共 {total} 条（需要 {minTotal} 条），最少的一个后端得到 {least} 条',
    en: '{service}: {total} connections (need {minTotal}); the least-picked endpoint got {least}',
  },
  'check.endpoints': {
    'zh-CN': '{service} 现有 {count} 个就绪 endpoint（目标 {want} 个）',
    en: '{service} has {count} ready endpoints (wanted: {want})',
  },
  'check.service.missing': {
    'zh-CN': '集群里还没有 Service {service}',
    en: 'There is no Service {service} in the cluster yet',
  },
  'check.service.ok': {
    'zh-CN': 'Service {service} 已按要求创建',
    en: 'Service {service} is there, as asked',
  },
  'check.service.wrong': {
    'zh-CN': 'Service {service} 存在，但这些字段还不对：{fields}',
    en: 'Service {service} exists, but these fields are not right yet: {fields}',
  },
  'check.sysctl': {
    'zh-CN': '{node} 上 {key} = {value}',
    en: 'On {node}, {key} = {value}',
  },
  'check.hairpin': {
    'zh-CN': '{pod} 的网桥端口 {port}：hairpin {state}',
    en: "{pod}'s bridge port {port}: hairpin {state}",
  },
  'check.rule.present': {
    'zh-CN': '{node} 上符合条件的规则：{found} 条（应至少 1 条）',
    en: 'Matching rules on {node}: {found} (there should be one)',
  },
  'check.rule.absent': {
    'zh-CN': '{node} 上符合条件的规则：{found} 条（应为 0）',
    en: 'Matching rules on {node}: {found} (there should be none)',
  },
  'check.answer.missing': {
    'zh-CN': '还没有填写答案',
    en: 'No answer yet',
  },
  'check.answer.ok': {
    'zh-CN': '“{answer}”与实验室中的状态一致',
    en: '“{answer}” agrees with what the lab shows',
  },
  'check.answer.wrong': {
    'zh-CN': '“{answer}”与实验室中的状态不符，再看一遍命令输出',
    en: '“{answer}” does not match what the lab shows; read the output again',
  },
  'check.path': {
    'zh-CN': '从 {from} 发出的包按顺序经过了 {reached}/{total} 条链；下一条应是 {next}',
    en: 'Packets from {from} walked {reached} of the {total} chains in order; next expected: {next}',
  },
  'check.received': {
    'zh-CN': '{host} 收到符合条件的包：{found} 个',
    en: '{host} received {found} matching packet(s)',
  },
  'check.sent': {
    'zh-CN': '{host} 发出符合条件的包：{found} 个',
    en: '{host} sent {found} matching packet(s)',
  },
  'check.nat': {
    'zh-CN': '本步骤中记录到的 {manip} 改写：{found} 次',
    en: '{manip} rewrites recorded in this step: {found}',
  },
  'check.dropped': {
    'zh-CN': '本步骤中因该原因被丢弃的包：{found} 个',
    en: 'Packets dropped for that reason in this step: {found}',
  },
  'check.natOnce': {
    'zh-CN': '本步骤记录到 {connections} 条连接，最长的一条有 {packets} 个去程包',
    en: '{connections} connection(s) recorded in this step; the longest had {packets} packets out',
  },
  'check.rebalanced': {
    'zh-CN': '{from} 的同一个套接字先后被 DNAT 到 {backends} 个不同的后端',
    en: 'One socket of {from} was DNATed to {backends} different backend(s) over time',
  },
  'check.unknown': {
    'zh-CN': '这个版本的实验室不认识检查类型 {kind}',
    en: 'This version of the lab does not know the check kind {kind}',
  },
};

/** A check message in the learner's language, parameters filled in. */
export function renderCheckMessage(
  lang: Lang,
  id: string,
  params: Readonly<Record<string, string | number>> = {},
): string {
  const text = CHECK_MESSAGES[id]?.[lang] ?? id;
  return text.replace(/\{(\w+)\}/g, (m, k: string) =>
    params[k] !== undefined ? String(params[k]) : m,
  );
}
