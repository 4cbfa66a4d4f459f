import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const DIG = 'pod/client$ dig @10.96.0.10 +short web.default.svc.cluster.local';

export const lesson: Lesson = {
  id: '04-dns-query-path',
  number: 4,
  title: { 'zh-CN': '一次 DNS 查询的完整路径', en: 'A DNS query’s full path' },
  goal: {
    'zh-CN':
      '逐条规则跟踪 Pod 10.244.0.5 发往 10.96.0.10:53/UDP 的 DNS 查询：PREROUTING → KUBE-SERVICES → KUBE-SVC-TCOU7JCQXEZGVUNU → KUBE-SEP → DNAT，再看回包如何被 conntrack 反向 DNAT，源地址变回 10.96.0.10:53。',
    en: 'Follow the DNS query pod 10.244.0.5 sends to 10.96.0.10:53/UDP rule by rule: PREROUTING → KUBE-SERVICES → KUBE-SVC-TCOU7JCQXEZGVUNU → KUBE-SEP → DNAT; then watch conntrack un-DNAT the reply so that it comes from 10.96.0.10:53 again.',
  },
  textbook: {
    'zh-CN': '《Kubernetes Service 原理》第 7 节“iptables 流量通信流程”，7.4 完整数据包跟踪示例',
    en: '“Service principles”, section 7, and the full packet trace in 7.4',
  },
  scenario,
  steps: [
    {
      id: 'which-chain',
      title: { 'zh-CN': 'KUBE-SERVICES 里命中哪一条', en: 'Which KUBE-SERVICES rule matches' },
      body: {
        'zh-CN':
          'kube-dns 有三个端口：dns（53/UDP）、dns-tcp（53/TCP）、metrics（9153/TCP），每个端口在 KUBE-SERVICES 里有一条规则、一条 KUBE-SVC 链。KUBE-SERVICES 从上到下逐条比较目的 IP、协议和目的端口。\n\n注意：真实 kube-proxy 按 Go map 的遍历顺序写这些规则，每次全量同步都可能不同；实验室按“服务端口名”排序，保证每次看到的一样。\n\n在真实节点上也能看到同样的逐条匹配：先用 `iptables -t raw -I PREROUTING -p udp -d 10.96.0.10 --dport 53 -j TRACE` 给查询包打上跟踪标记，再用 `xtables-monitor --trace` 查看。每一行是一条命中的规则（句柄、判决、规则原文），每条基础链前有一行 PACKET，给出包当时的样子。实验台里这两条命令也能用。',
        en: 'kube-dns has three ports: dns (53/UDP), dns-tcp (53/TCP) and metrics (9153/TCP); each has one rule in KUBE-SERVICES and its own KUBE-SVC chain. KUBE-SERVICES compares destination IP, protocol and destination port rule by rule, top to bottom.\n\nNote: real kube-proxy writes these rules in Go map order, which can change at every full sync; the lab sorts them by service-port name so that they always read the same.\n\nA real node shows the same rule-by-rule walk: mark the query for tracing with `iptables -t raw -I PREROUTING -p udp -d 10.96.0.10 --dport 53 -j TRACE`, then read `xtables-monitor --trace`. Each line is a rule that matched (its handle, its verdict, its text), and a PACKET line before each base chain shows the packet as it was there. Both commands work in the lab too.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'svc-chain',
          prompt: {
            'zh-CN': 'client 的 UDP 查询会跳到哪条链？',
            en: 'Which chain does the client’s UDP query jump to?',
          },
          choices: [
            {
              text: {
                'zh-CN': 'KUBE-SVC-ERIFXISQEP7F7OF4（kube-dns:dns-tcp）',
                en: 'KUBE-SVC-ERIFXISQEP7F7OF4 (kube-dns:dns-tcp)',
              },
            },
            {
              text: {
                'zh-CN': 'KUBE-SVC-TCOU7JCQXEZGVUNU（kube-dns:dns）',
                en: 'KUBE-SVC-TCOU7JCQXEZGVUNU (kube-dns:dns)',
              },
              correct: true,
            },
            {
              text: {
                'zh-CN': 'KUBE-SVC-JD5MR3NA4I4DYORP（kube-dns:metrics）',
                en: 'KUBE-SVC-JD5MR3NA4I4DYORP (kube-dns:metrics)',
              },
            },
          ],
          reveal: {
            'zh-CN':
              '三条规则的目的 IP 都是 10.96.0.10，区别在协议和端口：`udp dpt:53` 的那条是 kube-dns:dns。dns-tcp 虽然也是 53，但协议是 tcp。',
            en: 'All three match destination 10.96.0.10; protocol and port tell them apart: the `udp dpt:53` one is kube-dns:dns. dns-tcp is port 53 too, but tcp.',
          },
        },
      ],
      commands: [
        'node-1$ iptables -t nat -L KUBE-SERVICES -n',
        'node-1$ iptables -t nat -L KUBE-SVC-TCOU7JCQXEZGVUNU -n',
        'node-1$ iptables -t raw -I PREROUTING -p udp -d 10.96.0.10 --dport 53 -j TRACE',
        DIG,
        'node-1$ xtables-monitor --trace',
      ],
      checks: [
        {
          id: 'path',
          kind: 'path',
          params: {
            from: 'pod/default/client',
            dst: 'vip:kube-system/kube-dns',
            proto: 'udp',
            chains: [
              'PREROUTING',
              'KUBE-SERVICES',
              'KUBE-SVC-TCOU7JCQXEZGVUNU',
              'KUBE-SEP-',
              'DNAT',
            ],
          },
          label: {
            'zh-CN':
              '一个 DNS 查询依次经过 PREROUTING、KUBE-SERVICES、KUBE-SVC-TCOU7JCQXEZGVUNU、KUBE-SEP 并被 DNAT',
            en: 'A DNS query walked PREROUTING, KUBE-SERVICES, KUBE-SVC-TCOU7JCQXEZGVUNU, a KUBE-SEP, and was DNATed',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先看规则，再真的发一个 DNS 查询。',
          en: 'Read the rules, then really send a DNS query.',
        },
        {
          'zh-CN': '在 client 上用 dig，并用 `@10.96.0.10` 指定 DNS 服务器。',
          en: 'Use dig on the client, with `@10.96.0.10` as the server.',
        },
        {
          'zh-CN': `运行 \`${DIG}\`，然后在追踪视图里看查询包。`,
          en: `Run \`${DIG}\` and read the query in the trace.`,
        },
      ],
      solution: [{ run: `node-1$ iptables -t nat -L KUBE-SERVICES -n\n${DIG}` }],
    },
    {
      id: 'masq',
      title: { 'zh-CN': 'KUBE-MARK-MASQ 为什么没命中', en: 'Why KUBE-MARK-MASQ does not match' },
      body: {
        'zh-CN':
          'KUBE-SVC-TCOU7JCQXEZGVUNU 的第一条规则是 `! -s 10.244.0.0/16 … -j KUBE-MARK-MASQ`：源地址不在 Pod 网段的包要打 0x4000 标记，稍后在 KUBE-POSTROUTING 里做 MASQUERADE。KUBE-SEP 里还有一条 `-s <Pod 自己> -j KUBE-MARK-MASQ`，处理 Pod 访问自己（hairpin，第 10 课）。',
        en: 'The first rule of KUBE-SVC-TCOU7JCQXEZGVUNU is `! -s 10.244.0.0/16 … -j KUBE-MARK-MASQ`: packets from outside the pod network get mark 0x4000 and are masqueraded later in KUBE-POSTROUTING. Each KUBE-SEP also has `-s <the pod itself> -j KUBE-MARK-MASQ`, for a pod calling itself (hairpin, lesson 10).',
      },
      predict: [
        {
          kind: 'choice',
          id: 'masq-match',
          prompt: {
            'zh-CN': '10.244.0.5 的查询会被 masquerade（SNAT）吗？',
            en: 'Will the query from 10.244.0.5 be masqueraded (SNATed)?',
          },
          choices: [
            { text: { 'zh-CN': '会', en: 'Yes' } },
            { text: { 'zh-CN': '不会', en: 'No' }, correct: true },
          ],
          reveal: {
            'zh-CN':
              '源地址在 10.244.0.0/16 内，`! -s` 不匹配；选中的 CoreDNS 也不是 client 自己。CoreDNS 看到的源地址就是 10.244.0.5。',
            en: 'The source is inside 10.244.0.0/16, so `! -s` does not match, and the CoreDNS picked is not the client itself. CoreDNS sees the source 10.244.0.5.',
          },
        },
      ],
      commands: ['node-1$ conntrack -L -p udp'],
      ask: [
        {
          kind: 'value',
          id: 'coredns',
          prompt: {
            'zh-CN': 'conntrack 记录的应答方向里，哪个 CoreDNS Pod（IP）回答了这次查询？',
            en: 'In the conntrack entry’s reply tuple, which CoreDNS pod (IP) answered?',
          },
          placeholder: '10.244.0.x',
          reveal: {
            'zh-CN': '应答方向的 `src=` 就是被选中的后端；`dst=10.244.0.5` 说明没有做 SNAT。',
            en: 'The reply tuple’s `src=` is the backend chosen; `dst=10.244.0.5` shows there was no SNAT.',
          },
        },
      ],
      checks: [
        {
          id: 'no-snat',
          kind: 'conntrack',
          params: {
            proto: 'udp',
            origSrc: 'pod:default/client',
            origDst: 'vip:kube-system/kube-dns',
            origDport: 53,
            replySrc: 'eps:kube-system/kube-dns',
            snat: false,
          },
          label: {
            'zh-CN': 'node-1 上有 client → 10.96.0.10:53 的 UDP 记录，回包来自 CoreDNS 且没有 SNAT',
            en: 'node-1 has a UDP entry client → 10.96.0.10:53, answered by CoreDNS, without SNAT',
          },
        },
        {
          id: 'coredns-answer',
          kind: 'answer',
          params: {
            question: 'coredns',
            value: 'replySourceOfLatest',
            dst: 'vip:kube-system/kube-dns',
          },
          label: { 'zh-CN': '认出了回答查询的 CoreDNS', en: 'You named the CoreDNS that answered' },
        },
      ],
      hints: [
        {
          'zh-CN': '答案在连接跟踪表里：一条 UDP 记录有原始和应答两个方向。',
          en: 'The answer is in the connection tracking table: a UDP entry has an original and a reply tuple.',
        },
        {
          'zh-CN': '在 node-1 上列出 UDP 的 conntrack 记录，看第二组 `src=`。',
          en: 'List node-1’s UDP conntrack entries and read the second `src=`.',
        },
        {
          'zh-CN': '`node-1$ conntrack -L -p udp`：`dport=53` 那一行里第二个 `src=` 的值。',
          en: '`node-1$ conntrack -L -p udp`: the second `src=` on the `dport=53` line.',
        },
      ],
      solution: [
        { run: 'node-1$ conntrack -L -p udp' },
        { answer: 'coredns', value: '10.244.0.3' },
      ],
      wrong: {
        actions: [{ answer: 'coredns', value: '10.96.0.10' }],
        failing: ['coredns-answer'],
      },
    },
    {
      id: 'undnat',
      title: { 'zh-CN': '回包的反向 DNAT', en: 'The reply’s un-DNAT' },
      body: {
        'zh-CN':
          'CoreDNS 回包的源地址是它自己的 Pod IP。client 的套接字只认 10.96.0.10:53，所以回包必须被改写。这一步不查任何 nat 规则（回包属于已有连接），而是由 conntrack 按记录里的映射直接改写——这就是教材说的“自动反向 un-DNAT”。\n\n再发一次查询，在追踪视图里找回包上的 `undnat` 一步。CoreDNS 和 client 都在 node-1 的网桥上：回包是被桥接的，靠 `bridge-nf-call-iptables=1` 才经过 conntrack（第 9 课）。',
        en: 'CoreDNS answers from its own pod IP. The client’s socket only knows 10.96.0.10:53, so the reply must be rewritten. No nat rule is consulted for this (the reply belongs to a known connection): conntrack rewrites it from the mapping it stored — the textbook’s “automatic reverse un-DNAT”.\n\nSend another query and find the `undnat` step on the reply in the trace. CoreDNS and the client share node-1’s bridge: the reply is bridged, and goes through conntrack only because `bridge-nf-call-iptables=1` (lesson 9).',
      },
      commands: [DIG],
      checks: [
        {
          id: 'undnat',
          kind: 'nat',
          params: {
            manip: 'undnat',
            beforeSrc: 'eps:kube-system/kube-dns',
            afterSrc: 'vip:kube-system/kube-dns',
            afterDst: 'pod:default/client',
          },
          label: {
            'zh-CN': '回包的源地址由 CoreDNS Pod IP 改回了 10.96.0.10',
            en: 'The reply’s source was changed from the CoreDNS pod IP back to 10.96.0.10',
          },
        },
        {
          id: 'client-got-vip',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'vip:kube-system/kube-dns', proto: 'udp' },
          label: {
            'zh-CN': 'client 收到的回答来自 10.96.0.10',
            en: 'The client received its answer from 10.96.0.10',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '这一步只需要再查询一次，然后读追踪。',
          en: 'This step only needs one more query, then a look at the trace.',
        },
        {
          'zh-CN': '回包先以 CoreDNS 的地址出发，在 node-1 的某个钩子处被改写。',
          en: 'The reply leaves with CoreDNS’s address and is rewritten at one of node-1’s hooks.',
        },
        { 'zh-CN': `再运行 \`${DIG}\`。`, en: `Run \`${DIG}\` again.` },
      ],
      solution: [{ run: DIG }],
      takeaway: {
        'zh-CN':
          '一条连接只在第一个包上查 nat 规则；之后两个方向的包都由 conntrack 按记录改写（第 6 课）。',
        en: 'Only a connection’s first packet consults the nat rules; after that, packets in both directions are rewritten by conntrack from its record (lesson 6).',
      },
    },
  ],
};
