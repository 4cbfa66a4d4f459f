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
  scenario,
  steps: [
    {
      id: 'long-connection',
      title: { 'zh-CN': '打开一条长连接', en: 'Open a long connection' },
      body: {
        'zh-CN':
          '从 client 向 Service `web`（10.96.1.1:80）打开一条一直不关的 TCP 连接 `long`，并在上面发一次请求。`lab flow` 是实验室自带的命令，相当于一个保持连接的客户端程序：`open` 建立连接，`send` 在这条连接上发一个请求并读回答，`list` 列出连接，`close` 关闭。',
        en: 'Open a TCP connection `long` from the client to the Service `web` (10.96.1.1:80) that stays open, and send one request on it. `lab flow` is the lab’s own command, standing in for a client program that keeps its connection: `open` connects, `send` sends a request on that connection and reads the answer, `list` lists the flows, `close` closes one.',
      },
      commands: [
        'node-1$ kubectl get pods -o wide',
        'pod/client$ lab flow open long tcp 10.96.1.1:80',
        'pod/client$ lab flow send long',
        'node-1$ conntrack -L -p tcp',
      ],
      ask: [
        {
          kind: 'value',
          id: 'long-pod',
          prompt: {
            'zh-CN': '这条长连接被 DNAT 到了哪个 Pod IP？',
            en: 'Which pod IP was the long connection DNATed to?',
          },
          placeholder: '10.244.x.x',
          reveal: {
            'zh-CN': 'conntrack 里 ESTABLISHED 那一行应答方向的 `src=`。记住它，下一步要用。',
            en: 'The reply tuple’s `src=` on the ESTABLISHED line. Remember it for the next step.',
          },
        },
      ],
      checks: [
        {
          id: 'established',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'eps:default/web',
            tcpState: 'ESTABLISHED',
          },
          label: {
            'zh-CN': 'node-1 上有一条 client → web 的 ESTABLISHED 连接，指向 web 的一个 Pod',
            en: 'node-1 has an ESTABLISHED client → web connection to one of web’s pods',
          },
        },
        {
          id: 'long-pod-answer',
          kind: 'answer',
          params: { question: 'long-pod', value: 'replySourceOfLatest', dst: 'vip:default/web' },
          label: { 'zh-CN': '认出了长连接的后端', en: 'You named the long connection’s backend' },
        },
      ],
      hints: [
        {
          'zh-CN': '需要一条不会马上结束的连接。',
          en: 'You need a connection that does not end at once.',
        },
        {
          'zh-CN': 'curl 发完请求就关闭连接；用 `lab flow open` 打开、`lab flow send` 发请求。',
          en: 'curl closes its connection after the request; use `lab flow open`, then `lab flow send`.',
        },
        {
          'zh-CN':
            '`pod/client$ lab flow open long tcp 10.96.1.1:80`，`pod/client$ lab flow send long`，再 `node-1$ conntrack -L -p tcp` 找 ESTABLISHED 行。',
          en: '`pod/client$ lab flow open long tcp 10.96.1.1:80`, `pod/client$ lab flow send long`, then `node-1$ conntrack -L -p tcp` and find the ESTABLISHED line.',
        },
      ],
      solution: [
        {
          run: 'node-1$ kubectl get pods -o wide\npod/client$ lab flow open long tcp 10.96.1.1:80\npod/client$ lab flow send long\nnode-1$ conntrack -L -p tcp',
        },
        { answer: 'long-pod', value: '10.244.0.4' },
      ],
      wrong: {
        actions: [{ answer: 'long-pod', value: '10.96.1.1' }],
        failing: ['established', 'long-pod-answer'],
      },
    },
    {
      id: 'restart',
      title: { 'zh-CN': '滚动更新', en: 'Roll the Deployment' },
      body: {
        'zh-CN':
          '执行 `kubectl rollout restart deployment/web`：Deployment 的模板变了（多了 restartedAt 注解），于是有了新的 ReplicaSet 和新的 Pod（新的 IP）；旧 Pod 进入 Terminating，离开就绪端点，kube-proxy 重写 KUBE-SVC 链。然后在老连接上再发一次请求，并用 curl 开一条新连接。',
        en: 'Run `kubectl rollout restart deployment/web`: the Deployment’s template changes (a restartedAt annotation), so there is a new ReplicaSet with new pods (new IPs); the old pods turn Terminating and leave the ready endpoints, and kube-proxy rewrites the KUBE-SVC chain. Then send again on the old connection, and open a new one with curl.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'old-connection',
          prompt: {
            'zh-CN': '老连接上的下一个请求会去哪里？',
            en: 'Where does the next request on the old connection go?',
          },
          choices: [
            { text: { 'zh-CN': '自动改去新的 Pod', en: 'It moves to a new pod' } },
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
              '后续的包不再查 nat 规则（第 6 课），按 conntrack 记录继续发往旧 Pod。旧 Pod 在优雅退出期间（terminationGracePeriodSeconds，默认 30 秒）还在服务，所以请求照常成功；新连接则只会被分到新的就绪 Pod。',
            en: 'Later packets do not consult the nat rules (lesson 6); conntrack keeps sending them to the old pod. The old pod still serves during its grace period (terminationGracePeriodSeconds, 30 s by default), so the request works; new connections go only to the new ready pods.',
          },
        },
      ],
      commands: [
        'node-1$ kubectl rollout restart deployment/web',
        'node-1$ kubectl get pods -o wide',
        'node-1$ iptables -t nat -S KUBE-SVC-LOLE4ISW44XBNF3G',
        'pod/client$ lab flow send long',
        'pod/client$ curl -sS http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'old-still-old',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            tcpState: 'ESTABLISHED',
            replySrcNot: 'eps:default/web',
          },
          label: {
            'zh-CN': '长连接仍指向旧 Pod，而旧 Pod 已不是就绪 endpoint',
            en: 'The long connection still points at the old pod, which is no longer a ready endpoint',
          },
        },
        {
          id: 'new-to-new',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'eps:default/web',
            tcpState: 'TIME_WAIT',
          },
          label: {
            'zh-CN': '新连接去了一个新的就绪 Pod',
            en: 'A new connection went to one of the new ready pods',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先用 kubectl 触发滚动更新，再分别试老连接和新连接。',
          en: 'Trigger the rollout with kubectl, then try the old connection and a new one.',
        },
        {
          'zh-CN':
            '`kubectl rollout restart` 作用于 Deployment；老连接用 `lab flow send long`，新连接用 curl。',
          en: '`kubectl rollout restart` works on a Deployment; the old connection is `lab flow send long`, a new one is curl.',
        },
        {
          'zh-CN':
            '`node-1$ kubectl rollout restart deployment/web`，`pod/client$ lab flow send long`，`pod/client$ curl -sS http://10.96.1.1/`，再看 `node-1$ conntrack -L -p tcp`。',
          en: '`node-1$ kubectl rollout restart deployment/web`, `pod/client$ lab flow send long`, `pod/client$ curl -sS http://10.96.1.1/`, then `node-1$ conntrack -L -p tcp`.',
        },
      ],
      solution: [
        {
          run: 'node-1$ kubectl rollout restart deployment/web\nnode-1$ kubectl get pods -o wide\npod/client$ lab flow send long\npod/client$ curl -sS http://10.96.1.1/\nnode-1$ conntrack -L -p tcp',
        },
      ],
    },
    {
      id: 'killed',
      title: { 'zh-CN': '旧 Pod 被杀掉之后', en: 'After the old pod is killed' },
      body: {
        'zh-CN':
          '让时间走过优雅退出期（`sleep 30`）：旧 Pod 被杀掉，它的套接字被内核关闭（先发出 FIN），它的地址随之消失。kube-proxy 从不删除 TCP 的 conntrack 记录，所以那条记录仍然指向旧地址；客户端再在老连接上写数据，数据段就按记录发往一个已经不存在的地址，没有人回答。',
        en: 'Let the grace period pass (`sleep 30`): the old pod is killed, the kernel closes its sockets (sending a FIN first) and its address disappears. kube-proxy never deletes TCP conntrack entries, so the entry still points at the old address; when the client writes on the old connection, the segment follows the entry to an address nobody owns, and nobody answers.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'after-kill',
          prompt: {
            'zh-CN': '旧 Pod 消失后，conntrack 里那条记录会怎样？',
            en: 'Once the old pod is gone, what happens to its conntrack entry?',
          },
          choices: [
            { text: { 'zh-CN': 'kube-proxy 立刻把它删掉', en: 'kube-proxy deletes it at once' } },
            {
              text: {
                'zh-CN': '还在，仍指向旧 Pod 的地址，直到超时或被手动删除',
                en: 'It stays, pointing at the old address, until it times out or someone deletes it',
              },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              'kube-proxy 只清理 UDP（下一步）。TCP 记录要等状态超时，或用 `conntrack -D` 手动删除；在那之前，客户端的重传都发往黑洞，直到内核放弃（tcp_retries2，约 15 分钟）。这就是教材说的“滚动更新时偶发连接重置或超时”。',
            en: 'kube-proxy cleans up UDP only (next step). A TCP entry waits for its state timeout, or for `conntrack -D`; until then the client’s retransmissions go into a black hole until the kernel gives up (tcp_retries2, about 15 minutes). This is the textbook’s “sporadic resets or timeouts during rolling updates”.',
          },
        },
      ],
      commands: [
        'node-1$ sleep 30',
        'pod/client$ lab flow list',
        'node-1$ kubectl get pods -o wide',
        'node-1$ conntrack -L -p tcp',
        'pod/client$ lab flow send long',
      ],
      checks: [
        {
          id: 'points-at-nobody',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrcNot: 'pods:',
          },
          label: {
            'zh-CN': 'conntrack 里仍有一条 client → web 的记录，指向一个已经不属于任何 Pod 的地址',
            en: 'conntrack still holds a client → web entry pointing at an address no pod has any more',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '让虚拟时钟走过优雅退出期。',
          en: 'Move the virtual clock past the grace period.',
        },
        {
          'zh-CN': '`sleep` 在实验室里推动虚拟时间；优雅退出期是 30 秒。',
          en: '`sleep` moves the lab’s virtual time; the grace period is 30 s.',
        },
        {
          'zh-CN':
            '`node-1$ sleep 30`，再 `node-1$ kubectl get pods -o wide` 和 `node-1$ conntrack -L -p tcp` 对照地址。',
          en: '`node-1$ sleep 30`, then compare `node-1$ kubectl get pods -o wide` with `node-1$ conntrack -L -p tcp`.',
        },
      ],
      solution: [
        {
          run: 'node-1$ sleep 30\npod/client$ lab flow list\nnode-1$ kubectl get pods -o wide\nnode-1$ conntrack -L -p tcp\npod/client$ lab flow send long',
        },
      ],
    },
    {
      id: 'udp',
      title: {
        'zh-CN': 'UDP 与 kube-proxy 的 conntrack 清理',
        en: 'UDP and kube-proxy’s conntrack cleanup',
      },
      body: {
        'zh-CN':
          'UDP 没有“连接结束”：只要客户端不停地从同一个套接字发，conntrack 记录就一直被刷新，数据报会永远发往已经消失的后端。所以 kube-proxy 在每次同步规则之后，删除那些“原始目的是某个 UDP Service、而应答来源已不是它的可服务 endpoint”的记录，下一个数据报于是重新做负载均衡。对 TCP，它从不这样做。\n\nService `echo`（10.96.1.53:5353/UDP）有两个 Pod。从 client 打开一个 UDP 流，看是哪个 Pod 回答；删除这个 Pod，让时间走过优雅退出期，再从同一个套接字发。',
        en: 'UDP has no end of connection: as long as the client keeps sending from one socket, the conntrack entry keeps being refreshed and the datagrams would go to a vanished backend forever. So after each sync kube-proxy deletes the entries whose original destination is a UDP Service and whose reply source is no longer one of its serving endpoints; the next datagram is load-balanced afresh. It never does this for TCP.\n\nThe Service `echo` (10.96.1.53:5353/UDP) has two pods. Open a UDP flow from the client and see which pod answers; delete that pod, let the grace period pass, and send again from the same socket.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'udp-after',
          prompt: {
            'zh-CN': '被删 Pod 的地址消失、kube-proxy 同步之后，同一个套接字的下一个数据报会怎样？',
            en: 'Once the deleted pod’s address is gone and kube-proxy has synced, what happens to the next datagram from the same socket?',
          },
          choices: [
            {
              text: {
                'zh-CN': '继续发往已消失的 Pod（黑洞）',
                en: 'It keeps going to the vanished pod (a black hole)',
              },
            },
            {
              text: {
                'zh-CN': '被重新负载均衡到还活着的 Pod',
                en: 'It is load-balanced again, to a live pod',
              },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              'kube-proxy 的清理删掉了旧记录（`conntrack -E` 可以看到 [DESTROY] 事件），下一个数据报对 conntrack 来说是新连接，重新走 nat 表。注意：Pod 处于 Terminating 但仍“可服务”时，记录会被保留——旧 Pod 在优雅退出期内还在回答。',
            en: 'kube-proxy’s cleanup deleted the old entry (`conntrack -E` shows the [DESTROY] event), so the next datagram is a new connection for conntrack and walks the nat table again. Note: while the pod is Terminating but still serving, the entry is kept — the old pod still answers during its grace period.',
          },
        },
      ],
      commands: [
        'pod/client$ lab flow open q udp 10.96.1.53:5353',
        'pod/client$ lab flow send q hello',
        'node-1$ conntrack -L -p udp',
        {
          line: 'node-1$ kubectl delete pod ECHO-POD --wait=false',
          placeholder: 'ECHO-POD',
          fill: {
            'zh-CN': '回答了 `lab flow send q hello` 的那个 echo Pod 的名字',
            en: 'the name of the echo pod that answered `lab flow send q hello`',
          },
        },
        'node-1$ sleep 31',
        'pod/client$ lab flow send q back again',
        'node-1$ conntrack -L -p udp',
      ],
      checks: [
        {
          id: 'rebalanced',
          kind: 'rebalanced',
          params: { from: 'pod/default/client', dst: 'vip:default/echo', proto: 'udp' },
          label: {
            'zh-CN': '同一个 UDP 套接字的数据报先后去了两个不同的 echo Pod（旧记录被清理）',
            en: 'Datagrams from one UDP socket reached two different echo pods (the old entry was cleaned up)',
          },
        },
        {
          id: 'answered-again',
          kind: 'conntrack',
          params: {
            proto: 'udp',
            origSrc: 'pod:default/client',
            origDst: 'vip:default/echo',
            replySrc: 'eps:default/echo',
            seenReply: true,
          },
          label: {
            'zh-CN': '现在的记录指向一个可服务的 echo Pod，并且收到了回答',
            en: 'The current entry points at a serving echo pod, and got an answer',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '先找出是哪个 echo Pod 在回答，再删掉它。',
          en: 'Find which echo pod answers, then delete it.',
        },
        {
          'zh-CN':
            '`lab flow send` 的回答里有 Pod 的名字；用 `kubectl delete pod 名字 --wait=false` 删除，再用 `sleep` 让时间走过 30 秒。',
          en: 'The answer to `lab flow send` names the pod; delete it with `kubectl delete pod NAME --wait=false`, then `sleep` past 30 s.',
        },
        {
          'zh-CN':
            '删除那一行的按钮会把命令放进终端：把 ECHO-POD 换成回答里的 Pod 名，按回车；然后依次运行其余命令，最后 `pod/client$ lab flow send q back again`，看回答换成了另一个 Pod。',
          en: 'The delete line’s button puts the command into the terminal: replace ECHO-POD with the pod named in the answer and press Enter; then run the rest in order, finally `pod/client$ lab flow send q back again`, and see the other pod answer.',
        },
      ],
      solution: [
        {
          run: 'pod/client$ lab flow open q udp 10.96.1.53:5353\npod/client$ lab flow send q hello\nnode-1$ conntrack -L -p udp',
        },
        {
          run: 'node-1$ kubectl delete pod echo-5bbcdfbcfd-7jcxs --wait=false\nnode-1$ sleep 31\npod/client$ lab flow send q back again\nnode-1$ conntrack -L -p udp',
        },
      ],
      wrong: {
        actions: [
          {
            run: 'pod/client$ lab flow open q udp 10.96.1.53:5353\npod/client$ lab flow send q hello\npod/client$ lab flow send q again',
          },
        ],
        failing: ['rebalanced'],
      },
      takeaway: {
        'zh-CN':
          '版本说明：这种按“应答来源是否仍是可服务 endpoint”的清理是 v1.31 之后的做法；更早的版本在端点被删除时按 Service IP 和端点 IP 删除记录。',
        en: 'Version note: cleaning up by “is the reply source still a serving endpoint” is how v1.31 and later do it; earlier versions deleted entries by Service IP and endpoint IP when an endpoint was removed.',
      },
    },
  ],
};
