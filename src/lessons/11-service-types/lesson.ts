import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const EXTERNAL = `---
apiVersion: v1
kind: Service
metadata:
  name: external-db
  namespace: default
spec:
  type: ExternalName
  externalName: db.prod.example.com
`;

const HEADLESS = `---
apiVersion: v1
kind: Service
metadata:
  name: web-headless
  namespace: default
spec:
  clusterIP: None
  selector:
    app: web
  ports:
  - port: 80
    targetPort: http
`;

const lb = (ranges: string) => `---
apiVersion: v1
kind: Service
metadata:
  name: web-lb
  namespace: default
spec:
  type: LoadBalancer
  selector:
    app: web
  loadBalancerSourceRanges: [${ranges}]
  ports:
  - port: 80
    targetPort: http
status:
  loadBalancer:
    ingress:
    - ip: 192.168.1.240
`;

const LB_LAPTOP = lb('192.168.1.100/32');
const LB_PODS = lb('192.168.1.100/32, 10.244.0.0/16');

export const lesson: Lesson = {
  id: '11-service-types',
  number: 11,
  title: { 'zh-CN': 'Service 的几种类型', en: 'Service types' },
  goal: {
    'zh-CN':
      '亲手创建三种“特别”的 Service，看它们在 DNS 和 iptables 里各留下什么：ExternalName 只有一条 CNAME、没有任何规则；headless（`clusterIP: None`）没有 VIP，DNS 直接返回每个就绪 Pod 的 A 记录；LoadBalancer 的 `loadBalancerSourceRanges` 变成 KUBE-FW 链里的源地址过滤。',
    en: 'Create three “special” Services yourself and see what each leaves in DNS and in iptables: ExternalName is a CNAME and no rules at all; headless (`clusterIP: None`) has no VIP and DNS returns an A record per ready pod; a LoadBalancer’s `loadBalancerSourceRanges` becomes source filtering in a KUBE-FW chain.',
  },
  textbook: {
    'zh-CN': '《Kubernetes Service 原理》3.2 节与第 9 节',
    en: '“Service principles”, sections 3.2 and 9',
  },
  simplification: {
    'zh-CN':
      '实验室里没有云负载均衡器：LoadBalancer 的外部 IP 写在 YAML 的 `status` 里（真实集群由云控制器填写），也没有机器替它在局域网上应答。所以第 3 步从集群内的 Pod 访问这个 IP——kube-proxy 在节点上直接截住发往 LB IP 的流量，源地址过滤同样生效。',
    en: 'The lab has no cloud load balancer: the LoadBalancer’s external IP is written in the YAML’s `status` (a cloud controller fills it in on a real cluster), and no machine answers for it on the LAN. So step 3 calls the IP from a pod: kube-proxy catches traffic to the LB IP on the node itself, and the source ranges apply there too.',
  },
  scenario,
  steps: [
    {
      id: 'external-name',
      title: { 'zh-CN': 'ExternalName：只是一条 CNAME', en: 'ExternalName: just a CNAME' },
      body: {
        'zh-CN': '添加下面的 Service 并应用，然后在 client 上查询它的名字。',
        en: 'Add this Service, apply it, then look its name up from the client.',
      },
      yaml: EXTERNAL,
      predict: [
        {
          kind: 'choice',
          id: 'rules',
          prompt: {
            'zh-CN': 'kube-proxy 会为 external-db 写几条 iptables 规则？',
            en: 'How many iptables rules does kube-proxy write for external-db?',
          },
          choices: [
            { text: { 'zh-CN': '0 条', en: 'None' }, correct: true },
            { text: { 'zh-CN': '1 条 KUBE-SERVICES 规则', en: 'One KUBE-SERVICES rule' } },
            { text: { 'zh-CN': '一整套 KUBE-SVC/KUBE-SEP', en: 'A full KUBE-SVC/KUBE-SEP set' } },
          ],
          reveal: {
            'zh-CN':
              'ExternalName 没有 ClusterIP、没有 endpoint，kube-proxy 完全忽略它；一切发生在 DNS 里：CoreDNS 返回一条指向 db.prod.example.com 的 CNAME。',
            en: 'An ExternalName has no ClusterIP and no endpoints; kube-proxy ignores it. It all happens in DNS: CoreDNS answers with a CNAME to db.prod.example.com.',
          },
        },
      ],
      commands: [
        'pod/client$ dig external-db.default.svc.cluster.local',
        'node-1$ iptables -t nat -S | grep -c external-db',
      ],
      ask: [
        {
          kind: 'value',
          id: 'ext-rules',
          prompt: {
            'zh-CN': 'KUBE-SERVICES 里提到 external-db 的规则有几条？',
            en: 'How many KUBE-SERVICES rules mention external-db?',
          },
          placeholder: '0',
          reveal: { 'zh-CN': '0 条。', en: 'None.' },
        },
      ],
      checks: [
        {
          id: 'ext-svc',
          kind: 'service',
          params: {
            service: 'default/external-db',
            type: 'ExternalName',
            externalName: 'db.prod.example.com',
          },
          label: {
            'zh-CN': 'external-db 是指向 db.prod.example.com 的 ExternalName',
            en: 'external-db is an ExternalName for db.prod.example.com',
          },
        },
        {
          id: 'dns-asked',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'vip:kube-system/kube-dns', proto: 'udp' },
          label: { 'zh-CN': 'client 收到了 DNS 回答', en: 'The client got a DNS answer' },
        },
        {
          id: 'ext-rules-answer',
          kind: 'answer',
          params: { question: 'ext-rules', value: 'ruleCount', comment: 'default/external-db' },
          label: { 'zh-CN': '数对了规则', en: 'You counted the rules' },
        },
      ],
      hints: [
        { 'zh-CN': '先在编辑器里加上这个 Service。', en: 'First add the Service in the editor.' },
        {
          'zh-CN': '再用 dig 查询 `external-db.default.svc.cluster.local`，看 ANSWER SECTION。',
          en: 'Then dig `external-db.default.svc.cluster.local` and read the ANSWER SECTION.',
        },
        {
          'zh-CN':
            '`pod/client$ dig external-db.default.svc.cluster.local`；`node-1$ iptables -t nat -S | grep -c external-db` 打印的数就是答案。',
          en: '`pod/client$ dig external-db.default.svc.cluster.local`; the number `node-1$ iptables -t nat -S | grep -c external-db` prints is the answer.',
        },
      ],
      solution: [
        { apply: EXTERNAL },
        {
          run: 'pod/client$ dig external-db.default.svc.cluster.local\nnode-1$ iptables -t nat -S | grep -c external-db',
        },
        { answer: 'ext-rules', value: '0' },
      ],
    },
    {
      id: 'headless',
      title: {
        'zh-CN': 'Headless：DNS 返回 Pod 的地址',
        en: 'Headless: DNS returns the pods’ addresses',
      },
      body: {
        'zh-CN': '添加 headless Service `web-headless` 并应用，再查询它的名字。',
        en: 'Add the headless Service `web-headless`, apply it, and look its name up.',
      },
      yaml: HEADLESS,
      predict: [
        {
          kind: 'choice',
          id: 'records',
          prompt: { 'zh-CN': 'DNS 会返回什么？', en: 'What will DNS return?' },
          choices: [
            { text: { 'zh-CN': '一个 ClusterIP', en: 'One ClusterIP' } },
            {
              text: { 'zh-CN': '每个就绪 Pod 一条 A 记录', en: 'One A record per ready pod' },
              correct: true,
            },
            { text: { 'zh-CN': 'NXDOMAIN', en: 'NXDOMAIN' } },
          ],
          reveal: {
            'zh-CN':
              '没有 VIP，也就没有 KUBE-SVC 链；负载均衡交给了客户端自己（它拿到全部地址）。StatefulSet 还会给每个 Pod 一个稳定的名字。',
            en: 'No VIP, so no KUBE-SVC chain: load balancing is left to the client, which gets every address. StatefulSets also give each pod a stable name.',
          },
        },
      ],
      commands: ['pod/client$ dig +short web-headless.default.svc.cluster.local'],
      ask: [
        {
          kind: 'value',
          id: 'a-count',
          prompt: { 'zh-CN': '返回了几条 A 记录？', en: 'How many A records came back?' },
          placeholder: '0',
          reveal: {
            'zh-CN': '与就绪 endpoint 的个数相同。',
            en: 'As many as there are ready endpoints.',
          },
        },
      ],
      checks: [
        {
          id: 'headless-svc',
          kind: 'service',
          params: { service: 'default/web-headless', headless: true, minReady: 3 },
          label: {
            'zh-CN': 'web-headless 是 headless Service，有 3 个就绪 endpoint',
            en: 'web-headless is headless, with 3 ready endpoints',
          },
        },
        {
          id: 'dns-asked-2',
          kind: 'received',
          params: { host: 'pod/default/client', src: 'vip:kube-system/kube-dns', proto: 'udp' },
          label: { 'zh-CN': 'client 收到了 DNS 回答', en: 'The client got a DNS answer' },
        },
        {
          id: 'a-count-answer',
          kind: 'answer',
          params: { question: 'a-count', value: 'endpointCount', service: 'default/web-headless' },
          label: { 'zh-CN': '数对了 A 记录', en: 'You counted the A records' },
        },
      ],
      hints: [
        { 'zh-CN': '关键字段是 `clusterIP: None`。', en: 'The key field is `clusterIP: None`.' },
        {
          'zh-CN': '加好 Service 后用 `dig +short` 查询，每行一个地址。',
          en: 'With the Service added, `dig +short` prints one address per line.',
        },
        {
          'zh-CN': '`pod/client$ dig +short web-headless.default.svc.cluster.local`，数行数。',
          en: '`pod/client$ dig +short web-headless.default.svc.cluster.local`, and count the lines.',
        },
      ],
      solution: [
        { apply: HEADLESS },
        { run: 'pod/client$ dig +short web-headless.default.svc.cluster.local' },
        { answer: 'a-count', value: '3' },
      ],
      wrong: {
        actions: [{ answer: 'a-count', value: '1' }],
        failing: ['headless-svc', 'a-count-answer'],
      },
    },
    {
      id: 'load-balancer',
      title: { 'zh-CN': 'LoadBalancer 与 source ranges', en: 'LoadBalancer with source ranges' },
      body: {
        'zh-CN':
          '添加 `web-lb`：只允许 laptop（192.168.1.100/32）访问。看 KUBE-SERVICES 里的 `loadbalancer IP` 规则跳到 `KUBE-FW-<哈希>`：源地址在范围内的跳 KUBE-EXT，其余的由 filter 表的 KUBE-PROXY-FIREWALL 丢弃。\n\n从 client Pod 访问 192.168.1.240，会被丢弃；再把 `10.244.0.0/16` 加进 `loadBalancerSourceRanges`，应用后重试。',
        en: 'Add `web-lb`, which only lets the laptop (192.168.1.100/32) in. KUBE-SERVICES’s `loadbalancer IP` rule jumps to `KUBE-FW-<hash>`: sources in range go on to KUBE-EXT, the rest are dropped by the filter table’s KUBE-PROXY-FIREWALL.\n\nCall 192.168.1.240 from the client pod: it is dropped. Then add `10.244.0.0/16` to `loadBalancerSourceRanges`, apply, and try again.',
      },
      yaml: LB_LAPTOP,
      commands: [
        "node-1$ iptables -t nat -S | grep -e KUBE-FW -e 'loadbalancer IP'",
        'node-1$ iptables -S KUBE-PROXY-FIREWALL',
        'pod/client$ curl -sS -m 2 http://192.168.1.240/',
      ],
      checks: [
        {
          id: 'fw-dropped',
          kind: 'dropped',
          params: { why: 'datapath.drop.netfilter' },
          label: {
            'zh-CN': '范围之外的请求被 KUBE-PROXY-FIREWALL 丢弃',
            en: 'A request from outside the ranges was dropped by KUBE-PROXY-FIREWALL',
          },
        },
        {
          id: 'ranges',
          kind: 'service',
          params: {
            service: 'default/web-lb',
            type: 'LoadBalancer',
            sourceRanges: ['192.168.1.100/32', '10.244.0.0/16'],
          },
          label: {
            'zh-CN': 'web-lb 允许 192.168.1.100/32 和 10.244.0.0/16',
            en: 'web-lb allows 192.168.1.100/32 and 10.244.0.0/16',
          },
        },
        {
          id: 'lb-answered',
          kind: 'received',
          params: { host: 'pod/default/client', src: '192.168.1.240', flags: 'S.' },
          label: {
            'zh-CN': '加入范围后，client 收到了来自 192.168.1.240 的 SYN-ACK',
            en: 'Once in range, the client got a SYN-ACK from 192.168.1.240',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '这一步分两半：先用只含 laptop 的范围试一次，再扩大范围。',
          en: 'Two halves: try once with the laptop-only range, then widen it.',
        },
        {
          'zh-CN':
            'client 的地址在 Pod 网段 10.244.0.0/16 里；`loadBalancerSourceRanges` 是一个 CIDR 列表。',
          en: 'The client’s address is in the pod network 10.244.0.0/16; `loadBalancerSourceRanges` is a list of CIDRs.',
        },
        {
          'zh-CN':
            '先应用本步骤给出的 YAML 并 `pod/client$ curl -sS -m 2 http://192.168.1.240/` 一次；再把那一行改成 `loadBalancerSourceRanges: [192.168.1.100/32, 10.244.0.0/16]`，应用后重试。',
          en: 'Apply this step’s YAML and `pod/client$ curl -sS -m 2 http://192.168.1.240/` once; then change that line to `loadBalancerSourceRanges: [192.168.1.100/32, 10.244.0.0/16]`, apply, and try again.',
        },
      ],
      solution: [
        { apply: LB_LAPTOP },
        { run: 'pod/client$ curl -sS -m 2 http://192.168.1.240/' },
        { apply: LB_PODS },
        { run: 'pod/client$ curl -sS -m 2 http://192.168.1.240/' },
      ],
      wrong: {
        actions: [{ apply: LB_LAPTOP }, { run: 'pod/client$ curl -sS -m 2 http://192.168.1.240/' }],
        failing: ['ranges', 'lb-answered'],
      },
    },
  ],
};
