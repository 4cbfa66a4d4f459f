import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

export const lesson: Lesson = {
  id: '07-rolling-update',
  number: 7,
  title: { 'zh-CN': '滚动更新与长连接', en: 'A rolling update under a long connection' },
  goal: {
    'zh-CN':
      '在一条长连接还开着的时候做滚动更新，看三件事：老连接会怎样（conntrack 里的映射仍指向旧 Pod），新连接去哪里（只去新的 endpoint），以及 UDP 为什么不同——kube-proxy 会主动删除指向已不存在后端的 UDP conntrack 记录，却从不删除 TCP 的。',
    en: 'Do a rolling update while a long connection is open and watch three things: what happens to the old connection (its conntrack mapping still points at the old pod), where new connections go (only to the new endpoints), and why UDP differs — kube-proxy deletes UDP conntrack entries that point at a backend that is gone, but never TCP ones.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.7 节“长连接与端点变化”；本章练习第 3 题',
    en: 'Chapter 7, section 7.7, long connections and endpoint changes; exercise 3',
  },
  waitingFor: {
    feature:
      'rolling updates (kubectl rollout restart / scale / delete pod, long-lived flows, kube-proxy UDP conntrack cleanup)',
    note: {
      'zh-CN':
        '本课的文字已经完整；它需要的滚动更新功能（rollout restart、长连接、UDP conntrack 清理）还没有进入实验室，所以暂时不能自动检查。',
      en: 'This lesson’s text is complete; the rolling-update features it needs (rollout restart, long-lived flows, UDP conntrack cleanup) are not in the lab yet, so it cannot be checked automatically for now.',
    },
  },
  scenario,
  steps: [
    {
      id: 'long-connection',
      title: { 'zh-CN': '打开一条长连接', en: 'Open a long connection' },
      body: {
        'zh-CN':
          '从 client 向 Service `web`（10.96.1.1:80）打开一条一直不关的 TCP 连接，记下 conntrack 里它的应答方向（被选中的 Pod）和状态 ESTABLISHED。',
        en: 'Open a TCP connection from the client to the Service `web` (10.96.1.1:80) that stays open, and note its reply tuple (the pod chosen) and its state, ESTABLISHED, in conntrack.',
      },
      commands: ['node-1$ conntrack -L -p tcp'],
      checks: [],
      hints: [
        {
          'zh-CN': '需要一条不会马上结束的连接。',
          en: 'You need a connection that does not end at once.',
        },
        {
          'zh-CN': 'curl 发完请求就关闭连接；这里要用能保持连接的工具。',
          en: 'curl closes the connection after its request; use a tool that keeps it open.',
        },
        {
          'zh-CN':
            '打开连接后 `node-1$ conntrack -L -p tcp`，找 ESTABLISHED 且 `dst=10.96.1.1` 的那一行。',
          en: 'Then `node-1$ conntrack -L -p tcp` and find the ESTABLISHED line with `dst=10.96.1.1`.',
        },
      ],
      solution: [],
    },
    {
      id: 'restart',
      title: { 'zh-CN': '滚动更新', en: 'Roll the Deployment' },
      body: {
        'zh-CN':
          '执行 `kubectl rollout restart deployment/web`：新 Pod 就绪后，旧 Pod 进入 Terminating，它们从 EndpointSlice 的就绪端点中移除，kube-proxy 重写 KUBE-SVC 链，删除旧的 KUBE-SEP 链。',
        en: 'Run `kubectl rollout restart deployment/web`: once new pods are ready, the old ones start terminating, leave the EndpointSlice’s ready endpoints, and kube-proxy rewrites the KUBE-SVC chain and deletes the old KUBE-SEP chains.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'old-connection',
          prompt: {
            'zh-CN': '那条长连接后续的包会去哪里？',
            en: 'Where do the long connection’s next packets go?',
          },
          choices: [
            { text: { 'zh-CN': '自动改去新的 Pod', en: 'They move to a new pod' } },
            {
              text: {
                'zh-CN': '仍然去旧 Pod：DNAT 映射在 conntrack 里，与规则无关',
                en: 'Still to the old pod: the DNAT mapping lives in conntrack, not in the rules',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'kube-proxy 发 RST 把它断开', en: 'kube-proxy resets it' } },
          ],
          reveal: {
            'zh-CN':
              '后续的包不再查 nat 规则（第 6 课），按 conntrack 记录继续发往旧 Pod 的 IP。旧 Pod 还在优雅退出时，连接照常工作；Pod 真正消失后，包发往一个不存在的地址，连接挂起直至超时——kube-proxy 不会为 TCP 发 RST，也不删 TCP 的 conntrack 记录。这就是滚动更新时偶发连接错误的原因之一。',
            en: 'Later packets do not consult the nat rules (lesson 6); conntrack keeps sending them to the old pod’s IP. While the old pod is still shutting down gracefully, the connection works; once it is gone, packets go to an address nobody owns and the connection hangs until it times out — kube-proxy sends no RST for TCP and never deletes TCP conntrack entries. This is one cause of sporadic errors during rolling updates.',
          },
        },
      ],
      commands: [
        'node-1$ kubectl rollout restart deployment/web',
        'node-1$ kubectl get pods -o wide',
        "node-1$ iptables -t nat -S | grep 'default/web ->'",
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [],
      hints: [
        { 'zh-CN': '用 kubectl 触发滚动更新。', en: 'Trigger the rollout with kubectl.' },
        {
          'zh-CN': '`kubectl rollout restart` 作用于 Deployment。',
          en: '`kubectl rollout restart` works on a Deployment.',
        },
        {
          'zh-CN':
            '`node-1$ kubectl rollout restart deployment/web`，然后比较新旧 Pod IP 与 conntrack 里长连接的应答地址。',
          en: '`node-1$ kubectl rollout restart deployment/web`, then compare the old and new pod IPs with the long connection’s reply address in conntrack.',
        },
      ],
      solution: [],
    },
    {
      id: 'new-connections',
      title: { 'zh-CN': '新连接', en: 'New connections' },
      body: {
        'zh-CN': '在更新之后发几条新连接，看它们的应答方向：全都是新 Pod 的地址。',
        en: 'Open a few new connections after the update and read their reply tuples: every one is a new pod’s address.',
      },
      commands: ['pod/client$ curl -sS -m 2 http://10.96.1.1/', 'node-1$ conntrack -L -p tcp'],
      checks: [],
      hints: [
        {
          'zh-CN': '新连接的第一个包会重新查 KUBE-SVC 链。',
          en: 'A new connection’s first packet walks the KUBE-SVC chain afresh.',
        },
        {
          'zh-CN': '多 curl 几次，每次都是新连接。',
          en: 'curl a few times: each is a new connection.',
        },
        {
          'zh-CN':
            '`pod/client$ curl -sS -m 2 http://10.96.1.1/`，再对照 `kubectl get pods -o wide`。',
          en: '`pod/client$ curl -sS -m 2 http://10.96.1.1/`, and compare with `kubectl get pods -o wide`.',
        },
      ],
      solution: [],
    },
    {
      id: 'udp',
      title: {
        'zh-CN': 'UDP 与 kube-proxy 的 conntrack 清理',
        en: 'UDP and kube-proxy’s conntrack cleanup',
      },
      body: {
        'zh-CN':
          'UDP 没有连接的结束：只要客户端不停地发，conntrack 记录就一直被刷新，数据报会永远发往已经消失的后端（黑洞）。所以 kube-proxy 在每次同步规则之后，会删除那些“原始目的地址是某个 UDP Service、而应答来源已不是它的可服务 endpoint”的 conntrack 记录，下一个数据报于是重新做负载均衡。对 TCP，它从不这样做。\n\n让 client 持续向 kube-dns 发 UDP 查询，然后删除正在回答它的那个 CoreDNS Pod，观察 conntrack 记录被删除（`conntrack -E` 可以看到 [DESTROY] 事件）。',
        en: 'UDP has no end of connection: as long as the client keeps sending, the conntrack entry keeps being refreshed and the datagrams go to a backend that is gone, forever (a black hole). So after each sync kube-proxy deletes the conntrack entries whose original destination is a UDP Service and whose reply source is no longer one of its serving endpoints; the next datagram is load-balanced afresh. It never does this for TCP.\n\nHave the client keep sending UDP queries to kube-dns, delete the CoreDNS pod that answers them, and watch the entry get deleted (`conntrack -E` shows the [DESTROY] event).',
      },
      commands: [
        'node-1$ conntrack -L -p udp',
        'node-1$ kubectl delete pod -n kube-system <coredns-pod>',
        'node-1$ conntrack -E',
      ],
      checks: [],
      hints: [
        {
          'zh-CN': '先找出正在回答 client 的 CoreDNS Pod。',
          en: 'First find the CoreDNS pod that answers the client.',
        },
        {
          'zh-CN': 'conntrack UDP 记录应答方向的 src= 就是它；用 kubectl 删掉这个 Pod。',
          en: 'It is the reply tuple’s src= of the UDP entry; delete that pod with kubectl.',
        },
        {
          'zh-CN':
            '`node-1$ conntrack -L -p udp` 找到 Pod IP，`kubectl get pods -n kube-system -o wide` 对出名字，`kubectl delete pod -n kube-system 名字`，再 `node-1$ conntrack -E`。',
          en: '`node-1$ conntrack -L -p udp` for the pod IP, `kubectl get pods -n kube-system -o wide` for its name, `kubectl delete pod -n kube-system NAME`, then `node-1$ conntrack -E`.',
        },
      ],
      solution: [],
    },
  ],
};
