import type { Lesson } from '../types';
import scenario from './scenario.yaml?raw';

/** The edit: the web Deployment's replicas (the coredns Deployment has `replicas: 2` too). */
const SCALE = {
  replace: '  replicas: 2\n  selector:\n    matchLabels:\n      app: web',
  with: '  replicas: 3\n  selector:\n    matchLabels:\n      app: web',
};

const CURL = 'pod/client$ curl -sS -m 2 http://10.96.1.1/';
const CURL_LOOP = 'pod/client$ for i in $(seq 300); do curl -sS -m 2 http://10.96.1.1/; done';

export const lesson: Lesson = {
  id: '03-random-not-round-robin',
  number: 3,
  title: { 'zh-CN': '是随机，不是轮询', en: 'Random, not round robin' },
  goal: {
    'zh-CN':
      '读懂 KUBE-SVC 链里的 `statistic mode random probability` 阶梯：2 个 endpoint 时是 0.5 / 兜底，3 个时是 0.333 / 0.5 / 兜底；再发 300 条连接，从直方图里看出这是随机分配而不是轮询。',
    en: 'Read the `statistic mode random probability` ladder in a KUBE-SVC chain: with 2 endpoints 0.5 then the fall-through rule, with 3 endpoints 0.333, 0.5, then the fall-through; then send 300 connections and see in the histogram that the split is random, not round robin.',
  },
  textbook: {
    'zh-CN': '第 7 章 7.3 节“负载均衡算法：随机”；《Kubernetes Service 原理》7.2 节',
    en: 'Chapter 7, section 7.3, “load balancing: random”; “Service principles”, section 7.2',
  },
  scenario,
  steps: [
    {
      id: 'two',
      title: { 'zh-CN': '两个 endpoint', en: 'Two endpoints' },
      body: {
        'zh-CN':
          'Deployment `web` 现在有 2 个副本，Service `web`（10.96.1.1）因此有 2 个 endpoint。列出它的 KUBE-SVC 链。',
        en: 'The Deployment `web` has 2 replicas now, so the Service `web` (10.96.1.1) has 2 endpoints. List its KUBE-SVC chain.',
      },
      commands: ["node-1$ iptables -t nat -S | grep 'default/web ->'"],
      ask: [
        {
          kind: 'value',
          id: 'p-two',
          prompt: {
            'zh-CN': '第一条 KUBE-SEP 跳转规则上的 probability 是多少（照抄输出）？',
            en: 'What probability does the first KUBE-SEP jump show (copy it from the output)?',
          },
          placeholder: '0.…',
          reveal: {
            'zh-CN':
              'kube-proxy 写入的是 `0.5000000000`（1/n，保留 10 位小数）；内核把它存成 31 位定点数，`iptables -S` 再按 11 位小数打印为 `0.50000000000`。最后一条规则没有 statistic 条件：走到它的包全部命中。',
            en: 'kube-proxy writes `0.5000000000` (1/n, 10 decimals); the kernel stores it as a 31-bit fixed-point fraction, which `iptables -S` prints with 11 decimals: `0.50000000000`. The last rule has no statistic match: every packet that reaches it takes it.',
          },
        },
      ],
      checks: [
        {
          id: 'p-two-answer',
          kind: 'answer',
          params: { question: 'p-two', value: 'firstProbability', service: 'default/web' },
          label: {
            'zh-CN': '读对了两个 endpoint 时的概率',
            en: 'You read the probability for two endpoints',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '概率写在 Service 的 KUBE-SVC 链里，每条跳到 KUBE-SEP 的规则一个。',
          en: 'The probability sits in the Service’s KUBE-SVC chain, one per rule that jumps to a KUBE-SEP.',
        },
        {
          'zh-CN': '这些规则的注释形如 `default/web -> IP:端口`，可以用 grep 把它们挑出来。',
          en: 'Those rules are commented `default/web -> IP:port`; grep for that.',
        },
        {
          'zh-CN':
            "`node-1$ iptables -t nat -S | grep 'default/web ->'`，抄下 `--probability` 后面的数。",
          en: "`node-1$ iptables -t nat -S | grep 'default/web ->'`, and copy the number after `--probability`.",
        },
      ],
      solution: [
        { run: "node-1$ iptables -t nat -S | grep 'default/web ->'" },
        { answer: 'p-two', value: '0.50000000000' },
      ],
      wrong: { actions: [{ answer: 'p-two', value: '0.333' }], failing: ['p-two-answer'] },
    },
    {
      id: 'three',
      title: { 'zh-CN': '扩到三个', en: 'Scale to three' },
      body: {
        'zh-CN':
          '在编辑器里把 Deployment `web` 的 `replicas` 改成 3 并应用。kube-proxy 看到 EndpointSlice 变化后重写 KUBE-SVC 链。',
        en: 'In the editor, set the Deployment `web` to `replicas: 3` and apply. kube-proxy sees the EndpointSlice change and rewrites the KUBE-SVC chain.',
      },
      edit: SCALE,
      predict: [
        {
          kind: 'choice',
          id: 'ladder',
          prompt: {
            'zh-CN': '三个 endpoint 时，三条规则上的概率依次是？',
            en: 'With three endpoints, what are the probabilities on the three rules?',
          },
          choices: [
            { text: { 'zh-CN': '0.333、0.333、0.333', en: '0.333, 0.333, 0.333' } },
            {
              text: { 'zh-CN': '0.333、0.5、（无条件）', en: '0.333, 0.5, (none)' },
              correct: true,
            },
            { text: { 'zh-CN': '0.5、0.5、（无条件）', en: '0.5, 0.5, (none)' } },
          ],
          reveal: {
            'zh-CN':
              '规则是依次尝试的：第一条以 1/3 命中；没命中的 2/3 来到第二条，以 1/2 命中，即总体 2/3 × 1/2 = 1/3；剩下的 1/3 全部落到最后一条。每个 endpoint 都是 1/3。',
            en: 'The rules are tried in turn: the first matches 1/3 of new connections; the 2/3 that fall through meet the second, which takes 1/2 of them, 2/3 × 1/2 = 1/3 overall; the remaining 1/3 all land on the last. Each endpoint gets 1/3.',
          },
        },
      ],
      commands: [
        'node-1$ kubectl get endpointslices',
        "node-1$ iptables -t nat -S | grep 'default/web ->'",
      ],
      ask: [
        {
          kind: 'value',
          id: 'p-three',
          prompt: {
            'zh-CN': '现在第一条规则上的 probability 是多少（照抄输出）？',
            en: 'What probability does the first rule show now (copy it)?',
          },
          placeholder: '0.…',
          reveal: {
            'zh-CN':
              '`0.33333333349`：kube-proxy 写的是 `0.3333333333`，内核的 31 位定点数还原回来就变成了这个值。',
            en: '`0.33333333349`: kube-proxy wrote `0.3333333333`; read back from the kernel’s 31-bit fixed point it prints as this.',
          },
        },
      ],
      checks: [
        {
          id: 'three-ready',
          kind: 'endpoints',
          params: { service: 'default/web', ready: 3 },
          label: {
            'zh-CN': 'Service web 有 3 个就绪 endpoint',
            en: 'Service web has three ready endpoints',
          },
        },
        {
          id: 'p-three-answer',
          kind: 'answer',
          params: { question: 'p-three', value: 'firstProbability', service: 'default/web' },
          label: {
            'zh-CN': '读对了三个 endpoint 时的第一个概率',
            en: 'You read the first probability for three endpoints',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '副本数在 Deployment 的 spec 里。',
          en: 'The replica count is in the Deployment’s spec.',
        },
        {
          'zh-CN':
            '在编辑器里找到 `kind: Deployment`、`name: web` 的文档，改 `replicas`，应用后重新列出规则。',
          en: 'Find the document `kind: Deployment`, `name: web` in the editor, change `replicas`, apply, and list the rules again.',
        },
        {
          'zh-CN':
            "`replicas: 3`；然后 `node-1$ iptables -t nat -S | grep 'default/web ->'`，抄第一行的 `--probability`。",
          en: "`replicas: 3`; then `node-1$ iptables -t nat -S | grep 'default/web ->'` and copy the first line’s `--probability`.",
        },
      ],
      solution: [
        SCALE,
        { run: "node-1$ iptables -t nat -S | grep 'default/web ->'" },
        { answer: 'p-three', value: '0.33333333349' },
      ],
      wrong: {
        actions: [{ answer: 'p-three', value: '0.333' }],
        failing: ['three-ready', 'p-three-answer'],
      },
    },
    {
      id: 'histogram',
      title: { 'zh-CN': '300 条连接', en: '300 connections' },
      body: {
        'zh-CN':
          "从 client 向 10.96.1.1 发 300 条新连接（面板上的按钮一次发完；也可以在终端里用循环：for i in $(seq 300); do curl -s 10.96.1.1; done | cut -d' ' -f1 | sort | uniq -c）。每条新连接的第一个包都独立掷一次骰子；conntrack 记住结果，这条连接后续的包都去同一个 Pod。然后数每个 Pod 得到的连接数。",
        en: "Send 300 new connections from the client to 10.96.1.1 (the panel’s button sends them all; or, in the terminal, a loop: for i in $(seq 300); do curl -s 10.96.1.1; done | cut -d' ' -f1 | sort | uniq -c). The first packet of each new connection rolls the dice on its own; conntrack remembers the result, so the rest of that connection goes to the same pod. Then count the connections each pod got.",
      },
      predict: [
        {
          kind: 'choice',
          id: 'exact',
          prompt: {
            'zh-CN': '每个 Pod 会恰好得到 100 条吗？',
            en: 'Will each pod get exactly 100?',
          },
          choices: [
            { text: { 'zh-CN': '会，恰好 100、100、100', en: 'Yes, exactly 100, 100, 100' } },
            {
              text: { 'zh-CN': '大约各 100，但有起伏', en: 'About 100 each, give or take' },
              correct: true,
            },
          ],
          reveal: {
            'zh-CN':
              '轮询会给出恰好 100/100/100；随机选择只保证期望相等，每个 Pod 的数目大约在 100 上下浮动（标准差约 8）。IPVS 的 rr 调度才是真正的轮询（第 8 课）。',
            en: 'Round robin would give exactly 100/100/100; a random pick only makes the expectations equal, so each count wanders around 100 (standard deviation about 8). IPVS’s rr scheduler is real round robin (lesson 8).',
          },
        },
      ],
      batch: { command: CURL, times: 300 },
      commands: [CURL, "node-1$ conntrack -L -p tcp | grep -c 'dst=10.96.1.1 '"],
      checks: [
        {
          id: 'spread',
          kind: 'spread',
          params: { service: 'default/web', total: 300, endpoints: 3, minEach: 60 },
          label: {
            'zh-CN': '至少 300 条连接经过 web，三个 Pod 都分到了',
            en: 'At least 300 connections went through web, and all three pods got some',
          },
        },
      ],
      hints: [
        {
          'zh-CN': '需要很多条新连接，统计才有意义。',
          en: 'You need many new connections for the counts to mean anything.',
        },
        {
          'zh-CN': '用面板上的“发送 300 次”按钮，它会在 client 上运行 300 次 curl。',
          en: 'Use the panel’s “send 300” button: it runs curl 300 times on the client.',
        },
        {
          'zh-CN':
            '发完后 `node-1$ conntrack -L -p tcp | grep -c src=<Pod IP>` 可以逐个数；面板会画出直方图。',
          en: 'Afterwards `node-1$ conntrack -L -p tcp | grep -c src=<pod IP>` counts them one by one; the panel draws the histogram.',
        },
      ],
      // One terminal line: the loop, and the answers counted per pod.
      solution: [{ run: `${CURL_LOOP} | cut -d' ' -f1 | sort | uniq -c` }],
      wrong: {
        actions: [{ run: Array.from({ length: 30 }, () => CURL).join('\n') }],
        failing: ['spread'],
      },
    },
  ],
};
