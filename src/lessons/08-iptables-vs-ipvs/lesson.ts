import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const CURL = 'pod/client$ curl -sS -m 2 http://10.96.1.1/';
const TO_IPVS = { replace: 'mode: iptables', with: 'mode: ipvs' };
const TO_SH = { replace: 'mode: ipvs', with: 'mode: ipvs\nipvs:\n  scheduler: sh' };

export const lesson: Lesson = {
  id: '08-iptables-vs-ipvs',
  number: 8,
  title: { 'zh-CN': 'iptables 与 IPVS 对比', en: 'iptables against IPVS' },
  goal: {
    'zh-CN':
      '把第 7 章 7.8 节的对比表变成实验：同一个包分别在 iptables 模式和 IPVS 模式下走一遍；试一试 IPVS 的 rr、lc、sh 调度；再看 Service 数量增长时，两种模式的规则数和查找代价怎样变化。',
    en: 'Turn the comparison table of chapter 7, section 7.8 into an experiment: send the same packet in iptables mode and in IPVS mode; try IPVS’s rr, lc and sh schedulers; then see how the number of rules and the lookup cost grow with the number of Services in each mode.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.2.3、7.4、7.8 节；《Kubernetes Service 原理》第 6、8 节',
    en: 'Chapter 7, sections 7.2.3, 7.4 and 7.8; “Service principles”, sections 6 and 8',
  },
  scenario,
  steps: [
    {
      id: 'same-packet',
      title: { 'zh-CN': '同一个包，两种模式', en: 'The same packet in both modes' },
      body: {
        'zh-CN':
          '先在 iptables 模式下 curl 一次 web，在追踪里看这个 SYN 在 nat 表里走过的链。然后在编辑器里把 KubeProxyConfiguration 的 `mode` 改成 `ipvs` 并应用（kube-proxy 以新模式重启，并清理 iptables 模式留下的链），再 curl 一次。\n\nIPVS 模式下：每个 ClusterIP 都绑在 dummy 网卡 `kube-ipvs0` 上，内核因此把包当作“发给本机”；ip_vs 模块在 INPUT 钩子上按 (协议, VIP, 端口) 做哈希查找，选出 real server 并做 DNAT。iptables 里只剩少量用 ipset 匹配的规则（masquerade、NodePort、source range 过滤）。',
        en: 'In iptables mode, curl web once and follow the SYN through the nat chains in the trace. Then set the KubeProxyConfiguration’s `mode` to `ipvs` in the editor and apply (kube-proxy restarts in the new mode and cleans up the iptables-mode chains), and curl again.\n\nIn IPVS mode every ClusterIP is bound to the dummy interface `kube-ipvs0`, so the kernel treats the packet as addressed to the node; the ip_vs module looks up (protocol, VIP, port) in a hash table at the INPUT hook, picks a real server and DNATs. Only a few iptables rules remain, matching ipsets (masquerade, NodePort, source-range filtering).',
      },
      edit: TO_IPVS,
      predict: [
        {
          kind: 'choice',
          id: 'vip-where',
          prompt: {
            'zh-CN': 'IPVS 模式下，`ip addr show kube-ipvs0` 会显示什么？',
            en: 'In IPVS mode, what does `ip addr show kube-ipvs0` show?',
          },
          choices: [
            { text: { 'zh-CN': '没有地址', en: 'No addresses' } },
            {
              text: {
                'zh-CN': '每个 ClusterIP 一个 /32 地址',
                en: 'One /32 address per ClusterIP',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'Pod 的地址', en: 'The pods’ addresses' } },
          ],
          reveal: {
            'zh-CN':
              '绑上这些地址，内核就在 local 路由表里为每个 VIP 加一条 `local` 路由（`ip route show table local`，即使 kube-ipvs0 从未 up），发往 VIP 的包因此交给本机（INPUT），IPVS 才有机会接手。',
            en: 'Binding them makes the kernel add a `local` route per VIP to its local routing table (`ip route show table local`, even though kube-ipvs0 is never up), so packets for a VIP are delivered to the node (INPUT), where IPVS can take them.',
          },
        },
      ],
      commands: [
        CURL,
        'node-1$ ipvsadm -Ln',
        'node-1$ ip addr show kube-ipvs0',
        'node-1$ ip route show table local dev kube-ipvs0',
        'node-1$ iptables -t nat -S KUBE-SERVICES',
        CURL,
        'node-1$ ipvsadm -Lnc',
      ],
      checks: [
        {
          id: 'iptables-path',
          kind: 'path',
          params: {
            from: 'pod/default/client',
            dst: 'vip:default/web',
            chains: ['KUBE-SERVICES', 'KUBE-SVC-', 'KUBE-SEP-', 'DNAT'],
          },
          label: {
            'zh-CN': 'iptables 模式下，包经过 KUBE-SERVICES → KUBE-SVC → KUBE-SEP 被 DNAT',
            en: 'In iptables mode the packet went KUBE-SERVICES → KUBE-SVC → KUBE-SEP and was DNATed',
          },
        },
        {
          id: 'mode-ipvs',
          kind: 'proxyMode',
          params: { mode: 'ipvs' },
          label: { 'zh-CN': 'kube-proxy 运行在 IPVS 模式', en: 'kube-proxy runs in IPVS mode' },
        },
        {
          id: 'ipvs-scheduled',
          kind: 'ipvs',
          params: { from: 'pod/default/client', dst: 'vip:default/web', action: 'schedule' },
          label: {
            'zh-CN': 'IPVS 为一条到 web 的新连接选了 real server',
            en: 'IPVS picked a real server for a new connection to web',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先在 iptables 模式下访问一次，再改模式。',
          en: 'Call web once in iptables mode first, then change the mode.',
        },
        {
          'zh-CN': '模式在 KubeProxyConfiguration 的 `mode:` 字段；改好后点应用，再访问一次。',
          en: 'The mode is the KubeProxyConfiguration’s `mode:` field; apply after changing it, then call again.',
        },
        {
          'zh-CN': `运行 \`${CURL}\`，把 \`mode: iptables\` 改成 \`mode: ipvs\` 并应用，再运行一次 \`${CURL}\`。`,
          en: `Run \`${CURL}\`, change \`mode: iptables\` to \`mode: ipvs\` and apply, then run \`${CURL}\` again.`,
        },
      ],
      solution: [
        { run: CURL },
        TO_IPVS,
        {
          run: `node-1$ ipvsadm -Ln\nnode-1$ ip addr show kube-ipvs0\n${CURL}\nnode-1$ ipvsadm -Lnc`,
        },
      ],
      wrong: { actions: [{ run: CURL }], failing: ['mode-ipvs', 'ipvs-scheduled'] },
    },
    {
      id: 'rr',
      title: { 'zh-CN': 'rr：真正的轮询', en: 'rr: real round robin' },
      body: {
        'zh-CN':
          '没有配置 `ipvs.scheduler` 时，kube-proxy 使用 `rr`（`ipvsadm -Ln` 每个虚拟服务那一行的最后一列）。清空 conntrack，向 web 发 30 条新连接，数每个 Pod 得到几条，对照第 3 课 iptables 模式的随机结果。',
        en: 'With no `ipvs.scheduler` configured kube-proxy uses `rr` (the last column of each virtual server line in `ipvsadm -Ln`). Flush conntrack, send 30 new connections to web, and count what each pod got; compare with lesson 3’s random split in iptables mode.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'rr-split',
          prompt: {
            'zh-CN': '30 条连接、3 个 Pod，会怎样分？',
            en: '30 connections, 3 pods: how are they split?',
          },
          choices: [
            { text: { 'zh-CN': '大约各 10 条，有起伏', en: 'About 10 each, give or take' } },
            { text: { 'zh-CN': '恰好各 10 条', en: 'Exactly 10 each' }, correct: true },
          ],
          reveal: {
            'zh-CN': 'rr 依次轮流选择 real server，不掷骰子：每个恰好 10 条。',
            en: 'rr takes the real servers in turn, with no dice: exactly 10 each.',
          },
        },
      ],
      batch: { command: CURL, times: 30 },
      commands: ['node-1$ conntrack -F', CURL, 'node-1$ ipvsadm -Ln --stats'],
      checks: [
        {
          id: 'rr-even',
          kind: 'spread',
          params: { service: 'default/web', total: 30, endpoints: 3, maxSpread: 0 },
          label: {
            'zh-CN': '至少 30 条连接，三个 Pod 得到的一样多',
            en: 'At least 30 connections, and all three pods got exactly as many',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先清空 conntrack，免得旧连接混进统计。',
          en: 'Flush conntrack first so that old connections do not count.',
        },
        { 'zh-CN': '用面板上的“发送 30 次”按钮。', en: 'Use the panel’s “send 30 times” button.' },
        {
          'zh-CN': '`node-1$ conntrack -F`，然后“发送 30 次”，再点“检查”看直方图。',
          en: '`node-1$ conntrack -F`, then “send 30 times”, then Check to see the histogram.',
        },
      ],
      solution: [
        { run: ['node-1$ conntrack -F', ...Array.from({ length: 30 }, () => CURL)].join('\n') },
      ],
      wrong: { actions: [{ run: CURL }], failing: ['rr-even'] },
    },
    {
      id: 'sh',
      title: { 'zh-CN': 'sh：源地址哈希', en: 'sh: source hashing' },
      body: {
        'zh-CN':
          '把调度算法改成 `sh`（在 KubeProxyConfiguration 里加 `ipvs.scheduler: sh` 并应用），清空 conntrack，再从 client 连续访问 10 次。`lc`（最少连接）也可以用同样的方法试：它挑当前活动连接最少的 real server。',
        en: 'Change the scheduler to `sh` (add `ipvs.scheduler: sh` to the KubeProxyConfiguration and apply), flush conntrack, and call web 10 times from the client. Try `lc` (least connections) the same way: it picks the real server with the fewest active connections.',
      },
      edit: TO_SH,
      predict: [
        {
          kind: 'choice',
          id: 'sh-pods',
          prompt: {
            'zh-CN': '10 次访问会分到几个不同的 Pod？',
            en: 'How many different pods do the 10 calls reach?',
          },
          choices: [
            { text: { 'zh-CN': '1 个', en: 'One' }, correct: true },
            { text: { 'zh-CN': '约 3 个', en: 'About three' } },
          ],
          reveal: {
            'zh-CN': 'sh 按源地址哈希选后端：同一个源地址总是得到同一个后端（只要后端集合不变）。',
            en: 'sh hashes the source address: one source always gets the same backend (as long as the backends do not change).',
          },
        },
      ],
      batch: { command: CURL, times: 10 },
      commands: ['node-1$ ipvsadm -Ln', 'node-1$ conntrack -F', CURL],
      checks: [
        {
          id: 'sh-one',
          kind: 'spread',
          params: { service: 'default/web', total: 10, endpoints: 3, used: 1 },
          label: {
            'zh-CN': '至少 10 条连接，全部去了同一个 Pod',
            en: 'At least 10 connections, all to the same pod',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '调度算法也在 KubeProxyConfiguration 里。',
          en: 'The scheduler is in the KubeProxyConfiguration too.',
        },
        {
          'zh-CN':
            '在 `mode: ipvs` 下面加两行 `ipvs:` 和 `  scheduler: sh`，应用后 `ipvsadm -Ln` 会显示 sh。',
          en: 'Add `ipvs:` and `  scheduler: sh` under `mode: ipvs`; after applying, `ipvsadm -Ln` shows sh.',
        },
        {
          'zh-CN': '做本步骤给出的修改并应用，`node-1$ conntrack -F`，然后“发送 10 次”。',
          en: 'Make this step’s edit and apply, `node-1$ conntrack -F`, then “send 10 times”.',
        },
      ],
      solution: [
        TO_SH,
        { run: ['node-1$ conntrack -F', ...Array.from({ length: 10 }, () => CURL)].join('\n') },
      ],
      wrong: {
        actions: [
          { run: ['node-1$ conntrack -F', ...Array.from({ length: 10 }, () => CURL)].join('\n') },
        ],
        failing: ['sh-one'],
      },
    },
    {
      id: 'scale',
      title: { 'zh-CN': 'Service 越来越多', en: 'More and more Services' },
      body: {
        'zh-CN':
          'iptables 模式下，KUBE-SERVICES 每个 Service 端口一条规则，包要从上往下逐条匹配：查找代价随 Service 数线性增长，每次同步要写的规则也越来越多（第 2 课）。IPVS 模式下 KUBE-SERVICES 只剩几条固定规则，Service 的地址放进 ipset `KUBE-CLUSTER-IP`（哈希集合），虚拟服务本身也在哈希表里查找，代价与 Service 数无关。\n\n下面的图由引擎当场测量：点“测量”，它为每种模式搭出 10 到 1000 个 Service（每个 10 个端点）的集群，数出 node-1 上的规则数，以及一条新连接的第一个包被比对过的规则数。',
        en: 'In iptables mode KUBE-SERVICES has one rule per Service port and a packet is matched against them top to bottom: the lookup cost grows linearly with the Services, and every sync writes more rules (lesson 2). In IPVS mode KUBE-SERVICES keeps a few fixed rules; the Services’ addresses go into the ipset `KUBE-CLUSTER-IP` (a hash set), and virtual servers are found in a hash table too, at a cost that does not depend on the number of Services.\n\nThe chart below is measured by the engine on the spot: press Measure and it builds clusters of 10 to 1,000 Services (10 endpoints each) in every mode, counts the rules on node-1, and the rules a new connection’s first packet was compared with.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'thousand',
          prompt: {
            'zh-CN': '再加 1000 个 Service，IPVS 模式下 nat 表的 KUBE-SERVICES 会有几条规则？',
            en: 'With 1000 more Services, how many rules would nat KUBE-SERVICES have in IPVS mode?',
          },
          choices: [
            { text: { 'zh-CN': '和现在一样', en: 'The same as now' }, correct: true },
            { text: { 'zh-CN': '多 1000 条', en: '1000 more' } },
          ],
          reveal: {
            'zh-CN': '增长的是 ipset 的成员和 IPVS 的虚拟服务，不是 iptables 规则。',
            en: 'What grows is the ipset’s members and IPVS’s virtual servers, not the iptables rules.',
          },
        },
      ],
      commands: [
        'node-1$ iptables -t nat -S KUBE-SERVICES',
        'node-1$ ipset list KUBE-CLUSTER-IP',
        'node-1$ lab sync',
      ],
      chart: 'scale',
      ask: [
        {
          kind: 'value',
          id: 'rules',
          prompt: {
            'zh-CN': 'IPVS 模式下，nat 表的 KUBE-SERVICES 链里有几条规则？',
            en: 'In IPVS mode, how many rules does the nat KUBE-SERVICES chain have?',
          },
          placeholder: '0',
          reveal: {
            'zh-CN': '只有几条固定规则，都靠 ipset 匹配；iptables 模式下每个 Service 端口一条。',
            en: 'Just a few fixed rules, all matching ipsets; iptables mode had one per Service port.',
          },
        },
      ],
      checks: [
        {
          id: 'rules-answer',
          kind: 'answer',
          params: { question: 'rules', value: 'ruleCount', chain: 'KUBE-SERVICES', comment: '' },
          label: {
            'zh-CN': '数对了 KUBE-SERVICES 的规则',
            en: 'You counted KUBE-SERVICES’s rules',
          },
        },
      ],
      hints: [
        { 'zh-CN': '列出 nat 表的 KUBE-SERVICES 链。', en: 'List the nat KUBE-SERVICES chain.' },
        {
          'zh-CN': '`-S` 的输出里以 `-A KUBE-SERVICES` 开头的行才是规则。',
          en: 'In `-S` output, only the lines starting with `-A KUBE-SERVICES` are rules.',
        },
        {
          'zh-CN': "运行 `node-1$ iptables -t nat -S KUBE-SERVICES | grep -c '^-A'`，填入这个数。",
          en: "Run `node-1$ iptables -t nat -S KUBE-SERVICES | grep -c '^-A'` and type the number.",
        },
      ],
      solution: [
        { run: "node-1$ iptables -t nat -S KUBE-SERVICES | grep -c '^-A'" },
        { answer: 'rules', value: '4' },
      ],
      wrong: { actions: [{ answer: 'rules', value: '7' }], failing: ['rules-answer'] },
    },
  ],
};
