import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const SYSCTL = 'net.bridge.bridge-nf-call-iptables';

export const lesson: Lesson = {
  id: '09-same-node-bridge',
  number: 9,
  title: {
    'zh-CN': '同节点网桥：bridge-nf-call-iptables',
    en: 'The same-node bridge: bridge-nf-call-iptables',
  },
  goal: {
    'zh-CN':
      '客户端 Pod 与后端 Pod 挂在同一个网桥 cni0 上时，回包只在二层转发。亲眼看到 `net.bridge.bridge-nf-call-iptables=0` 时 SYN-ACK 带着 Pod 自己的地址回来、客户端回 RST；再把它改回 1 修好，并解释为什么“三次能成两次”。',
    en: "When the client pod and the backend pod share the bridge cni0, the reply is only bridged (layer 2). Watch the SYN-ACK come back from the pod's own address with `net.bridge.bridge-nf-call-iptables=0` and the client answer RST; fix it by setting it back to 1, and explain why it 'works 2 times out of 3'.",
  },
  textbook: {
    'zh-CN': '《Kubernetes Service 原理》第 2 节“conntrack 不对称路径问题”',
    en: "'Kubernetes Service principles', section 2: conntrack and the asymmetric path",
  },
  scenario,
  steps: [
    {
      id: 'works',
      title: { 'zh-CN': '先看正常情况（值为 1）', en: 'First, the normal case (value 1)' },
      body: {
        'zh-CN':
          'client（10.244.0.5）和 web-1（10.244.0.4）都在 node-1 上，经各自的 veth 接到网桥 cni0。Service `web-local`（10.96.1.11:80）只有 web-1 一个 endpoint。\n\n去程 SYN 的目的地址是 ClusterIP，不在本网段，client 把它交给网关 cni0（10.244.0.1），于是它上送到 node-1 的网络层，在 nat PREROUTING 里被 DNAT 成 10.244.0.4:8080。回程 SYN-ACK 的目的地址 10.244.0.5 与 web-1 同网段，web-1 直接发给 client 的 MAC 地址。',
        en: "client (10.244.0.5) and web-1 (10.244.0.4) are both on node-1, each plugged into the bridge cni0 by its veth. The Service `web-local` (10.96.1.11:80) has a single endpoint, web-1.\n\nThe SYN goes to the ClusterIP, which is not on the pod subnet, so the client hands it to its gateway cni0 (10.244.0.1): it goes up to node-1's IP layer and nat PREROUTING DNATs it to 10.244.0.4:8080. The SYN-ACK goes to 10.244.0.5, on the same subnet as web-1, so web-1 sends it straight to the client's MAC address.",
      },
      predict: [
        {
          kind: 'choice',
          id: 'synack-path',
          prompt: {
            'zh-CN': 'web-1 发出的 SYN-ACK 怎样到达 client？',
            en: "How does web-1's SYN-ACK reach the client?",
          },
          choices: [
            {
              text: {
                'zh-CN': '上送 node-1 的网络层，经路由转发',
                en: "Up to node-1's IP layer, and routed",
              },
            },
            {
              text: {
                'zh-CN': '只在网桥 cni0 内二层转发（bridged）',
                en: 'Only bridged inside cni0 (layer 2)',
              },
              correct: true,
            },
            {
              text: { 'zh-CN': '先绕到 node-2 再回来', en: 'Via node-2 and back' },
            },
          ],
          reveal: {
            'zh-CN':
              '目的 MAC 就是 client 的 MAC，网桥在二层直接转发，本来不经过网络层。此时 `bridge-nf-call-iptables=1`：br_netfilter 会把被桥接的 IPv4 帧也交给 netfilter，于是 conntrack 找到这条连接，把源地址从 10.244.0.4:8080 改回 10.96.1.11:80（反向 DNAT，un-DNAT）。',
            en: "The destination MAC is the client's, so the bridge forwards it at layer 2 and it would never see the IP layer. Here `bridge-nf-call-iptables=1`: br_netfilter hands bridged IPv4 frames to netfilter too, so conntrack finds the connection and rewrites the source from 10.244.0.4:8080 back to 10.96.1.11:80 (the reverse DNAT, un-DNAT).",
          },
        },
      ],
      commands: [
        `node-1$ sysctl ${SYSCTL}`,
        'pod/client$ curl -sS -m 2 http://10.96.1.11/',
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'answered-from-vip',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'vip:default/web-local', flags: 'S.' },
          label: {
            'zh-CN': 'client 收到的 SYN-ACK 来自 ClusterIP 10.96.1.11（已做反向 DNAT）',
            en: 'The client got its SYN-ACK from the ClusterIP 10.96.1.11 (un-DNATed)',
          },
        },
        {
          id: 'assured',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web-local',
            replySrc: 'pod:default/web-1',
            assured: true,
          },
          label: {
            'zh-CN': 'node-1 上有一条 client → web-local、回包来自 web-1 的 [ASSURED] 连接',
            en: 'node-1 has an [ASSURED] entry client → web-local whose reply comes from web-1',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先从 client 访问一次 web-local，再看 node-1 的连接跟踪表。',
          en: 'Call web-local once from the client, then look at node-1’s connection tracking table.',
        },
        {
          'zh-CN': '在终端里以 `pod/client` 身份运行 curl，目标是 ClusterIP 10.96.1.11。',
          en: 'Run curl as `pod/client`, to the ClusterIP 10.96.1.11.',
        },
        {
          'zh-CN':
            '`pod/client$ curl -sS -m 2 http://10.96.1.11/`，然后 `node-1$ conntrack -L -p tcp`。',
          en: '`pod/client$ curl -sS -m 2 http://10.96.1.11/`, then `node-1$ conntrack -L -p tcp`.',
        },
      ],
      solution: [
        {
          run: `node-1$ sysctl ${SYSCTL}\npod/client$ curl -sS -m 2 http://10.96.1.11/\nnode-1$ conntrack -L -p tcp`,
        },
      ],
      takeaway: {
        'zh-CN':
          'conntrack 表里原始方向是 `dst=10.96.1.11 dport=80`，应答方向是 `src=10.244.0.4 sport=8080`：反向 DNAT 正是按这条记录做的。',
        en: 'The entry’s original tuple says `dst=10.96.1.11 dport=80`, its reply tuple `src=10.244.0.4 sport=8080`: the reverse DNAT is done from exactly this record.',
      },
    },
    {
      id: 'broken',
      title: { 'zh-CN': '关掉它（值为 0）', en: 'Turn it off (value 0)' },
      body: {
        'zh-CN':
          '把 node-1 的 `net.bridge.bridge-nf-call-iptables` 设为 0，清空连接跟踪表，再访问一次 web-local，并用 tcpdump 看 cni0 上走过的包。\n\n说明：加载 br_netfilter 模块后，这个 sysctl 在内核里的默认值是 1（在真实内核上核对过）；kubeadm 的预检也要求它为 1。教材说“默认为 0”，描述的是没有加载 br_netfilter 的节点——那时被桥接的帧同样不经过 iptables，效果与 0 相同。',
        en: "Set node-1's `net.bridge.bridge-nf-call-iptables` to 0, flush the connection tracking table, call web-local again, and read what crossed cni0 with tcpdump.\n\nNote: once the br_netfilter module is loaded the kernel's default for this sysctl is 1 (checked on a real kernel), and kubeadm's preflight requires 1. Texts that call 0 'the default' describe a node without br_netfilter loaded: bridged frames skip iptables there too, just as with 0.",
      },
      predict: [
        {
          kind: 'choice',
          id: 'predict-zero',
          prompt: {
            'zh-CN': '设为 0 之后，client 的 curl 会怎样？',
            en: "With 0, what happens to the client's curl?",
          },
          choices: [
            {
              text: { 'zh-CN': '照常成功', en: 'It works as before' },
            },
            {
              text: {
                'zh-CN': 'SYN 不再被 DNAT，直接发往 10.96.1.11 后丢失',
                en: 'The SYN is no longer DNATed and gets lost on its way to 10.96.1.11',
              },
            },
            {
              text: {
                'zh-CN': 'SYN-ACK 以 10.244.0.4:8080 为源地址到达，client 回 RST，curl 超时',
                en: 'The SYN-ACK arrives from 10.244.0.4:8080, the client answers RST, curl times out',
              },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              '去程 SYN 是“路由”的（发往网关 MAC），照样经过 PREROUTING 被 DNAT；只有被桥接的回包跳过了 netfilter。client 的 TCP 只认识 10.244.0.5:端口 ↔ 10.96.1.11:80 这条连接，来自 10.244.0.4:8080 的 SYN-ACK 不属于任何套接字，于是内核回 RST。conntrack 从未看到应答，停在 `SYN_SENT … [UNREPLIED]`。',
            en: "The SYN is routed (sent to the gateway's MAC), so PREROUTING still DNATs it; only the bridged reply skips netfilter. The client's TCP knows only 10.244.0.5:port ↔ 10.96.1.11:80; a SYN-ACK from 10.244.0.4:8080 matches no socket, so the kernel answers RST. conntrack never sees a reply: `SYN_SENT … [UNREPLIED]`.",
          },
        },
      ],
      commands: [
        `node-1$ sysctl -w ${SYSCTL}=0`,
        'node-1$ conntrack -F',
        'pod/client$ curl -sS -m 2 http://10.96.1.11/',
        'node-1$ tcpdump -n -i cni0',
        'node-1$ conntrack -L -p tcp',
      ],
      ask: [
        {
          kind: 'value',
          id: 'synack-source',
          prompt: {
            'zh-CN': '在 tcpdump 输出里，SYN-ACK（Flags [S.]）的源 IP 是什么？',
            en: 'In the tcpdump output, what is the source IP of the SYN-ACK (Flags [S.])?',
          },
          placeholder: '10.x.x.x',
          reveal: {
            'zh-CN': '是 web-1 自己的地址 10.244.0.4，而不是 client 连接的 10.96.1.11。',
            en: "It is web-1's own address, 10.244.0.4, not the 10.96.1.11 the client connected to.",
          },
        },
      ],
      checks: [
        {
          id: 'sysctl-zero',
          kind: 'sysctl',
          params: { node: 'node-1', key: SYSCTL, value: '0' },
          label: {
            'zh-CN': 'node-1 上 bridge-nf-call-iptables = 0',
            en: 'bridge-nf-call-iptables = 0 on node-1',
          },
        },
        {
          id: 'synack-from-pod',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'pod:default/web-1', flags: 'S.' },
          label: {
            'zh-CN': 'client 收到了源地址为 web-1 自己（10.244.0.4）的 SYN-ACK',
            en: "The client received a SYN-ACK from web-1's own address (10.244.0.4)",
          },
        },
        {
          id: 'client-rst',
          kind: 'sent',
          params: { host: 'pod/default/client', dst: 'pod:default/web-1', flags: 'R' },
          label: {
            'zh-CN': 'client 对它回了 RST',
            en: 'The client answered it with a RST',
          },
        },
        {
          id: 'unreplied',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web-local',
            seenReply: false,
          },
          label: {
            'zh-CN': 'node-1 的 conntrack 中这条连接是 [UNREPLIED]',
            en: 'node-1 keeps the connection as [UNREPLIED]',
          },
        },
        {
          id: 'answer-source',
          kind: 'answer',
          params: {
            question: 'synack-source',
            value: 'endpointAddress',
            service: 'default/web-local',
          },
          label: {
            'zh-CN': '答对了 SYN-ACK 的源地址',
            en: 'You named the SYN-ACK’s source address',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '这一步要改的是 node-1 上的一个内核参数，改完再让 client 访问一次。',
          en: 'This step changes a kernel parameter on node-1; then let the client try again.',
        },
        {
          'zh-CN':
            '用 `sysctl -w` 在 node-1 上写这个参数；`conntrack -F` 清掉旧记录，免得旧连接干扰。',
          en: 'Write it with `sysctl -w` on node-1; `conntrack -F` clears old entries so they do not get in the way.',
        },
        {
          'zh-CN': `\`node-1$ sysctl -w ${SYSCTL}=0\`，\`node-1$ conntrack -F\`，\`pod/client$ curl -sS -m 2 http://10.96.1.11/\`，再 \`node-1$ tcpdump -n -i cni0\` 找 \`Flags [S.]\` 那一行的源地址。`,
          en: `\`node-1$ sysctl -w ${SYSCTL}=0\`, \`node-1$ conntrack -F\`, \`pod/client$ curl -sS -m 2 http://10.96.1.11/\`, then \`node-1$ tcpdump -n -i cni0\` and read the source of the \`Flags [S.]\` line.`,
        },
      ],
      solution: [
        {
          run: `node-1$ sysctl -w ${SYSCTL}=0\nnode-1$ conntrack -F\npod/client$ curl -sS -m 2 http://10.96.1.11/\nnode-1$ tcpdump -n -i cni0\nnode-1$ conntrack -L -p tcp`,
        },
        { answer: 'synack-source', value: '10.244.0.4' },
      ],
      wrong: {
        actions: [
          { run: 'pod/client$ curl -sS -m 2 http://10.96.1.11/' },
          { answer: 'synack-source', value: '10.96.1.11' },
        ],
        failing: ['sysctl-zero', 'synack-from-pod', 'client-rst', 'answer-source'],
      },
      takeaway: {
        'zh-CN':
          '失败的不是去程，而是回程：回包绕过了 conntrack，源地址没有被改回 ClusterIP，client 不认识它。',
        en: 'It is not the request that fails but the reply: it bypassed conntrack, its source was never changed back to the ClusterIP, and the client does not recognise it.',
      },
    },
    {
      id: 'two-of-three',
      title: { 'zh-CN': '为什么“三次能成两次”', en: "Why it 'works 2 times out of 3'" },
      body: {
        'zh-CN':
          'Service `web`（10.96.1.1）有三个 endpoint：web-1 在 node-1，web-2、web-3 在 node-2。保持 0 不变，多访问几次 web。',
        en: 'The Service `web` (10.96.1.1) has three endpoints: web-1 on node-1, web-2 and web-3 on node-2. Leave the value at 0 and call web several times.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'fraction',
          prompt: {
            'zh-CN': '大约有多少比例的请求能成功？',
            en: 'About what share of the calls succeed?',
          },
          choices: [
            { text: { 'zh-CN': '全部失败', en: 'None' } },
            { text: { 'zh-CN': '约 1/3', en: 'About 1/3' } },
            { text: { 'zh-CN': '约 2/3', en: 'About 2/3' }, correct: true },
            { text: { 'zh-CN': '全部成功', en: 'All of them' } },
          ],
          reveal: {
            'zh-CN':
              '选中 web-2 或 web-3 时，回包从 node-2 经 eth0 进入 node-1，是被“路由”的，不是被桥接的，无论这个 sysctl 是多少都经过 netfilter，照常做反向 DNAT。只有选中同节点 web-1 的那约 1/3 会失败。',
            en: 'When web-2 or web-3 is picked, the reply enters node-1 from node-2 through eth0: it is routed, not bridged, so it passes netfilter whatever this sysctl says and is un-DNATed as usual. Only the ~1/3 that pick web-1, on the same node, fail.',
          },
        },
      ],
      commands: [
        'node-1$ conntrack -F',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'failed-local',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'pod:default/web-1',
            seenReply: false,
          },
          label: {
            'zh-CN': '至少一次选中了同节点的 web-1，并且失败（[UNREPLIED]）',
            en: 'At least one call picked web-1 on the same node, and failed ([UNREPLIED])',
          },
        },
        {
          id: 'worked-remote',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: ['pod:default/web-2', 'pod:default/web-3'],
            assured: true,
          },
          label: {
            'zh-CN': '至少一次选中了 node-2 上的 Pod，并且成功（[ASSURED]）',
            en: 'At least one call picked a pod on node-2, and worked ([ASSURED])',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '这次访问的是有三个后端的 Service `web`，要多试几次才能看出规律。',
          en: 'This time call the three-endpoint Service `web`, several times, to see the pattern.',
        },
        {
          'zh-CN': '每次 curl 都是一条新连接，都会重新随机选后端；用 `-m 1` 让失败的那次快点结束。',
          en: 'Each curl is a new connection with a fresh random pick; `-m 1` makes the failing ones end sooner.',
        },
        {
          'zh-CN':
            '把 `pod/client$ curl -sS -m 1 http://10.96.1.1/` 运行六次左右，再 `node-1$ conntrack -L -p tcp`，对比 [UNREPLIED] 与 [ASSURED] 行的 `src=` 应答地址。',
          en: 'Run `pod/client$ curl -sS -m 1 http://10.96.1.1/` about six times, then `node-1$ conntrack -L -p tcp` and compare the reply `src=` of the [UNREPLIED] and [ASSURED] lines.',
        },
      ],
      solution: [
        {
          run: [
            'node-1$ conntrack -F',
            ...Array.from({ length: 6 }, () => 'pod/client$ curl -sS -m 1 http://10.96.1.1/'),
            'node-1$ conntrack -L -p tcp',
          ].join('\n'),
        },
      ],
      takeaway: {
        'zh-CN':
          '“时好时坏”的故障往往就是这样：只有后端恰好与客户端在同一个网桥上时才出问题。典型症状是“CoreDNS 与客户端同节点时 DNS 解析失败”。',
        en: "'Sometimes it works' failures often look exactly like this: only a backend that shares the client's bridge fails. The classic symptom: DNS fails when CoreDNS runs on the client's node.",
      },
    },
    {
      id: 'fix',
      title: { 'zh-CN': '修好它', en: 'Fix it' },
      body: {
        'zh-CN':
          '把 node-1 上的值改回 1（真实节点上要 `modprobe br_netfilter`，并写进 /etc/sysctl.d/ 让它重启后仍然生效）。再访问一次 web-local。',
        en: 'Set the value on node-1 back to 1 (on a real node: `modprobe br_netfilter`, and put it in /etc/sysctl.d/ so that it survives a reboot). Call web-local again.',
      },
      commands: [`node-1$ sysctl -w ${SYSCTL}=1`, 'pod/client$ curl -sS -m 2 http://10.96.1.11/'],
      checks: [
        {
          id: 'sysctl-one',
          kind: 'sysctl',
          params: { node: 'node-1', key: SYSCTL, value: '1' },
          label: {
            'zh-CN': 'node-1 上 bridge-nf-call-iptables = 1',
            en: 'bridge-nf-call-iptables = 1 on node-1',
          },
        },
        {
          id: 'fixed',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'vip:default/web-local', flags: 'S.' },
          label: {
            'zh-CN': '修好之后，client 再次收到来自 10.96.1.11 的 SYN-ACK',
            en: 'After the fix, the client again gets its SYN-ACK from 10.96.1.11',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '把上一步改过的参数恢复原值，然后验证。',
          en: 'Put back the parameter you changed, then check that it works.',
        },
        {
          'zh-CN': '还是 node-1 上的 `sysctl -w`，这次写 1。',
          en: '`sysctl -w` on node-1 again, this time with 1.',
        },
        {
          'zh-CN': `\`node-1$ sysctl -w ${SYSCTL}=1\`，然后 \`pod/client$ curl -sS -m 2 http://10.96.1.11/\`。`,
          en: `\`node-1$ sysctl -w ${SYSCTL}=1\`, then \`pod/client$ curl -sS -m 2 http://10.96.1.11/\`.`,
        },
      ],
      solution: [
        { run: `node-1$ sysctl -w ${SYSCTL}=1\npod/client$ curl -sS -m 2 http://10.96.1.11/` },
      ],
      takeaway: {
        'zh-CN':
          '有些 CNI 不依赖这个参数：例如给每个 Pod 一个 /32 路由、不用网桥的方案，回包总要经过网络层。',
        en: 'Some CNI plugins do not depend on it: designs that give each pod a /32 route and no bridge always send the reply through the IP layer.',
      },
    },
  ],
};
