import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const CURL = 'pod/client$ curl -sS -m 2 http://10.96.1.1/';

export const lesson: Lesson = {
  id: '06-conntrack',
  number: 6,
  title: {
    'zh-CN': '连接跟踪：第二个包为什么不再查规则',
    en: 'conntrack: why the second packet skips the chains',
  },
  goal: {
    'zh-CN':
      '看清 nat 表的规则只在一条连接的第一个包上执行：之后的包（两个方向）都由 conntrack 按记录改写；学会读 `conntrack -L` 的一行：协议、超时、状态、原始方向、应答方向和标志。',
    en: 'See that the nat table’s rules run only for a connection’s first packet: every later packet, in both directions, is rewritten by conntrack from its record; learn to read a `conntrack -L` line: protocol, timeout, state, original tuple, reply tuple and flags.',
  },
  textbook: {
    'zh-CN':
      '《Kubernetes Service 原理》第 1 节“conntrack 是什么”、3.3 节的“关键点”；第 7 章 7.7 节',
    en: '“Service principles”, section 1 and the key point in 3.3; chapter 7, section 7.7',
  },
  scenario,
  steps: [
    {
      id: 'first-packet',
      title: {
        'zh-CN': '只有第一个包查 nat 规则',
        en: 'Only the first packet consults the nat rules',
      },
      body: {
        'zh-CN':
          '一次 curl 是一条 TCP 连接：SYN、ACK、请求数据、FIN……client 一侧要发好几个包。nat 表的钩子只在连接状态为 NEW、且还没有建立 NAT 绑定时才遍历规则；第一个包（SYN）之后，DNAT 映射已经记在 conntrack 条目里了。\n\n访问一次 web，在追踪视图里比较 SYN 和后续包在 node-1 的 nat PREROUTING 处的步骤。',
        en: 'One curl is one TCP connection: SYN, ACK, the request, FIN… the client sends several packets. The nat hook walks its rules only when the connection is NEW and has no NAT binding yet; after the first packet (the SYN) the DNAT mapping is stored in the conntrack entry.\n\nCall web once and compare, in the trace, what the SYN and the later packets do at node-1’s nat PREROUTING.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'walks',
          prompt: {
            'zh-CN': 'client 的这条连接发出 4～5 个包，KUBE-SERVICES 会被遍历几次？',
            en: 'The client’s connection sends 4–5 packets. How many times is KUBE-SERVICES walked?',
          },
          choices: [
            { text: { 'zh-CN': '每个包一次', en: 'Once per packet' } },
            {
              text: { 'zh-CN': '只有第一个包一次', en: 'Once, for the first packet only' },
              correct: true,
            },
            { text: { 'zh-CN': '一次也不', en: 'Never' } },
          ],
          reveal: {
            'zh-CN':
              '只有 SYN 走 KUBE-SERVICES → KUBE-SVC → KUBE-SEP 并在那里选后端；后面的包在 conntrack 处命中已有条目（追踪里的“hit”），直接按记录 DNAT。所以同一连接始终去同一个 Pod。',
            en: 'Only the SYN walks KUBE-SERVICES → KUBE-SVC → KUBE-SEP and picks a backend there; later packets hit the existing entry at conntrack (“hit” in the trace) and are DNATed from the record. That is why a connection always stays on the same pod.',
          },
        },
      ],
      commands: [CURL],
      checks: [
        {
          id: 'nat-once',
          kind: 'natOnce',
          params: { from: 'pod/default/client', dst: 'vip:default/web' },
          label: {
            'zh-CN': '一条到 web 的连接发了多个包，只有第一个遍历了 nat 表的 KUBE-SERVICES',
            en: 'A connection to web carried several packets, and only the first walked the nat KUBE-SERVICES',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先制造一条到 Service web 的连接。',
          en: 'First make a connection to the Service web.',
        },
        {
          'zh-CN': '在 client 上 curl web 的 ClusterIP（`kubectl get svc web` 可查）。',
          en: 'curl web’s ClusterIP from the client (`kubectl get svc web` shows it).',
        },
        {
          'zh-CN': `\`${CURL}\`，然后在追踪里逐个包看。`,
          en: `\`${CURL}\`, then read the trace packet by packet.`,
        },
      ],
      solution: [{ run: CURL }],
    },
    {
      id: 'read-entry',
      title: { 'zh-CN': '读懂一行 conntrack -L', en: 'Read a conntrack -L line' },
      body: {
        'zh-CN':
          '一行形如：\n\n`tcp 6 117 TIME_WAIT src=10.244.0.5 dst=10.96.1.1 sport=… dport=80 src=10.244.x.x dst=10.244.0.5 sport=8080 dport=… [ASSURED] mark=0 use=1`\n\n依次是：协议名和编号、剩余秒数、TCP 状态、原始方向（client 发出时的样子）、应答方向（期望的回包样子，DNAT 后的 Pod 地址就在这里）、标志。`[UNREPLIED]` 表示还没见过回包，`[ASSURED]` 表示双向都有流量、不会被优先淘汰。',
        en: 'A line looks like:\n\n`tcp 6 117 TIME_WAIT src=10.244.0.5 dst=10.96.1.1 sport=… dport=80 src=10.244.x.x dst=10.244.0.5 sport=8080 dport=… [ASSURED] mark=0 use=1`\n\nIn order: protocol name and number, seconds left, TCP state, the original tuple (as the client sent it), the reply tuple (what the answer should look like: the DNATed pod address is here), flags. `[UNREPLIED]`: no reply seen yet; `[ASSURED]`: traffic both ways, not evicted first.',
      },
      commands: ['node-1$ conntrack -L -p tcp', 'node-1$ iptables -t nat -L KUBE-SERVICES -n -v'],
      ask: [
        {
          kind: 'value',
          id: 'pod-ip',
          prompt: {
            'zh-CN': '最新一条到 10.96.1.1 的记录里，应答方向的 src=（被选中的 Pod）是？',
            en: 'In the newest entry to 10.96.1.1, what is the reply tuple’s src= (the pod chosen)?',
          },
          placeholder: '10.244.x.x',
          reveal: {
            'zh-CN':
              '应答方向的源地址就是 DNAT 的目标：conntrack 用它把回包的源地址改回 10.96.1.1。',
            en: 'The reply tuple’s source is the DNAT target: conntrack uses it to change the reply’s source back to 10.96.1.1.',
          },
        },
        {
          kind: 'value',
          id: 'counter',
          prompt: {
            'zh-CN': '`iptables -t nat -L KUBE-SERVICES -n -v` 里 web 那条规则的 pkts 计数是多少？',
            en: 'What pkts count does the web rule show in `iptables -t nat -L KUBE-SERVICES -n -v`?',
          },
          placeholder: '0',
          reveal: {
            'zh-CN': 'nat 表的计数器按“连接”计数：每条新连接 1 个包，而不是每个包都算。',
            en: 'nat counters count connections: one packet per new connection, not every packet.',
          },
        },
      ],
      checks: [
        {
          id: 'pod-answer',
          kind: 'answer',
          params: { question: 'pod-ip', value: 'replySourceOfLatest', dst: 'vip:default/web' },
          label: { 'zh-CN': '读出了被选中的 Pod', en: 'You read the chosen pod' },
        },
        {
          id: 'counter-answer',
          kind: 'answer',
          params: { question: 'counter', value: 'clusterIPRulePackets', service: 'default/web' },
          label: { 'zh-CN': '读对了 nat 规则的计数', en: 'You read the nat rule’s counter' },
        },
      ],
      hints: [
        {
          'zh-CN': '两个答案分别在 conntrack 表和 nat 表的计数器里。',
          en: 'The two answers are in the conntrack table and in the nat table’s counters.',
        },
        {
          'zh-CN':
            '应答方向是一行里第二组 `src= dst= sport= dport=`；`-v` 让 iptables 打印 pkts/bytes 两列。',
          en: 'The reply tuple is the second `src= dst= sport= dport=` group on a line; `-v` makes iptables print the pkts/bytes columns.',
        },
        {
          'zh-CN':
            '`node-1$ conntrack -L -p tcp` 看第二个 `src=`；`node-1$ iptables -t nat -L KUBE-SERVICES -n -v` 看 `default/web cluster IP` 那行的第一列。',
          en: '`node-1$ conntrack -L -p tcp` for the second `src=`; `node-1$ iptables -t nat -L KUBE-SERVICES -n -v` for the first column of the `default/web cluster IP` line.',
        },
      ],
      solution: [
        { run: 'node-1$ conntrack -L -p tcp\nnode-1$ iptables -t nat -L KUBE-SERVICES -n -v' },
        { answer: 'pod-ip', value: '10.244.0.4' },
        { answer: 'counter', value: '1' },
      ],
      wrong: {
        actions: [
          { answer: 'pod-ip', value: '10.96.1.1' },
          { answer: 'counter', value: '5' },
        ],
        failing: ['pod-answer', 'counter-answer'],
      },
    },
    {
      id: 'stays',
      title: { 'zh-CN': '规则变了，老连接不变', en: 'Rules change, existing connections do not' },
      body: {
        'zh-CN':
          '在 node-1 上把 web 的 KUBE-SVC 链清空（`iptables -t nat -F <链名>`，仅为实验；kube-proxy 下次全量同步时会写回）。新连接从此无法被 DNAT；但 conntrack 里已有的映射不受规则影响。用 `nc` 打开一条长连接的做法见第 7 课，这里只看新连接：清空后再 curl 一次，conntrack 会多出一条 `[UNREPLIED]`、目的地址仍是 10.96.1.1 的记录。',
        en: 'On node-1, flush web’s KUBE-SVC chain (`iptables -t nat -F <chain>`, for the experiment only: kube-proxy writes it back at its next full sync). New connections can no longer be DNATed, while mappings already in conntrack do not depend on the rules at all. Lesson 7 keeps a long connection open; here, look at a new one: curl again after the flush, and conntrack gains an `[UNREPLIED]` entry whose reply still comes from 10.96.1.1.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'after-flush',
          prompt: {
            'zh-CN': '清空 KUBE-SVC 链后，新的 curl 会怎样？',
            en: 'After the KUBE-SVC chain is flushed, what does a new curl do?',
          },
          choices: [
            { text: { 'zh-CN': '照常成功', en: 'It works as usual' } },
            {
              text: {
                'zh-CN': '没有 DNAT，包发往并不存在的 10.96.1.1，curl 超时',
                en: 'No DNAT: the packet heads for 10.96.1.1, which nobody owns, and curl times out',
              },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              'KUBE-SERVICES 仍把包送进空的 KUBE-SVC 链，链走完就返回，没有任何 DNAT；nat 钩子记下一个“空绑定”。ClusterIP 不属于任何网卡，包被送往默认路由，得不到回应。',
            en: 'KUBE-SERVICES still sends the packet into the empty KUBE-SVC chain, which returns without any DNAT; the nat hook records a null binding. No interface owns the ClusterIP, so the packet follows the default route and gets no answer.',
          },
        },
      ],
      commands: [
        "node-1$ iptables -t nat -S KUBE-SERVICES | grep 'default/web cluster IP'",
        'node-1$ iptables -t nat -F KUBE-SVC-LOLE4ISW44XBNF3G',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'flushed',
          kind: 'rule',
          params: { chainPrefix: 'KUBE-SVC-', comment: 'default/web ->', present: false },
          label: {
            'zh-CN': 'web 的 KUBE-SVC 链里已没有跳到 KUBE-SEP 的规则',
            en: 'web’s KUBE-SVC chain no longer jumps to any KUBE-SEP',
          },
        },
        {
          id: 'not-dnated',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'vip:default/web',
            seenReply: false,
          },
          label: {
            'zh-CN': '新连接没有被 DNAT：应答方向仍是 10.96.1.1，且 [UNREPLIED]',
            en: 'The new connection was not DNATed: its reply tuple is still 10.96.1.1, [UNREPLIED]',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先找到 web 的 KUBE-SVC 链名，再清空它，然后发一条新连接。',
          en: 'Find web’s KUBE-SVC chain, flush it, then open a new connection.',
        },
        {
          'zh-CN': '`iptables -t nat -F 链名` 清空一条链；curl 用 `-m 1` 免得等太久。',
          en: '`iptables -t nat -F CHAIN` flushes a chain; give curl `-m 1` so you do not wait long.',
        },
        {
          'zh-CN':
            '依次运行 `node-1$ iptables -t nat -F KUBE-SVC-LOLE4ISW44XBNF3G`，`pod/client$ curl -sS -m 1 http://10.96.1.1/`，`node-1$ conntrack -L -p tcp`。',
          en: '`node-1$ iptables -t nat -F KUBE-SVC-LOLE4ISW44XBNF3G`, `pod/client$ curl -sS -m 1 http://10.96.1.1/`, `node-1$ conntrack -L -p tcp`.',
        },
      ],
      solution: [
        {
          run: 'node-1$ iptables -t nat -F KUBE-SVC-LOLE4ISW44XBNF3G\npod/client$ curl -sS -m 1 http://10.96.1.1/\nnode-1$ conntrack -L -p tcp',
        },
      ],
      takeaway: {
        'zh-CN':
          '反过来也成立：删掉一个后端的规则，已经建立的连接仍按 conntrack 里的映射发往它——这就是滚动更新时长连接的问题（第 7 课）。而删掉映射本身（`conntrack -F`）会让存活的连接在下一个包时重新抽一次后端，多半被新后端重置；`nf_conntrack_tcp_loose=0` 时则干脆被丢弃（场景菜单里的实验 10，已与真实内核逐条对比）。',
        en: 'The converse holds too: remove a backend’s rules and established connections keep going to it by their conntrack mapping — the long-connection problem of rolling updates (lesson 7). Delete the mapping itself (`conntrack -F`) and a live connection draws a backend again at its next packet and is most likely reset by it; with `nf_conntrack_tcp_loose=0` it is dropped instead (experiment 10 in the scenario menu, compared line by line with the real kernel).',
      },
    },
  ],
};
