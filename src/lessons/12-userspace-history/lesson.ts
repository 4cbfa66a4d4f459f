import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const CURL = 'pod/client$ curl -sS -m 2 http://10.96.1.1/';
const REDIRECT =
  'node-1$ iptables -t nat -I PREROUTING -p tcp -d 192.168.1.10 --dport 80 -j REDIRECT --to-ports 9100';
const LAPTOP = 'laptop$ curl -sS -m 2 http://192.168.1.10/';
const CT_80 = 'node-1$ conntrack -L -p tcp --orig-port-dst 80';

export const lesson: Lesson = {
  id: '12-userspace-history',
  number: 12,
  title: { 'zh-CN': 'userspace 模式：一段历史', en: 'Userspace mode, as history' },
  goal: {
    'zh-CN':
      '理解 kube-proxy 名字的由来：最早的 userspace 模式里，数据真的要穿过 kube-proxy 进程。用实验室里的 iptables 模式作对照，看清那条老路径多了什么——两次内核/用户态切换、两条 TCP 连接、后端看不到客户端地址——以及它为什么慢。',
    en: 'Understand where the name kube-proxy comes from: in the original userspace mode the data really went through the kube-proxy process. With the lab’s iptables mode as the contrast, see what that old path added — crossings between kernel and user space, two TCP connections, a backend that cannot see the client’s address — and why it was slow.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.2.1 节；《Kubernetes Service 原理》3.1 节',
    en: 'Chapter 7, section 7.2.1; “Service principles”, section 3.1',
  },
  simplification: {
    'zh-CN':
      '实验室不模拟 userspace 模式（Kubernetes v1.26 已删除它）。本课中 userspace 路径是讲述出来的简化说明；可以检查的，都是 iptables 模式下真实发生的事。',
    en: 'The lab does not simulate userspace mode (Kubernetes removed it in v1.26). The userspace path in this lesson is a narrated simplification; everything the checks look at is what really happens in iptables mode.',
  },
  scenario,
  steps: [
    {
      id: 'kernel-only',
      title: { 'zh-CN': '今天：包不离开内核', en: 'Today: the packet never leaves the kernel' },
      body: {
        'zh-CN':
          'iptables 模式下，client 的包在 node-1 的 nat PREROUTING 被 DNAT，然后直接路由到 Pod，整个过程都在内核里。后端 Pod 看到的源地址就是 client 自己的 10.244.0.5。\n\n**userspace 模式当年是这样的（讲述）：** kube-proxy 为每个 Service 端口在节点上随机监听一个端口，并写一条 `-A KUBE-PORTALS-CONTAINER -d <ClusterIP> -p tcp --dport <port> -j REDIRECT --to-ports <代理端口>`（节点自己发出的流量走 KUBE-PORTALS-HOST，DNAT 到 节点IP:代理端口）。包被重定向给 kube-proxy 进程；它 accept 这条连接，再以节点的身份向选中的 Pod 另开一条连接，然后在两条连接之间来回复制数据。',
        en: 'In iptables mode the client’s packet is DNATed in node-1’s nat PREROUTING and routed straight to the pod, all inside the kernel. The backend pod sees the client’s own address, 10.244.0.5.\n\n**How userspace mode did it (narrated):** kube-proxy listened on a random port of the node for every Service port and wrote `-A KUBE-PORTALS-CONTAINER -d <ClusterIP> -p tcp --dport <port> -j REDIRECT --to-ports <proxy port>` (traffic from the node itself went through KUBE-PORTALS-HOST, DNATed to node IP:proxy port). The packet was redirected to the kube-proxy process, which accepted the connection, opened a second one from the node to the pod it picked, and copied the bytes between the two.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'userspace-source',
          prompt: {
            'zh-CN': '在 userspace 模式下，后端 Pod 看到的源地址会是？',
            en: 'In userspace mode, which source address would the backend pod see?',
          },
          choices: [
            { text: { 'zh-CN': 'client 的 10.244.0.5', en: 'The client’s 10.244.0.5' } },
            {
              text: {
                'zh-CN': '节点的地址（kube-proxy 自己发起的连接）',
                en: 'The node’s address (kube-proxy’s own connection)',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'ClusterIP 10.96.1.1', en: 'The ClusterIP 10.96.1.1' } },
          ],
          reveal: {
            'zh-CN':
              '到 Pod 的那条连接是 kube-proxy 进程发起的，客户端地址在代理处就丢了。iptables 模式下（同为集群内访问）Pod 看到的是真实的 10.244.0.5——下面亲手验证。',
            en: 'The connection to the pod was opened by the kube-proxy process, so the client’s address was lost at the proxy. In iptables mode (same in-cluster call) the pod sees the real 10.244.0.5 — check it below.',
          },
        },
      ],
      commands: [CURL, 'node-1$ conntrack -L -p tcp'],
      ask: [
        {
          kind: 'value',
          id: 'seen',
          prompt: {
            'zh-CN': 'iptables 模式下，web Pod 看到的源地址是？',
            en: 'In iptables mode, which source address did the web pod see?',
          },
          placeholder: '10.244.x.x',
          reveal: {
            'zh-CN':
              'client 自己的 10.244.0.5：curl 输出里的 `you are`，也是 conntrack 应答方向的 `dst=`。',
            en: 'The client’s own 10.244.0.5: `you are` in curl’s output, and the reply tuple’s `dst=` in conntrack.',
          },
        },
      ],
      checks: [
        {
          id: 'no-proxy',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'eps:default/web',
            replyDst: 'pod:default/client',
            assured: true,
          },
          label: {
            'zh-CN': '一条 client → web 的连接由内核 DNAT 直达 Pod，没有 SNAT',
            en: 'A client → web connection went straight to a pod by kernel DNAT, without SNAT',
          },
        },
        {
          id: 'seen-answer',
          kind: 'answer',
          params: { question: 'seen', value: 'ref', ref: 'pod:default/client' },
          label: { 'zh-CN': '答对了 Pod 看到的源地址', en: 'You named the source the pod saw' },
        },
      ],
      hints: [
        {
          'zh-CN': '从 client 访问一次 Service web。',
          en: 'Call the Service web once from the client.',
        },
        {
          'zh-CN': 'web Pod 的回答里会告诉你它看到的对端地址。',
          en: 'The web pod’s answer tells you the peer address it saw.',
        },
        {
          'zh-CN': `\`${CURL}\`，读 \`you are\` 后面的地址。`,
          en: `\`${CURL}\`, and read the address after \`you are\`.`,
        },
      ],
      solution: [
        { run: `${CURL}\nnode-1$ conntrack -L -p tcp` },
        { answer: 'seen', value: '10.244.0.5' },
      ],
      wrong: {
        actions: [{ run: CURL }, { answer: 'seen', value: '192.168.1.10' }],
        failing: ['seen-answer'],
      },
    },
    {
      id: 'redirect-yourself',
      title: { 'zh-CN': '亲手写一条 REDIRECT', en: 'Write a REDIRECT yourself' },
      body: {
        'zh-CN':
          'userspace 模式靠的那种规则，今天的内核照样执行，实验室也能模拟。REDIRECT 就是“DNAT 到本机”：目的地址换成报文进入的网卡的第一个地址（本机自己发出的报文换成 127.0.0.1），端口换成 `--to-ports`。本课场景里 node-1 上有一个 hostNetwork Pod node-agent，在 9100 端口监听——它站在当年 kube-proxy 代理进程的位置。\n\n在 node-1 的 nat PREROUTING 里加一条规则，把发往 192.168.1.10:80 的 TCP 重定向到 9100；然后从 laptop 访问 `http://192.168.1.10/`，再看 node-1 上这条连接的 conntrack 记录。',
        en: 'The kind of rule userspace mode relied on still runs in today’s kernel, and the lab models it. REDIRECT is DNAT to the node itself: the destination becomes the first address of the device the packet came in on (127.0.0.1 for what the node sends itself), the port the `--to-ports` one. In this lesson’s scenario node-1 runs a hostNetwork pod, node-agent, listening on port 9100 — where kube-proxy’s proxy process used to sit.\n\nAdd a rule to node-1’s nat PREROUTING that redirects TCP for 192.168.1.10:80 to 9100, call `http://192.168.1.10/` from the laptop, and look at node-1’s conntrack entry for that connection.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'who-answers',
          prompt: {
            'zh-CN': '规则写好后，laptop 访问 192.168.1.10:80，谁会应答？',
            en: 'With the rule in place, who answers the laptop’s call to 192.168.1.10:80?',
          },
          choices: [
            {
              text: {
                'zh-CN': '没人：node-1 的 80 端口上没有服务',
                en: 'Nobody: nothing listens on node-1’s port 80',
              },
            },
            {
              text: {
                'zh-CN': 'node-agent，在 9100 端口',
                en: 'node-agent, on port 9100',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'web 的某个 Pod', en: 'One of web’s pods' } },
          ],
          reveal: {
            'zh-CN':
              'REDIRECT 在 PREROUTING 里把目的端口改成 9100（地址仍是 eth0 的 192.168.1.10），包随后被本地投递给 node-agent。userspace 模式下，站在那里的是 kube-proxy 进程，它再替客户端向 Pod 另开一条连接。',
            en: 'REDIRECT rewrites the destination port to 9100 in PREROUTING (the address stays eth0’s 192.168.1.10), and the packet is delivered locally, to node-agent. In userspace mode the kube-proxy process stood there, and opened a second connection to a pod on the client’s behalf.',
          },
        },
      ],
      commands: [REDIRECT, LAPTOP, CT_80],
      ask: [
        {
          kind: 'value',
          id: 'redirect-port',
          prompt: {
            'zh-CN': 'conntrack 记录应答方向的源端口（sport）是多少？',
            en: 'Which source port (sport) does the entry’s reply tuple show?',
          },
          placeholder: '80',
          reveal: {
            'zh-CN':
              '9100：原始方向仍是 `dport=80`，应答方向是 `sport=9100`——conntrack 记下了这次 DNAT，回包的源端口会被改回 80。',
            en: '9100: the original tuple still reads `dport=80`, the reply tuple `sport=9100` — conntrack keeps the DNAT, and rewrites the answers’ source port back to 80.',
          },
        },
      ],
      checks: [
        {
          id: 'redirect-rule',
          kind: 'rule',
          params: {
            table: 'nat',
            chain: 'PREROUTING',
            target: 'REDIRECT',
            match: '--to-ports 9100',
          },
          label: {
            'zh-CN': 'node-1 的 nat PREROUTING 里有一条 REDIRECT 到 9100 的规则',
            en: 'node-1’s nat PREROUTING has a REDIRECT to 9100',
          },
        },
        {
          id: 'redirected',
          kind: 'conntrack',
          params: {
            origSrc: 'client:laptop',
            origDst: 'node:node-1',
            origDport: 80,
            replySrc: 'node:node-1',
            replySport: 9100,
            seenReply: true,
          },
          label: {
            'zh-CN': 'laptop 到 node-1:80 的连接被重定向到 9100，并得到了应答',
            en: 'The laptop’s connection to node-1:80 went to port 9100 and was answered',
          },
        },
        {
          id: 'port-answer',
          kind: 'answer',
          params: { question: 'redirect-port', value: 'replySport', dst: 'node:node-1', dport: 80 },
          label: { 'zh-CN': '答对了应答的端口', en: 'You named the port that answered' },
        },
      ],
      hints: [
        {
          'zh-CN': '规则写在 node-1 的 nat 表 PREROUTING 链，目标是 REDIRECT。',
          en: 'The rule goes in node-1’s nat table, chain PREROUTING, target REDIRECT.',
        },
        {
          'zh-CN': '匹配 `-p tcp -d 192.168.1.10 --dport 80`，目标 `-j REDIRECT --to-ports 9100`。',
          en: 'Match `-p tcp -d 192.168.1.10 --dport 80`, target `-j REDIRECT --to-ports 9100`.',
        },
        {
          'zh-CN': `依次运行 \`${REDIRECT}\`，\`${LAPTOP}\`，\`${CT_80}\`，读应答方向的 \`sport=\`。`,
          en: `Run \`${REDIRECT}\`, \`${LAPTOP}\`, \`${CT_80}\`, and read the reply tuple’s \`sport=\`.`,
        },
      ],
      solution: [
        { run: `${REDIRECT}\n${LAPTOP}\n${CT_80}` },
        { answer: 'redirect-port', value: '9100' },
      ],
      wrong: {
        actions: [{ run: LAPTOP }, { answer: 'redirect-port', value: '80' }],
        failing: ['redirect-rule', 'redirected', 'port-answer'],
      },
    },
    {
      id: 'one-connection',
      title: { 'zh-CN': '一条连接，还是两条', en: 'One connection, or two' },
      body: {
        'zh-CN':
          '清空 node-1 的 conntrack，再访问一次 web，数一数 node-1 上到 10.96.1.1 的连接记录。\n\n**userspace 模式下（讲述）：** 同一次请求是两条 TCP 连接：client → 节点:代理端口（REDIRECT 之后），和 节点 → Pod。每个字节都要从内核拷进 kube-proxy 进程、再拷回内核发出去，每个方向都多出两次内核/用户态切换，代理进程还要为每条连接占用套接字和 goroutine。这就是它慢、被 iptables 模式（v1.2 起成为默认）取代的原因。它也有一个今天没有的好处：连接某个后端失败时，代理可以换一个后端重试。',
        en: 'Flush node-1’s conntrack, call web once more, and count node-1’s entries to 10.96.1.1.\n\n**In userspace mode (narrated):** the same request was two TCP connections: client → node:proxy port (after the REDIRECT), and node → pod. Every byte was copied from the kernel into the kube-proxy process and back into the kernel to be sent, two extra crossings per direction, and the proxy held sockets and goroutines for every connection. That is why it was slow, and why iptables mode (the default since v1.2) replaced it. It had one advantage the kernel modes lack: when connecting to a backend failed, the proxy could retry another one.',
      },
      commands: [
        'node-1$ conntrack -F',
        CURL,
        "node-1$ conntrack -L -p tcp | grep -c 'dst=10.96.1.1 '",
      ],
      ask: [
        {
          kind: 'value',
          id: 'count',
          prompt: {
            'zh-CN': 'node-1 上到 10.96.1.1 的 conntrack 记录有几条？',
            en: 'How many conntrack entries to 10.96.1.1 does node-1 have?',
          },
          placeholder: '0',
          reveal: {
            'zh-CN':
              '1 条：一次请求就是一条被 DNAT 的连接。userspace 模式下会有两条连接（其中一条目的地是代理端口）。',
            en: 'One: a request is one DNATed connection. Userspace mode had two connections (one of them to the proxy port).',
          },
        },
      ],
      checks: [
        {
          id: 'count-answer',
          kind: 'answer',
          params: { question: 'count', value: 'conntrackCount', dst: 'vip:default/web' },
          label: { 'zh-CN': '数对了连接记录', en: 'You counted the entries' },
        },
        {
          id: 'fresh-connection',
          kind: 'sent',
          params: { host: 'pod/default/client', dst: 'vip:default/web', flags: 'S' },
          label: {
            'zh-CN': '本步骤里 client 又发起了一条新连接',
            en: 'The client opened a new connection in this step',
          },
        },
      ],
      hints: [
        { 'zh-CN': '先清空，再只访问一次，然后数。', en: 'Flush, call once, then count.' },
        {
          'zh-CN': '`conntrack -F` 清空；`grep -c` 数行数。',
          en: '`conntrack -F` flushes; `grep -c` counts lines.',
        },
        {
          'zh-CN': `依次运行 \`node-1$ conntrack -F\`，\`${CURL}\`，\`node-1$ conntrack -L -p tcp | grep -c 'dst=10.96.1.1 '\`。`,
          en: `\`node-1$ conntrack -F\`, \`${CURL}\`, \`node-1$ conntrack -L -p tcp | grep -c 'dst=10.96.1.1 '\`.`,
        },
      ],
      solution: [
        {
          run: `node-1$ conntrack -F\n${CURL}\nnode-1$ conntrack -L -p tcp | grep -c 'dst=10.96.1.1 '`,
        },
        { answer: 'count', value: '1' },
      ],
      wrong: {
        actions: [{ answer: 'count', value: '2' }],
        failing: ['count-answer', 'fresh-connection'],
      },
      takeaway: {
        'zh-CN':
          '从 userspace 到 iptables、再到 IPVS 和 nftables，方向一直是：让内核做转发，kube-proxy 只管写规则。',
        en: 'From userspace to iptables, then IPVS and nftables, the direction has been the same: let the kernel forward, and have kube-proxy only write the rules.',
      },
    },
  ],
};
