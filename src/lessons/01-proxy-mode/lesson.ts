import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

export const lesson: Lesson = {
  id: '01-proxy-mode',
  number: 1,
  title: {
    'zh-CN': 'kube-proxy 工作在哪种模式',
    en: 'Which mode is kube-proxy in?',
  },
  goal: {
    'zh-CN':
      '从 kube-proxy 的 ConfigMap 读出它的工作模式，弄清每种模式下“谁在转发数据包”：iptables、IPVS、nftables 模式都由内核转发，只有早已废弃的 userspace 模式由 kube-proxy 进程自己转发。',
    en: 'Read kube-proxy’s mode from its ConfigMap and work out who forwards the packets in each mode: in iptables, IPVS and nftables modes the kernel does; only the long-removed userspace mode had the kube-proxy process forward them itself.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.1–7.2 节；《Kubernetes Service 原理》4.1 节',
    en: 'Chapter 7, sections 7.1–7.2; “Service principles”, section 4.1',
  },
  scenario,
  steps: [
    {
      id: 'read-mode',
      title: { 'zh-CN': '读出模式', en: 'Read the mode' },
      body: {
        'zh-CN':
          'kubeadm 搭建的集群把 kube-proxy 的配置（KubeProxyConfiguration）放在 kube-system 命名空间的 ConfigMap `kube-proxy` 里。`mode` 字段的含义：\n\n- `""`（空）或 `iptables`：iptables 模式（Linux 上的默认值）\n- `ipvs`：IPVS 模式\n- `nftables`：nftables 模式（较新的版本才有）',
        en: 'A kubeadm cluster keeps kube-proxy’s configuration (a KubeProxyConfiguration) in the ConfigMap `kube-proxy` in the kube-system namespace. What the `mode` field means:\n\n- `""` (empty) or `iptables`: iptables mode (the default on Linux)\n- `ipvs`: IPVS mode\n- `nftables`: nftables mode (newer releases only)',
      },
      predict: [
        {
          kind: 'choice',
          id: 'guess-mode',
          prompt: {
            'zh-CN': '没有特别配置的集群，你猜 kube-proxy 在哪种模式？',
            en: 'In a cluster nobody tuned, which mode do you expect?',
          },
          choices: [
            { text: { 'zh-CN': 'iptables', en: 'iptables' }, correct: true },
            { text: { 'zh-CN': 'ipvs', en: 'ipvs' } },
            { text: { 'zh-CN': 'userspace', en: 'userspace' } },
          ],
          reveal: {
            'zh-CN':
              'Linux 上默认是 iptables 模式。userspace 模式在 v1.26 被删除；IPVS 和 nftables 都要显式配置。',
            en: 'iptables is the default on Linux. userspace mode was removed in v1.26; IPVS and nftables have to be chosen explicitly.',
          },
        },
      ],
      commands: ['node-1$ kubectl get configmap kube-proxy -n kube-system -o yaml | grep mode'],
      ask: [
        {
          kind: 'value',
          id: 'mode',
          prompt: {
            'zh-CN': '这个集群的 kube-proxy 模式是？',
            en: 'Which mode is this cluster’s kube-proxy in?',
          },
          placeholder: 'iptables / ipvs / nftables',
          reveal: {
            'zh-CN':
              '`mode: iptables`：kube-proxy 把 Service 翻译成 nat 表里的 KUBE-* 链。配置里的 mode 为空时，Linux 上的 kube-proxy 也用 iptables；在节点上直接问它本身更可靠：`curl -s 127.0.0.1:10249/proxyMode`。',
            en: '`mode: iptables`: kube-proxy turns every Service into KUBE-* chains in the nat table. An empty mode in the configuration also means iptables on Linux; asking kube-proxy itself on a node is surer: `curl -s 127.0.0.1:10249/proxyMode`.',
          },
        },
      ],
      checks: [
        {
          id: 'mode-answer',
          kind: 'answer',
          params: { question: 'mode', value: 'kubeProxyMode' },
          label: { 'zh-CN': '答出了 kube-proxy 的模式', en: 'You named kube-proxy’s mode' },
        },
      ],
      hints: [
        {
          'zh-CN': '模式写在 kube-proxy 的配置里，而这份配置保存在集群中的一个 ConfigMap 里。',
          en: 'The mode is part of kube-proxy’s configuration, which the cluster keeps in a ConfigMap.',
        },
        {
          'zh-CN':
            '用 `kubectl get configmap` 查看 kube-system 命名空间里名为 kube-proxy 的 ConfigMap，输出很长，用 grep 过滤。',
          en: 'Use `kubectl get configmap` on the ConfigMap kube-proxy in kube-system; the output is long, so grep it.',
        },
        {
          'zh-CN':
            '`node-1$ kubectl get configmap kube-proxy -n kube-system -o yaml | grep mode`，把 `mode:` 后面的值填进去。',
          en: '`node-1$ kubectl get configmap kube-proxy -n kube-system -o yaml | grep mode`, and type the value after `mode:`.',
        },
      ],
      solution: [
        { run: 'node-1$ kubectl get configmap kube-proxy -n kube-system -o yaml | grep mode' },
        { answer: 'mode', value: 'iptables' },
      ],
      wrong: { actions: [{ answer: 'mode', value: 'ipvs' }], failing: ['mode-answer'] },
    },
    {
      id: 'who-forwards',
      title: { 'zh-CN': '谁在转发数据包', en: 'Who forwards the packets' },
      body: {
        'zh-CN':
          'iptables 模式下，kube-proxy 只负责“写规则”：它 watch Service 和 EndpointSlice，变化时把整套规则交给 `iptables-restore`。数据包到达时，由内核的 netfilter 按规则做 DNAT，kube-proxy 进程完全不参与。\n\n数一数 node-1 的 nat 表里有多少条 `KUBE-SVC-*` 链（每个 Service 端口一条）。然后让 client 访问 Service `web`，看内核留下的 conntrack 记录。',
        en: 'In iptables mode kube-proxy only writes rules: it watches Services and EndpointSlices and, on every change, hands the rules to `iptables-restore`. When a packet arrives, the kernel’s netfilter DNATs it by those rules; the kube-proxy process takes no part.\n\nCount the `KUBE-SVC-*` chains in node-1’s nat table (one per Service port). Then let the client call the Service `web` and look at the conntrack entry the kernel leaves behind.',
      },
      predict: [
        {
          kind: 'choice',
          id: 'who',
          prompt: {
            'zh-CN': 'iptables 模式下，client 发往 ClusterIP 的包由谁改写目的地址？',
            en: 'In iptables mode, who rewrites the destination of the client’s packet to the ClusterIP?',
          },
          choices: [
            { text: { 'zh-CN': 'kube-proxy 进程', en: 'The kube-proxy process' } },
            {
              text: {
                'zh-CN': '节点内核的 netfilter（nat 表的 DNAT）',
                en: 'The node kernel’s netfilter (DNAT in the nat table)',
              },
              correct: true,
            },
            { text: { 'zh-CN': 'CoreDNS', en: 'CoreDNS' } },
          ],
          reveal: {
            'zh-CN':
              '内核做 DNAT 并把映射记在 conntrack 表里。ClusterIP 不在任何网卡上，它只是规则里的一个匹配条件。',
            en: 'The kernel does the DNAT and records the mapping in its conntrack table. The ClusterIP is on no interface: it is only a match in the rules.',
          },
        },
      ],
      commands: [
        "node-1$ iptables -t nat -S | grep -c '^-N KUBE-SVC-'",
        'pod/client$ curl -sS -m 2 http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ],
      ask: [
        {
          kind: 'value',
          id: 'svc-chains',
          prompt: {
            'zh-CN': 'node-1 的 nat 表里有几条 KUBE-SVC-* 链？',
            en: 'How many KUBE-SVC-* chains does node-1’s nat table have?',
          },
          placeholder: '0',
          reveal: {
            'zh-CN':
              '每个有 endpoint 的 Service 端口一条：kubernetes:https、web、web-nodeport，以及 kube-dns 的 dns、dns-tcp、metrics 三个端口。',
            en: 'One per Service port that has endpoints: kubernetes:https, web, web-nodeport, and kube-dns’s three ports dns, dns-tcp and metrics.',
          },
        },
      ],
      checks: [
        {
          id: 'chain-count',
          kind: 'answer',
          params: { question: 'svc-chains', value: 'svcChainCount', node: 'node-1' },
          label: { 'zh-CN': '数对了 KUBE-SVC 链', en: 'You counted the KUBE-SVC chains' },
        },
        {
          id: 'kernel-dnat',
          kind: 'conntrack',
          params: {
            origSrc: 'pod:default/client',
            origDst: 'vip:default/web',
            replySrc: 'eps:default/web',
            dnat: true,
          },
          label: {
            'zh-CN': 'node-1 的内核为 client → web 的连接做了 DNAT（conntrack 里有记录）',
            en: 'node-1’s kernel DNATed a client → web connection (conntrack has it)',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '两件事：数链，和制造一条经过 Service 的连接。',
          en: 'Two things: count chains, and make one connection through the Service.',
        },
        {
          'zh-CN':
            '`iptables -t nat -S` 会把每条自定义链列成一行 `-N 链名`；连接可以用 client 上的 curl 制造。',
          en: '`iptables -t nat -S` lists each user chain as a `-N NAME` line; make the connection with curl on the client.',
        },
        {
          'zh-CN':
            "`node-1$ iptables -t nat -S | grep -c '^-N KUBE-SVC-'`，再 `pod/client$ curl -sS -m 2 http://10.96.1.1/`。",
          en: "`node-1$ iptables -t nat -S | grep -c '^-N KUBE-SVC-'`, then `pod/client$ curl -sS -m 2 http://10.96.1.1/`.",
        },
      ],
      solution: [
        {
          run: "node-1$ iptables -t nat -S | grep -c '^-N KUBE-SVC-'\npod/client$ curl -sS -m 2 http://10.96.1.1/\nnode-1$ conntrack -L -p tcp",
        },
        { answer: 'svc-chains', value: '6' },
      ],
      wrong: {
        actions: [{ answer: 'svc-chains', value: '4' }],
        failing: ['chain-count', 'kernel-dnat'],
      },
      takeaway: {
        'zh-CN':
          'IPVS 模式下，同样的 DNAT 由内核的 IPVS 模块完成（第 8 课）；nftables 模式则用 nft 规则。三者都是内核转发，kube-proxy 这个名字是 userspace 时代留下的（第 12 课）。',
        en: 'In IPVS mode the kernel’s IPVS module does the same DNAT (lesson 8); nftables mode uses nft rules. All three forward in the kernel; the name kube-proxy dates from the userspace era (lesson 12).',
      },
    },
  ],
};
