import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

const HELLO = `---
apiVersion: v1
kind: Service
metadata:
  name: hello
  namespace: default
spec:
  selector:
    app: web
  ports:
  - port: 8080
    targetPort: http
`;

export const lesson: Lesson = {
  id: '02-find-your-service',
  number: 2,
  title: { 'zh-CN': '找到你的 Service 的规则', en: 'Find your Service’s rules' },
  goal: {
    'zh-CN':
      '在编辑器里创建一个 Service，然后像在真实节点上一样顺藤摸瓜：从 KUBE-SERVICES 找到它的 KUBE-SVC 链，再跟到 KUBE-SEP 链和其中的 DNAT 规则，最后发一个包验证这条路径。',
    en: 'Create a Service in the editor, then follow it as you would on a real node: from KUBE-SERVICES to its KUBE-SVC chain, on to the KUBE-SEP chains and their DNAT rules, and finally send a packet down that path.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.3 节、7.9 节；本章练习第 2 题',
    en: 'Chapter 7, sections 7.3 and 7.9; exercise 2',
  },
  scenario,
  steps: [
    {
      id: 'create',
      title: { 'zh-CN': '创建 Service', en: 'Create the Service' },
      body: {
        'zh-CN':
          '在场景文件末尾加上下面这个 Service 并应用。它选择 `app: web` 的三个 Pod，把端口 8080 转到 Pod 里名为 `http` 的端口（8080）。',
        en: 'Add this Service at the end of the scenario and apply it. It selects the three `app: web` pods and sends port 8080 to their port named `http` (8080).',
      },
      yaml: HELLO,
      commands: ['node-1$ kubectl get svc hello', 'node-1$ kubectl get endpointslices'],
      checks: [
        {
          id: 'hello-exists',
          kind: 'service',
          params: { service: 'default/hello', minReady: 3 },
          label: {
            'zh-CN': 'Service default/hello 存在，并有 3 个就绪 endpoint',
            en: 'Service default/hello exists with 3 ready endpoints',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '在 YAML 编辑器里追加一个新文档（以 `---` 分隔），保存并应用。',
          en: 'Append a new document (after `---`) in the YAML editor, then save and apply it.',
        },
        {
          'zh-CN': 'selector 要与 web Pod 的标签一致（`app: web`），否则 Service 没有 endpoint。',
          en: 'The selector must match the web pods’ label (`app: web`), or the Service gets no endpoints.',
        },
        {
          'zh-CN': '把本步骤给出的 YAML 原样粘贴到文件末尾即可。',
          en: 'Paste the YAML given in this step, unchanged, at the end of the file.',
        },
      ],
      solution: [{ apply: HELLO }],
    },
    {
      id: 'follow',
      title: { 'zh-CN': '顺着链找下去', en: 'Follow the chains' },
      body: {
        'zh-CN':
          'KUBE-SERVICES 像一个 switch-case：每个 Service 端口一条规则，匹配“目的 IP = ClusterIP 且目的端口 = port”，命中就跳到该端口的 `KUBE-SVC-<哈希>` 链。链名里的哈希由“命名空间/名称:端口名”加协议算出，所以同一个 Service 在每个节点上链名都一样。',
        en: 'KUBE-SERVICES works like a switch: one rule per Service port, matching “destination = ClusterIP and destination port = port”, jumping to that port’s `KUBE-SVC-<hash>` chain. The hash is computed from “namespace/name:port-name” and the protocol, so a Service’s chains have the same names on every node.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'sep-count',
          prompt: {
            'zh-CN': 'hello 的 KUBE-SVC 链里会有几条跳到 KUBE-SEP 的规则？',
            en: 'How many rules in hello’s KUBE-SVC chain jump to a KUBE-SEP chain?',
          },
          choices: [
            { text: { 'zh-CN': '1 条', en: 'One' } },
            {
              text: { 'zh-CN': '3 条，每个 endpoint 一条', en: 'Three, one per endpoint' },
              correct: true,
            },
            {
              text: {
                'zh-CN': '6 条，每个节点每个 endpoint 一条',
                en: 'Six, one per node and endpoint',
              },
            },
          ],
          reveal: {
            'zh-CN': '每个 endpoint 一条 KUBE-SEP 链；每个节点都有同样的一整套规则。',
            en: 'One KUBE-SEP chain per endpoint; every node has the same full set of rules.',
          },
        },
      ],
      commands: [
        'node-1$ iptables -t nat -L KUBE-SERVICES -n | grep hello',
        {
          line: 'node-1$ iptables -t nat -L KUBE-SVC-XXXXXXXXXXXXXXXX -n',
          placeholder: 'KUBE-SVC-XXXXXXXXXXXXXXXX',
          fill: {
            'zh-CN': '上一条命令输出里 hello 那一行最左边的 KUBE-SVC 链名',
            en: 'the KUBE-SVC chain on the left of hello’s line in the previous command’s output',
          },
        },
        {
          line: 'node-1$ iptables -t nat -L KUBE-SEP-YYYYYYYYYYYYYYYY -n',
          placeholder: 'KUBE-SEP-YYYYYYYYYYYYYYYY',
          fill: {
            'zh-CN': 'KUBE-SVC 链里任意一条规则的 target（一个 KUBE-SEP 链名）',
            en: 'the target of any rule in the KUBE-SVC chain (a KUBE-SEP chain)',
          },
        },
      ],
      ask: [
        {
          kind: 'value',
          id: 'svc-chain',
          prompt: {
            'zh-CN': 'hello 的 KUBE-SVC 链叫什么？',
            en: 'What is hello’s KUBE-SVC chain called?',
          },
          placeholder: 'KUBE-SVC-…',
          reveal: {
            'zh-CN':
              'KUBE-SERVICES 里注释为 `default/hello cluster IP` 的那条规则的 target 就是它。',
            en: 'It is the target of the KUBE-SERVICES rule commented `default/hello cluster IP`.',
          },
        },
        {
          kind: 'value',
          id: 'dnat-target',
          prompt: {
            'zh-CN': '任选一条 KUBE-SEP 链，它把包 DNAT 到哪里（IP:端口）？',
            en: 'Pick any of its KUBE-SEP chains: where does it DNAT to (IP:port)?',
          },
          placeholder: '10.244.x.x:8080',
          reveal: {
            'zh-CN': '`DNAT … to:10.244.x.x:8080`：Pod IP 加 targetPort 解析出的端口号。',
            en: '`DNAT … to:10.244.x.x:8080`: the pod IP and the number the targetPort name resolves to.',
          },
        },
      ],
      checks: [
        {
          id: 'svc-chain-answer',
          kind: 'answer',
          params: { question: 'svc-chain', value: 'svcChain', service: 'default/hello' },
          label: { 'zh-CN': '找到了 hello 的 KUBE-SVC 链', en: 'You found hello’s KUBE-SVC chain' },
        },
        {
          id: 'dnat-answer',
          kind: 'answer',
          params: { question: 'dnat-target', value: 'dnatTargets', service: 'default/hello' },
          label: { 'zh-CN': '找到了一个 DNAT 目标', en: 'You found a DNAT target' },
        },
      ],
      hints: [
        {
          'zh-CN': '从入口链 KUBE-SERVICES 开始，找带 hello 注释的那一行。',
          en: 'Start at the entry chain KUBE-SERVICES and find the line with hello in its comment.',
        },
        {
          'zh-CN':
            '那一行最左边的 target 就是下一条链；再用 `iptables -t nat -L <链名> -n` 打开它，依此类推。',
          en: 'The target on the left of that line is the next chain; open it with `iptables -t nat -L <chain> -n`, and so on.',
        },
        {
          'zh-CN':
            '`node-1$ iptables -t nat -L KUBE-SERVICES -n | grep hello` 给出 KUBE-SVC 链名；列出它，再列出其中任一 KUBE-SEP 链，DNAT 行末尾的 `to:` 后面就是答案。',
          en: '`node-1$ iptables -t nat -L KUBE-SERVICES -n | grep hello` gives the KUBE-SVC name; list it, then list any of its KUBE-SEP chains: the answer follows `to:` on the DNAT line.',
        },
      ],
      solution: [
        {
          run: 'node-1$ iptables -t nat -L KUBE-SERVICES -n | grep hello\nnode-1$ iptables -t nat -L KUBE-SVC-STDNOFAI3EEZDIVA -n\nnode-1$ iptables -t nat -L KUBE-SEP-BSOQWJHUS3SXORRL -n',
        },
        { answer: 'svc-chain', value: 'KUBE-SVC-STDNOFAI3EEZDIVA' },
        { answer: 'dnat-target', value: '10.244.1.2:8080' },
      ],
      wrong: {
        actions: [
          { answer: 'svc-chain', value: 'KUBE-SVC-LOLE4ISW44XBNF3G' },
          { answer: 'dnat-target', value: '10.96.1.3:8080' },
        ],
        failing: ['svc-chain-answer', 'dnat-answer'],
      },
    },
    {
      id: 'send',
      title: { 'zh-CN': '发一个包走一遍', en: 'Send a packet down the path' },
      body: {
        'zh-CN':
          '从 client 访问 hello（`kubectl get svc hello` 查它的 ClusterIP），在追踪视图里看这个 SYN 在 nat PREROUTING 经过的链：KUBE-SERVICES → KUBE-SVC → KUBE-SEP → DNAT。\n\n在“事件”里勾选“显示每一步”，KUBE-SERVICES 中没匹配的规则也会列出，并说明是哪个条件不成立；在“检查器”里打开一条规则，它会写出这条规则是 kube-proxy 为哪个 Service 端口写的，“在场景中显示”会选中那个 Service 的 YAML。',
        en: 'Call hello from the client (`kubectl get svc hello` shows its ClusterIP) and follow the SYN through nat PREROUTING in the trace: KUBE-SERVICES → KUBE-SVC → KUBE-SEP → DNAT.\n\nIn Events, tick “Every step”: the KUBE-SERVICES rules that did not match are listed too, each with the condition that failed. Open a rule in the Inspector: it names the Service port kube-proxy wrote it for, and “Show in scenario” selects that Service’s YAML.',
      },
      commands: [
        'node-1$ kubectl get svc hello',
        'pod/client$ curl -sS -m 2 http://hello.default.svc.cluster.local:8080/',
      ],
      checks: [
        {
          id: 'walked',
          kind: 'path',
          params: {
            from: 'pod/default/client',
            dst: 'vip:default/hello',
            chains: ['KUBE-SERVICES', 'KUBE-SVC-', 'KUBE-SEP-', 'DNAT'],
          },
          label: {
            'zh-CN': '一个发往 hello 的包依次经过了 KUBE-SERVICES、KUBE-SVC、KUBE-SEP 并被 DNAT',
            en: 'A packet to hello walked KUBE-SERVICES, KUBE-SVC, KUBE-SEP and was DNATed',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '需要一个真正发往 hello 的 ClusterIP 的连接。',
          en: 'You need a real connection to hello’s ClusterIP.',
        },
        {
          'zh-CN':
            '在 client 上用 curl，端口是 Service 的 port（8080），地址可以用 ClusterIP 或 DNS 名。',
          en: 'Use curl on the client, to the Service port (8080), by ClusterIP or DNS name.',
        },
        {
          'zh-CN':
            '运行 `pod/client$ curl -sS -m 2 http://hello.default.svc.cluster.local:8080/`，再到追踪视图里看 SYN 的路径。',
          en: '`pod/client$ curl -sS -m 2 http://hello.default.svc.cluster.local:8080/`',
        },
      ],
      solution: [{ run: 'pod/client$ curl -sS -m 2 http://hello.default.svc.cluster.local:8080/' }],
      takeaway: {
        'zh-CN':
          '注意 DNS 查询本身也是一次 Service 访问（发往 kube-dns 的 UDP 53），第 4 课会逐条跟踪它。',
        en: 'The DNS lookup itself is a Service call too (UDP 53 to kube-dns); lesson 4 follows it rule by rule.',
      },
    },
  ],
};
