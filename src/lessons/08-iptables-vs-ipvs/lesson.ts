import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

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
  waitingFor: {
    feature: 'IPVS mode (kube-ipvs0, ipvsadm, ipset, schedulers)',
    note: {
      'zh-CN': '本课的文字已经完整；它需要的 IPVS 模式还没有进入实验室，所以暂时不能自动检查。',
      en: 'This lesson’s text is complete; the IPVS mode it needs is not in the lab yet, so it cannot be checked automatically for now.',
    },
  },
  scenario,
  steps: [
    {
      id: 'same-packet',
      title: { 'zh-CN': '同一个包，两种模式', en: 'The same packet in both modes' },
      body: {
        'zh-CN':
          '先在 iptables 模式下 curl 一次 web，在追踪里数一数这个 SYN 在 nat 表里经过了多少条规则。然后在编辑器里把 KubeProxyConfiguration 的 `mode` 改成 `ipvs` 并应用，再 curl 一次。\n\nIPVS 模式下：每个 ClusterIP 都绑在 dummy 网卡 `kube-ipvs0` 上，内核因此把包当作“发给本机”；ip_vs 模块在 INPUT 钩子上按 (协议, VIP, 端口) 做哈希查找，选出 real server 并做 DNAT。iptables 里只剩少量用 ipset 匹配的规则（masquerade、NodePort、source range 过滤），规则条数不随 Service 增长。',
        en: 'In iptables mode, curl web once and count, in the trace, the nat rules the SYN went through. Then set the KubeProxyConfiguration’s `mode` to `ipvs` in the editor, apply, and curl again.\n\nIn IPVS mode every ClusterIP is bound to the dummy interface `kube-ipvs0`, so the kernel treats the packet as addressed to the node; the ip_vs module looks up (protocol, VIP, port) in a hash table at the INPUT hook, picks a real server and DNATs. Only a few iptables rules remain, matching ipsets (masquerade, NodePort, source-range filtering), and their number does not grow with the Services.',
      },
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
            'zh-CN': '绑上这些地址，内核才会把发往 VIP 的包交给本机（INPUT），IPVS 才有机会接手。',
            en: 'Only with those addresses does the kernel deliver packets for a VIP locally (INPUT), where IPVS can take them.',
          },
        },
      ],
      commands: [
        'node-1$ ipvsadm -Ln',
        'node-1$ ip addr show kube-ipvs0',
        'node-1$ ipset list KUBE-CLUSTER-IP',
        'pod/client$ curl -sS -m 2 http://10.96.1.1/',
        'node-1$ ipvsadm -Lnc',
      ],
      checks: [],
      hints: [
        {
          'zh-CN': '模式在 KubeProxyConfiguration 里。',
          en: 'The mode is in the KubeProxyConfiguration.',
        },
        {
          'zh-CN': '改成 `mode: ipvs` 并应用，kube-proxy 会以新模式重启。',
          en: 'Set `mode: ipvs` and apply: kube-proxy restarts in the new mode.',
        },
        {
          'zh-CN':
            '应用后 `node-1$ ipvsadm -Ln`，再 `pod/client$ curl -sS -m 2 http://10.96.1.1/` 并看 `ipvsadm -Lnc`。',
          en: 'After applying, `node-1$ ipvsadm -Ln`, then `pod/client$ curl -sS -m 2 http://10.96.1.1/` and `ipvsadm -Lnc`.',
        },
      ],
      solution: [],
    },
    {
      id: 'schedulers',
      title: { 'zh-CN': 'rr、lc 与 sh', en: 'rr, lc and sh' },
      body: {
        'zh-CN':
          'KubeProxyConfiguration 的 `ipvs.scheduler` 选择调度算法：`rr` 轮询（300 条连接恰好 100/100/100，对照第 3 课的随机）；`lc` 最少连接，挑当前活动连接最少的 real server；`sh` 源地址哈希，同一个客户端总落到同一个后端。',
        en: 'The KubeProxyConfiguration’s `ipvs.scheduler` picks the algorithm: `rr`, round robin (300 connections give exactly 100/100/100; compare lesson 3’s random split); `lc`, least connections, picks the real server with the fewest active connections; `sh`, source hashing, always sends one client to the same backend.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'sh',
          prompt: {
            'zh-CN': '用 sh 调度时，client 连续 10 次 curl 会分到几个不同的 Pod？',
            en: 'With sh, how many different pods do 10 curls from the client reach?',
          },
          choices: [
            { text: { 'zh-CN': '1 个', en: 'One' }, correct: true },
            { text: { 'zh-CN': '约 3 个', en: 'About three' } },
          ],
          reveal: {
            'zh-CN': 'sh 按源地址哈希选后端，同一个源地址永远得到同一个结果（只要后端集合不变）。',
            en: 'sh hashes the source address, and the same source always gets the same answer (as long as the backends do not change).',
          },
        },
      ],
      commands: [
        'node-1$ ipvsadm -Ln',
        'pod/client$ curl -sS -m 2 http://10.96.1.1/',
        'node-1$ ipvsadm -Ln --stats',
      ],
      checks: [],
      hints: [
        {
          'zh-CN': '调度算法也在 KubeProxyConfiguration 里。',
          en: 'The scheduler is in the KubeProxyConfiguration too.',
        },
        {
          'zh-CN': '改 `ipvs:` 下的 `scheduler:` 并应用，`ipvsadm -Ln` 的第一行会显示它。',
          en: 'Change `scheduler:` under `ipvs:` and apply; `ipvsadm -Ln` shows it on each virtual server line.',
        },
        {
          'zh-CN':
            '依次设成 rr、lc、sh，每次发一批连接，比较 `ipvsadm -Ln --stats` 里各 real server 的连接数。',
          en: 'Set rr, lc, sh in turn, send a batch of connections each time, and compare the real servers’ connection counts in `ipvsadm -Ln --stats`.',
        },
      ],
      solution: [],
    },
    {
      id: 'scale',
      title: { 'zh-CN': 'Service 越来越多', en: 'More and more Services' },
      body: {
        'zh-CN':
          'iptables 模式下，KUBE-SERVICES 每个 Service 端口一条规则，包要从上往下逐条匹配：查找代价随 Service 数线性增长，每次同步要写的规则也越来越多。IPVS 的查找是哈希表，代价与 Service 数无关，iptables 规则数保持恒定。面板的图表画出两种模式下 nat 规则条数和一个包在 KUBE-SERVICES 里比较的次数随 Service 数变化的曲线。',
        en: 'In iptables mode KUBE-SERVICES has one rule per Service port and a packet is matched against them top to bottom: the lookup cost grows linearly with the Services, and every sync writes more rules. IPVS looks up a hash table, whose cost does not depend on the number of Services, and its iptables rules stay constant. The panel’s chart plots, for both modes, the nat rule count and the comparisons a packet makes in KUBE-SERVICES as the Services grow.',
      },
      commands: ['node-1$ lab sync', 'node-1$ iptables -t nat -S | wc -l'],
      checks: [],
      hints: [
        {
          'zh-CN': '比较同一个场景在两种模式下的规则条数。',
          en: 'Compare the rule counts of the same scenario in both modes.',
        },
        {
          'zh-CN': '`lab sync` 会报告 kube-proxy 上次写了多少条 nat 规则。',
          en: '`lab sync` reports how many nat rules kube-proxy wrote last time.',
        },
        {
          'zh-CN':
            '在两种模式下各运行 `node-1$ iptables -t nat -S | wc -l`，并在追踪里数 KUBE-SERVICES 的比较次数。',
          en: 'Run `node-1$ iptables -t nat -S | wc -l` in both modes, and count the KUBE-SERVICES comparisons in the trace.',
        },
      ],
      solution: [],
    },
  ],
};
