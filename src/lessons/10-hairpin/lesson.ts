import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const SYSCTL = 'net.bridge.bridge-nf-call-iptables';
const CURL = 'pod/web-1$ curl -sS -m 2 http://10.96.1.11/';
const PORT = 'veth96c9519a';

export const lesson: Lesson = {
  id: '10-hairpin',
  number: 10,
  title: {
    'zh-CN': 'Hairpin：Pod 访问自己的 Service',
    en: 'Hairpin: a pod calling its own Service',
  },
  goal: {
    'zh-CN':
      'web-1（10.244.0.4）通过 Service `web-local`（10.96.1.11，唯一的 endpoint 就是 web-1 自己）访问自己。弄清两样东西各管什么：网桥端口的 hairpin 标志，和 KUBE-SEP 里 `-s <Pod IP> -j KUBE-MARK-MASQ` 这条 masquerade 规则；以及 bridge-nf-call-iptables 为什么决定了其中哪一个起作用。',
    en: 'web-1 (10.244.0.4) calls itself through the Service `web-local` (10.96.1.11, whose only endpoint is web-1). Work out what each of two things does: the bridge port’s hairpin flag, and the KUBE-SEP rule `-s <pod IP> -j KUBE-MARK-MASQ`; and why bridge-nf-call-iptables decides which of them matters.',
  },
  textbook: {
    'zh-CN': '《Kubernetes Service 原理》7.3 节“自己访问自己时标记 SNAT”',
    en: '“Service principles”, section 7.3, the SNAT mark for a pod calling itself',
  },
  scenario,
  steps: [
    {
      id: 'works',
      title: { 'zh-CN': '默认情况下能通', en: 'By default it works' },
      body: {
        'zh-CN':
          'web-1 的 SYN 发往 10.96.1.11，上送 node-1 被 DNAT 回 10.244.0.4——也就是发送者自己。KUBE-SEP 的第一条规则 `-s 10.244.0.4/32 -j KUBE-MARK-MASQ` 命中，包在 POSTROUTING 被 MASQUERADE。\n\n网桥要把这个帧从它进来的同一个端口（web-1 的 veth）送回去，这只有在端口开了 hairpin 时才允许。kubelet 的 `hairpinMode: hairpin-veth` 会给每个 Pod 的端口打开它。`tcpdump -e` 在这个端口上能直接看到：SYN 进来时发往 cni0 的 MAC（Pod 的网关），出去时目的 MAC 变成了 web-1 自己的。\n\n用 `lab flow` 让 web-1 保持一条这样的连接，再在 web-1 上运行 `ss -tn`，就能同时看到它的两端：客户端套接字连向 10.96.1.11:80，服务器接受的那个套接字的对端是 `[::ffff:10.244.0.1]`——MASQUERADE 之后的源地址（端口也被 `--random-fully` 换掉了）。',
        en: 'web-1’s SYN goes to 10.96.1.11, up to node-1, and is DNATed back to 10.244.0.4 — the sender itself. The KUBE-SEP’s first rule `-s 10.244.0.4/32 -j KUBE-MARK-MASQ` matches, so the packet is masqueraded in POSTROUTING.\n\nThe bridge must send this frame back out of the port it came in on (web-1’s veth), which it only does when the port has hairpin on. kubelet’s `hairpinMode: hairpin-veth` turns it on for every pod’s port. `tcpdump -e` on that port shows it: the SYN comes in addressed to cni0’s MAC (the pod’s gateway) and goes back out addressed to web-1’s own MAC.\n\nKeep one such connection open with `lab flow` and run `ss -tn` on web-1: it shows both ends at once, the client socket to 10.96.1.11:80 and the socket the server accepted, whose peer is `[::ffff:10.244.0.1]` — the source after MASQUERADE (its port changed too, by `--random-fully`).',
      },
      predict: [
        {
          kind: 'choice',
          id: 'seen',
          prompt: {
            'zh-CN': 'web-1 收到自己的请求时，看到的源地址是？',
            en: 'When web-1 receives its own request, which source address does it see?',
          },
          choices: [
            { text: { 'zh-CN': '10.244.0.4（它自己）', en: '10.244.0.4 (itself)' } },
            {
              text: { 'zh-CN': '10.244.0.1（node-1 的 cni0）', en: '10.244.0.1 (node-1’s cni0)' },
              correct: true,
            },
            {
              text: {
                'zh-CN': '192.168.1.10（node-1 的 eth0）',
                en: '192.168.1.10 (node-1’s eth0)',
              },
            },
          ],
          reveal: {
            'zh-CN':
              'MASQUERADE 选用出接口 cni0 的地址 10.244.0.1。如果不做 SNAT，Pod 会收到源地址等于自己地址的包，按 martian 丢掉；或者直接在 Pod 内部回给自己而绕过反向 DNAT。',
            en: 'MASQUERADE takes the address of the outgoing interface, cni0: 10.244.0.1. Without the SNAT the pod would get a packet whose source is its own address and drop it as a martian, or answer it inside itself, bypassing the un-DNAT.',
          },
        },
      ],
      commands: [
        `node-1$ bridge -d link`,
        CURL,
        `node-1$ tcpdump -e -n -i ${PORT} -c 4`,
        'node-1$ conntrack -L -p tcp',
        'pod/web-1$ lab flow open self tcp 10.96.1.11:80',
        'pod/web-1$ ss -tn',
      ],
      ask: [
        {
          kind: 'value',
          id: 'seen-addr',
          prompt: { 'zh-CN': 'web-1 看到的源地址是？', en: 'Which source address did web-1 see?' },
          placeholder: '10.244.x.x',
          reveal: {
            'zh-CN':
              'curl 的输出 `you are 10.244.0.1:…` 和 conntrack 应答方向的 `dst=10.244.0.1` 是同一件事。',
            en: 'curl’s `you are 10.244.0.1:…` and the reply tuple’s `dst=10.244.0.1` say the same thing.',
          },
        },
      ],
      checks: [
        {
          id: 'hairpin-masq',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/web-1',
            origDst: 'vip:default/web-local',
            replySrc: 'pod:default/web-1',
            replyDst: 'gw:node-1',
            assured: true,
          },
          label: {
            'zh-CN': 'web-1 经 VIP 访问了自己，连接被 SNAT 成 cni0 的地址并且成功',
            en: 'web-1 reached itself through the VIP, SNATed to cni0’s address, and it worked',
          },
        },
        {
          id: 'seen-answer',
          kind: 'answer',
          params: { question: 'seen-addr', value: 'ref', ref: 'gw:node-1' },
          label: { 'zh-CN': '答对了 web-1 看到的源地址', en: 'You named the source web-1 saw' },
        },
      ],
      hints: [
        {
          'zh-CN': '这次要从 web-1 自己发起请求。',
          en: 'This time the request starts from web-1 itself.',
        },
        {
          'zh-CN': '终端目标选 `pod/web-1`，访问 web-local 的 ClusterIP。',
          en: 'Run it as `pod/web-1`, to web-local’s ClusterIP.',
        },
        {
          'zh-CN': `\`${CURL}\`，看输出里的 \`you are\`。`,
          en: `\`${CURL}\`, and read \`you are\` in its output.`,
        },
      ],
      solution: [
        { run: `${CURL}\nnode-1$ conntrack -L -p tcp` },
        { answer: 'seen-addr', value: '10.244.0.1' },
      ],
      wrong: {
        actions: [{ run: CURL }, { answer: 'seen-addr', value: '10.244.0.4' }],
        failing: ['seen-answer'],
      },
    },
    {
      id: 'hairpin-off',
      title: { 'zh-CN': '关掉 hairpin 标志', en: 'Turn the hairpin flag off' },
      body: {
        'zh-CN':
          'web-1 在 Pod 里的网卡是 `eth0@if6`：它在 node-1 上的另一端是 ifindex 6 的 veth（`bridge -d link` 里的第 6 项）。把这个端口的 hairpin 关掉，清空 conntrack，再试一次。',
        en: 'web-1’s interface is `eth0@if6`: its peer on node-1 is the veth with ifindex 6 (entry 6 in `bridge -d link`). Turn that port’s hairpin off, flush conntrack, and try again.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'off',
          prompt: {
            'zh-CN': '（bridge-nf-call-iptables = 1）关掉 hairpin 后会怎样？',
            en: '(bridge-nf-call-iptables = 1) What happens with hairpin off?',
          },
          choices: [
            { text: { 'zh-CN': '照常工作', en: 'It still works' } },
            {
              text: {
                'zh-CN': '网桥静默丢弃，curl 超时，conntrack 里没有记录',
                en: 'The bridge drops it silently: curl times out, and conntrack has no entry',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'web-1 回 RST', en: 'web-1 answers RST' } },
          ],
          reveal: {
            'zh-CN':
              '值为 1 时，DNAT 之后的帧仍然是被“桥接”的，目的端口恰好就是入端口，没有 hairpin 网桥就不发。包在 conntrack 确认之前被丢弃，所以表里没有条目，每次重传的 SYN 都会重新走一遍 nat 规则（在真实内核上核对过）。',
            en: 'With 1, the DNATed frame is still bridged, and its output port is its input port: without hairpin the bridge will not send it. It dies before conntrack confirms the entry, so the table stays empty and every retransmitted SYN walks the nat rules again (checked on a real kernel).',
          },
        },
      ],
      commands: [
        'pod/web-1$ ip link',
        'node-1$ bridge -d link',
        `node-1$ bridge link set dev ${PORT} hairpin off`,
        'node-1$ conntrack -F',
        CURL,
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'flag-off',
          kind: 'hairpin',
          params: { node: 'node-1', pod: 'default/web-1', on: false },
          label: {
            'zh-CN': 'web-1 的网桥端口 hairpin 已关闭',
            en: 'web-1’s bridge port has hairpin off',
          },
        },
        {
          id: 'bridge-drop',
          kind: 'dropped',
          params: { why: 'datapath.drop.hairpin' },
          label: {
            'zh-CN': '网桥因为 hairpin 关闭丢弃了发回原端口的帧',
            en: 'The bridge dropped the frame going back out of its own port (hairpin off)',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先找出 web-1 对应的网桥端口名，再改它的 hairpin 设置。',
          en: 'Find the name of web-1’s bridge port, then change its hairpin setting.',
        },
        {
          'zh-CN':
            'Pod 里的 `eth0@ifN` 告诉你节点上那一端的 ifindex N；`bridge link set dev 端口 hairpin off` 关闭它。',
          en: '`eth0@ifN` inside the pod gives the node-side ifindex N; `bridge link set dev PORT hairpin off` turns it off.',
        },
        {
          'zh-CN': `\`node-1$ bridge link set dev ${PORT} hairpin off\`，\`node-1$ conntrack -F\`，再 \`${CURL}\`。`,
          en: `\`node-1$ bridge link set dev ${PORT} hairpin off\`, \`node-1$ conntrack -F\`, then \`${CURL}\`.`,
        },
      ],
      solution: [
        {
          run: `pod/web-1$ ip link\nnode-1$ bridge link set dev ${PORT} hairpin off\nnode-1$ conntrack -F\n${CURL}\nnode-1$ conntrack -L -p tcp`,
        },
      ],
    },
    {
      id: 'bridge-nf-off',
      title: { 'zh-CN': '值为 0 时 hairpin 不再重要', en: 'With 0, hairpin no longer matters' },
      body: {
        'zh-CN': 'hairpin 保持关闭，把 `bridge-nf-call-iptables` 设为 0，再试一次。',
        en: 'Keep hairpin off, set `bridge-nf-call-iptables` to 0, and try again.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'zero',
          prompt: {
            'zh-CN': 'hairpin 关闭、值为 0，web-1 能访问自己吗？',
            en: 'Hairpin off and 0: can web-1 reach itself?',
          },
          choices: [
            { text: { 'zh-CN': '能', en: 'Yes' }, correct: true },
            { text: { 'zh-CN': '不能', en: 'No' } },
          ],
          reveal: {
            'zh-CN':
              '值为 0 时，发往网关 MAC 的 SYN 上送宿主机后是被“路由”的：DNAT 之后由 cni0 这个三层接口自己发出，而不是由网桥在端口之间转发，所以 hairpin 标志管不着。此时只剩 masquerade 规则决定成败（在真实内核上核对过）。',
            en: 'With 0, the SYN (sent to the gateway MAC) goes up to the host and is routed: after DNAT, cni0 itself sends it as an IP interface, not the bridge forwarding between ports, so the hairpin flag does not apply. Only the masquerade rule now decides (checked on a real kernel).',
          },
        },
      ],
      commands: [`node-1$ sysctl -w ${SYSCTL}=0`, 'node-1$ conntrack -F', CURL],
      checks: [
        {
          id: 'zero',
          kind: 'sysctl',
          params: { node: 'node-1', key: SYSCTL, value: '0' },
          label: {
            'zh-CN': 'node-1 上 bridge-nf-call-iptables = 0',
            en: 'bridge-nf-call-iptables = 0 on node-1',
          },
        },
        {
          id: 'still-off',
          kind: 'hairpin',
          params: { node: 'node-1', pod: 'default/web-1', on: false },
          label: { 'zh-CN': 'hairpin 仍然关闭', en: 'hairpin is still off' },
        },
        {
          id: 'works-again',
          kind: 'received',
          params: { host: 'pod/default/web-1', src: 'vip:default/web-local', flags: 'S.' },
          label: {
            'zh-CN': 'web-1 收到了来自 10.96.1.11 的 SYN-ACK：又能通了',
            en: 'web-1 got a SYN-ACK from 10.96.1.11: it works again',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '只改一个 sysctl，别动 hairpin。',
          en: 'Change one sysctl; leave hairpin alone.',
        },
        {
          'zh-CN': '在 node-1 上 `sysctl -w`，再清空 conntrack 重试。',
          en: '`sysctl -w` on node-1, flush conntrack, try again.',
        },
        {
          'zh-CN': `依次运行 \`node-1$ sysctl -w ${SYSCTL}=0\`，\`node-1$ conntrack -F\`，\`${CURL}\`。`,
          en: `\`node-1$ sysctl -w ${SYSCTL}=0\`, \`node-1$ conntrack -F\`, \`${CURL}\`.`,
        },
      ],
      solution: [{ run: `node-1$ sysctl -w ${SYSCTL}=0\nnode-1$ conntrack -F\n${CURL}` }],
      wrong: {
        actions: [{ run: `node-1$ bridge link set dev ${PORT} hairpin on\n${CURL}` }],
        failing: ['zero', 'still-off'],
      },
    },
    {
      id: 'no-masq',
      title: { 'zh-CN': '去掉 masquerade 规则', en: 'Remove the masquerade rule' },
      body: {
        'zh-CN':
          '仍然是 0。把 web-local 的 KUBE-SEP 链里那条 `-s 10.244.0.4/32 … -j KUBE-MARK-MASQ` 删掉（从 `iptables -t nat -S` 的输出原样复制，把 `-A` 换成 `-D`；仅为实验），清空 conntrack 再试。',
        en: 'Still 0. Delete the rule `-s 10.244.0.4/32 … -j KUBE-MARK-MASQ` from web-local’s KUBE-SEP chain (copy it from `iptables -t nat -S` and change `-A` to `-D`; for the experiment only), flush conntrack and try again.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'masq',
          prompt: {
            'zh-CN': '没有 masquerade 还能通吗？',
            en: 'Does it work without the masquerade?',
          },
          choices: [
            { text: { 'zh-CN': '能', en: 'Yes' } },
            {
              text: {
                'zh-CN': '不能：连接停在 [UNREPLIED]',
                en: 'No: the connection stays [UNREPLIED]',
              },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              '请求到达 web-1 时源地址还是 10.244.0.4，它的回包 10.244.0.4 → 10.244.0.4 在 Pod 内部就交给了自己，从不经过节点，也就不会被反向 DNAT；curl 等的是来自 10.96.1.11 的应答，永远等不到。',
            en: 'The request reaches web-1 with source 10.244.0.4, so its reply 10.244.0.4 → 10.244.0.4 is delivered inside the pod, never crossing the node and never un-DNATed; curl waits for an answer from 10.96.1.11 that never comes.',
          },
        },
      ],
      commands: [
        'node-1$ iptables -t nat -S KUBE-SEP-7L27JZVKM7665F5Z',
        'node-1$ iptables -t nat -D KUBE-SEP-7L27JZVKM7665F5Z -s 10.244.0.4/32 -m comment --comment "default/web-local" -j KUBE-MARK-MASQ',
        'node-1$ conntrack -F',
        CURL,
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'rule-gone',
          kind: 'rule',
          params: {
            chainPrefix: 'KUBE-SEP-',
            comment: '"default/web-local"',
            target: 'KUBE-MARK-MASQ',
            present: false,
          },
          label: {
            'zh-CN': 'web-local 的 KUBE-SEP 里已没有 masquerade 规则',
            en: 'web-local’s KUBE-SEP has no masquerade rule any more',
          },
        },
        {
          id: 'unreplied',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/web-1',
            origDst: 'vip:default/web-local',
            replySrc: 'pod:default/web-1',
            seenReply: false,
          },
          label: {
            'zh-CN': '新连接停在 [UNREPLIED]，应答方向的 dst 是 web-1 自己',
            en: 'The new connection stays [UNREPLIED], its reply tuple addressed to web-1 itself',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '要删的规则在 web-local 的 KUBE-SEP 链里，先把整条链打印出来。',
          en: 'The rule is in web-local’s KUBE-SEP chain; print that chain first.',
        },
        {
          'zh-CN': '`iptables -D` 后面跟的规则要与 `-S` 打印的完全一致（链名之后的部分）。',
          en: '`iptables -D` needs the rule exactly as `-S` prints it (everything after the chain name).',
        },
        {
          'zh-CN':
            '`node-1$ iptables -t nat -D KUBE-SEP-7L27JZVKM7665F5Z -s 10.244.0.4/32 -m comment --comment "default/web-local" -j KUBE-MARK-MASQ`，然后 `conntrack -F` 并重试 curl。',
          en: '`node-1$ iptables -t nat -D KUBE-SEP-7L27JZVKM7665F5Z -s 10.244.0.4/32 -m comment --comment "default/web-local" -j KUBE-MARK-MASQ`, then `conntrack -F` and curl again.',
        },
      ],
      solution: [
        {
          run:
            'node-1$ iptables -t nat -D KUBE-SEP-7L27JZVKM7665F5Z -s 10.244.0.4/32 -m comment --comment "default/web-local" -j KUBE-MARK-MASQ\nnode-1$ conntrack -F\n' +
            `${CURL}\nnode-1$ conntrack -L -p tcp`,
        },
      ],
      takeaway: {
        'zh-CN':
          '小结：值为 1 时 hairpin 标志和 masquerade 规则缺一不可；值为 0 时只有 masquerade 规则起作用。',
        en: 'In short: with 1 you need both the hairpin flag and the masquerade rule; with 0 only the masquerade rule matters.',
      },
    },
  ],
};
