import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const LOCAL = `---
apiVersion: v1
kind: Service
metadata:
  name: web-np-2
  namespace: default
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: { instance: web-2 }
  ports:
  - port: 80
    targetPort: http
    nodePort: 30082
`;

export const lesson: Lesson = {
  id: '05-nodeport-from-outside',
  number: 5,
  title: { 'zh-CN': '从集群外访问 NodePort', en: 'NodePort from outside' },
  goal: {
    'zh-CN':
      '跟踪集群外的 laptop（192.168.1.100）访问 `<节点IP>:<NodePort>` 的包：PREROUTING → KUBE-SERVICES → KUBE-NODEPORTS → KUBE-EXT → KUBE-SVC → KUBE-SEP；弄清后端 Pod 看到的源地址是谁；再用 `externalTrafficPolicy: Local` 保留客户端的真实地址，并看清它的代价。',
    en: 'Follow a packet from the laptop outside the cluster (192.168.1.100) to `<node IP>:<NodePort>`: PREROUTING → KUBE-SERVICES → KUBE-NODEPORTS → KUBE-EXT → KUBE-SVC → KUBE-SEP; find out which source address the backend pod sees; then keep the client’s real address with `externalTrafficPolicy: Local`, and see what it costs.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.6 节“NodePort 数据包流程”；《Kubernetes Service 原理》9.2 节',
    en: 'Chapter 7, section 7.6, the NodePort packet flow; “Service principles”, section 9.2',
  },
  scenario,
  steps: [
    {
      id: 'path',
      title: { 'zh-CN': 'NodePort 走哪些链', en: 'The chains a NodePort packet walks' },
      body: {
        'zh-CN':
          'Service `web-np-2` 的 NodePort 是 30082，唯一的 endpoint 是 node-2 上的 web-2（10.244.1.2）。laptop 访问 node-1 的 192.168.1.10:30082。\n\n教材的图里 KUBE-NODEPORTS 直接跳 KUBE-SVC；较新的 kube-proxy 在中间多了一条 `KUBE-EXT-<哈希>` 链，专门处理“外部流量”：在这里打 masquerade 标记，再跳 KUBE-SVC。',
        en: 'The Service `web-np-2` has NodePort 30082; its only endpoint is web-2 (10.244.1.2) on node-2. The laptop calls node-1 at 192.168.1.10:30082.\n\nThe textbook’s figure jumps from KUBE-NODEPORTS straight to KUBE-SVC; newer kube-proxy puts a `KUBE-EXT-<hash>` chain in between for “external” traffic: it sets the masquerade mark there, then jumps to KUBE-SVC.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'after-services',
          prompt: {
            'zh-CN': '目的地址是节点自己的 IP。KUBE-SERVICES 里哪条规则会命中它？',
            en: 'The destination is the node’s own IP. Which KUBE-SERVICES rule catches it?',
          },
          choices: [
            {
              text: {
                'zh-CN': '某个 Service 的 cluster IP 规则',
                en: 'A Service’s cluster IP rule',
              },
            },
            {
              text: {
                'zh-CN': '最后一条：`ADDRTYPE match dst-type LOCAL` → KUBE-NODEPORTS',
                en: 'The last one: `ADDRTYPE match dst-type LOCAL` → KUBE-NODEPORTS',
              },
              correct: true,
            },
            {
              text: {
                'zh-CN': '都不命中，包被交给本机进程',
                en: 'None: the packet goes to a local process',
              },
            },
          ],
          reveal: {
            'zh-CN':
              'KUBE-SERVICES 的最后一条规则把“目的地址是本机地址”的包送进 KUBE-NODEPORTS，那里按目的端口（`dpt:30082`）找 Service。',
            en: 'The last KUBE-SERVICES rule sends packets addressed to one of the node’s own addresses to KUBE-NODEPORTS, which finds the Service by destination port (`dpt:30082`).',
          },
        },
      ],
      commands: [
        'node-1$ iptables -t nat -S KUBE-NODEPORTS',
        'laptop$ curl -sS -m 2 http://192.168.1.10:30082/',
      ],
      checks: [
        {
          id: 'nodeport-path',
          kind: 'path',
          params: {
            from: 'laptop',
            chains: [
              'PREROUTING',
              'KUBE-SERVICES',
              'KUBE-NODEPORTS',
              'KUBE-EXT-',
              'KUBE-MARK-MASQ',
              'KUBE-SVC-',
              'KUBE-SEP-',
              'DNAT',
            ],
          },
          label: {
            'zh-CN':
              'laptop 的包依次经过 KUBE-SERVICES、KUBE-NODEPORTS、KUBE-EXT（打标记）、KUBE-SVC、KUBE-SEP 并被 DNAT',
            en: 'The laptop’s packet walked KUBE-SERVICES, KUBE-NODEPORTS, KUBE-EXT (marked), KUBE-SVC, KUBE-SEP and was DNATed',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '这次客户端在集群外：终端的目标要选 laptop。',
          en: 'This time the client is outside the cluster: run the command on the laptop.',
        },
        {
          'zh-CN': '访问地址是节点 IP 加 NodePort，不是 ClusterIP。',
          en: 'Call the node’s IP and the NodePort, not the ClusterIP.',
        },
        {
          'zh-CN': '运行 `laptop$ curl -sS -m 2 http://192.168.1.10:30082/`，然后看追踪。',
          en: 'Run `laptop$ curl -sS -m 2 http://192.168.1.10:30082/`, then read the trace.',
        },
      ],
      solution: [
        {
          run: 'node-1$ iptables -t nat -S KUBE-NODEPORTS\nlaptop$ curl -sS -m 2 http://192.168.1.10:30082/',
        },
      ],
    },
    {
      id: 'source',
      title: { 'zh-CN': 'Pod 看到的源地址', en: 'The source the pod sees' },
      body: {
        'zh-CN':
          'KUBE-EXT 打的 0x4000 标记让包在 node-1 的 POSTROUTING（KUBE-POSTROUTING）被 MASQUERADE。MASQUERADE 选用“包离开的那块网卡”的地址。分别访问 30082（web-2 在 node-2）和 30081（web-1 就在 node-1）。',
        en: 'The 0x4000 mark from KUBE-EXT gets the packet masqueraded in node-1’s POSTROUTING (KUBE-POSTROUTING). MASQUERADE picks the address of the interface the packet leaves by. Call 30082 (web-2, on node-2) and 30081 (web-1, on node-1 itself).',
      },
      predict: [
        {
          kind: 'choice',
          id: 'seen',
          prompt: {
            'zh-CN': '经 node-1 访问 30082 时，web-2 看到的源地址是？',
            en: 'Through node-1 on 30082, which source does web-2 see?',
          },
          choices: [
            { text: { 'zh-CN': 'laptop 的 192.168.1.100', en: 'The laptop’s 192.168.1.100' } },
            {
              text: { 'zh-CN': 'node-1 的 192.168.1.10', en: 'node-1’s 192.168.1.10' },
              correct: true,
            },
            {
              text: {
                'zh-CN': 'node-1 的 cni0 地址 10.244.0.1',
                en: 'node-1’s cni0 address 10.244.0.1',
              },
            },
          ],
          reveal: {
            'zh-CN':
              '包从 node-1 的 eth0 发往 node-2，MASQUERADE 用 eth0 的地址 192.168.1.10。访问 30081 时包从 cni0 发给同节点的 web-1，源地址就成了 cni0 的 10.244.0.1（在真实内核上核对过）。两种情况下客户端的真实地址都丢了。',
            en: 'The packet leaves node-1 by eth0 towards node-2, so MASQUERADE uses eth0’s 192.168.1.10. On 30081 it leaves by cni0 to web-1 on the same node, so the source becomes cni0’s 10.244.0.1 (checked on a real kernel). Either way, the client’s real address is lost.',
          },
        },
      ],
      commands: [
        'node-1$ conntrack -F',
        'laptop$ curl -sS -m 2 http://192.168.1.10:30082/',
        'laptop$ curl -sS -m 2 http://192.168.1.10:30081/',
        'node-1$ conntrack -L -p tcp',
      ],
      ask: [
        {
          kind: 'value',
          id: 'seen-30082',
          prompt: {
            'zh-CN':
              '访问 30082 时，web-2 看到的源地址是？（curl 的输出或 conntrack 应答方向的 dst= 都能告诉你）',
            en: 'On 30082, which source address did web-2 see? (curl’s output, or the reply tuple’s dst=, tells you)',
          },
          placeholder: '192.168.x.x',
          reveal: {
            'zh-CN': 'node-1 的 eth0 地址 192.168.1.10。',
            en: 'node-1’s eth0 address, 192.168.1.10.',
          },
        },
      ],
      checks: [
        {
          id: 'masq-eth0',
          kind: 'conntrack',
          params: {
            origSrc: 'client:laptop',
            origDst: 'node:node-1',
            origDport: 30082,
            replySrc: 'pod:default/web-2',
            replyDst: 'node:node-1',
          },
          label: {
            'zh-CN': '经 node-1 到 web-2 的连接被 SNAT 成了 192.168.1.10',
            en: 'The connection through node-1 to web-2 was SNATed to 192.168.1.10',
          },
        },
        {
          id: 'masq-cni0',
          kind: 'conntrack',
          params: {
            origSrc: 'client:laptop',
            origDst: 'node:node-1',
            origDport: 30081,
            replySrc: 'pod:default/web-1',
            replyDst: 'gw:node-1',
          },
          label: {
            'zh-CN': '经 node-1 到同节点 web-1 的连接被 SNAT 成了 cni0 的 10.244.0.1',
            en: 'The connection through node-1 to web-1 on the same node was SNATed to cni0’s 10.244.0.1',
          },
        },
        {
          id: 'seen-answer',
          kind: 'answer',
          params: {
            question: 'seen-30082',
            value: 'replyDestination',
            src: 'client:laptop',
            dport: 30082,
          },
          label: { 'zh-CN': '答对了 web-2 看到的源地址', en: 'You named the source web-2 saw' },
        },
      ],
      hints: [
        {
          'zh-CN': '两个端口各访问一次，然后看 node-1 的 conntrack。',
          en: 'Call each port once, then read node-1’s conntrack table.',
        },
        {
          'zh-CN': 'conntrack 应答方向的 `dst=` 是后端回包要发往的地址，也就是它看到的源地址。',
          en: 'The reply tuple’s `dst=` is where the backend sends its answer: the source it saw.',
        },
        {
          'zh-CN':
            '`laptop$ curl -sS -m 2 http://192.168.1.10:30082/` 和 `…:30081/`，再 `node-1$ conntrack -L -p tcp`。',
          en: '`laptop$ curl -sS -m 2 http://192.168.1.10:30082/` and `…:30081/`, then `node-1$ conntrack -L -p tcp`.',
        },
      ],
      solution: [
        {
          run: 'node-1$ conntrack -F\nlaptop$ curl -sS -m 2 http://192.168.1.10:30082/\nlaptop$ curl -sS -m 2 http://192.168.1.10:30081/\nnode-1$ conntrack -L -p tcp',
        },
        { answer: 'seen-30082', value: '192.168.1.10' },
      ],
      wrong: {
        actions: [{ answer: 'seen-30082', value: '192.168.1.100' }],
        failing: ['seen-answer'],
      },
    },
    {
      id: 'local',
      title: {
        'zh-CN': '保留客户端地址：externalTrafficPolicy: Local',
        en: 'Keep the client address: externalTrafficPolicy: Local',
      },
      body: {
        'zh-CN':
          '把 `web-np-2` 改成 `externalTrafficPolicy: Local` 并应用。这样节点只把外部流量交给本节点上的 endpoint，不需要 SNAT，Pod 能看到客户端真实地址。代价是：没有本地 endpoint 的节点会把这种流量丢掉（filter 表 KUBE-EXTERNAL-SERVICES 里的 DROP，注释为 “has no local endpoints”）。\n\n分别经 node-2（192.168.1.11）和 node-1（192.168.1.10）访问 30082。',
        en: 'Change `web-np-2` to `externalTrafficPolicy: Local` and apply. Nodes then hand external traffic only to endpoints on the same node, no SNAT is needed, and the pod sees the client’s real address. The price: a node with no local endpoint drops that traffic (a DROP in the filter table’s KUBE-EXTERNAL-SERVICES, commented “has no local endpoints”).\n\nCall 30082 through node-2 (192.168.1.11) and through node-1 (192.168.1.10).',
      },
      yaml: LOCAL,
      predict: [
        {
          kind: 'choice',
          id: 'via-node-1',
          prompt: {
            'zh-CN': '改成 Local 以后，经 node-1 访问 30082 会怎样？',
            en: 'With Local, what happens to a call to 30082 through node-1?',
          },
          choices: [
            {
              text: {
                'zh-CN': '照常转给 node-2 上的 web-2，但做 SNAT',
                en: 'Forwarded to web-2 on node-2 as before, with SNAT',
              },
            },
            {
              text: { 'zh-CN': '被丢弃，curl 超时', en: 'Dropped: curl times out' },
              correct: true,
            },
            { text: { 'zh-CN': '被拒绝（RST）', en: 'Refused (RST)' } },
          ],
          reveal: {
            'zh-CN':
              'node-1 上没有 web-np-2 的本地 endpoint，KUBE-EXTERNAL-SERVICES 里的规则把它 DROP 掉。真实环境里，云负载均衡器用 healthCheckNodePort 的健康检查避开这类节点。',
            en: 'node-1 has no local endpoint of web-np-2, and the KUBE-EXTERNAL-SERVICES rule DROPs it. In real clusters a cloud load balancer avoids such nodes through the healthCheckNodePort health check.',
          },
        },
      ],
      commands: [
        'node-1$ iptables -S KUBE-EXTERNAL-SERVICES',
        'laptop$ curl -sS -m 2 http://192.168.1.11:30082/',
        'laptop$ curl -sS -m 2 http://192.168.1.10:30082/',
        'node-2$ conntrack -L -p tcp',
      ],
      checks: [
        {
          id: 'etp-local',
          kind: 'service',
          params: { service: 'default/web-np-2', externalTrafficPolicy: 'Local' },
          label: {
            'zh-CN': 'web-np-2 的 externalTrafficPolicy 是 Local',
            en: 'web-np-2 has externalTrafficPolicy: Local',
          },
        },
        {
          id: 'client-ip-kept',
          kind: 'conntrack',
          params: {
            node: 'node-2',
            origSrc: 'client:laptop',
            origDport: 30082,
            replySrc: 'pod:default/web-2',
            replyDst: 'client:laptop',
          },
          label: {
            'zh-CN': '经 node-2 的连接没有 SNAT：web-2 看到的是 laptop 的 192.168.1.100',
            en: 'Through node-2 there is no SNAT: web-2 sees the laptop’s 192.168.1.100',
          },
        },
        {
          id: 'dropped-node-1',
          kind: 'dropped',
          params: { why: 'datapath.drop.netfilter' },
          label: {
            'zh-CN': '经 node-1 的请求被 filter 表丢弃（没有本地 endpoint）',
            en: 'The call through node-1 was dropped in the filter table (no local endpoint)',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '改的是 Service 的 spec，然后从两个节点各试一次。',
          en: 'Change the Service’s spec, then try through each node.',
        },
        {
          'zh-CN':
            '在编辑器里给 web-np-2 的 spec 加一行 `externalTrafficPolicy: Local`，应用；node-2 的 IP 是 192.168.1.11。',
          en: 'Add `externalTrafficPolicy: Local` to web-np-2’s spec in the editor and apply; node-2’s IP is 192.168.1.11.',
        },
        {
          'zh-CN':
            '应用本步骤的 YAML，然后 `laptop$ curl -sS -m 2 http://192.168.1.11:30082/` 与 `laptop$ curl -sS -m 2 http://192.168.1.10:30082/`。',
          en: 'Apply this step’s YAML, then `laptop$ curl -sS -m 2 http://192.168.1.11:30082/` and `laptop$ curl -sS -m 2 http://192.168.1.10:30082/`.',
        },
      ],
      solution: [
        { apply: LOCAL },
        {
          run: 'node-1$ iptables -S KUBE-EXTERNAL-SERVICES\nlaptop$ curl -sS -m 2 http://192.168.1.11:30082/\nlaptop$ curl -sS -m 2 http://192.168.1.10:30082/\nnode-2$ conntrack -L -p tcp',
        },
      ],
      wrong: {
        actions: [{ run: 'laptop$ curl -sS -m 2 http://192.168.1.11:30082/' }],
        failing: ['etp-local', 'client-ip-kept', 'dropped-node-1'],
      },
    },
  ],
};
