/**
 * The comments of the lab's own scenario texts (the built-in scenario, the experiments under
 * scenarios/, the lessons' scenarios) in the learner's language. The YAML itself is never
 * translated: names, values and the line layout stay exactly as written, so a document that
 * runs in one language runs the same in the other, and an error names the same line:column.
 *
 * Only comments this table knows are swapped, each line on its own (a comment paragraph keeps
 * its line count), and only where YAML reads a comment: never inside a quoted scalar or a
 * block scalar. A learner's own comments stay as they wrote them.
 */
import type { Language } from './index';

/** English comment text (after `# `) → its zh-CN text. One line each, both ways unique. */
export const SCENARIO_COMMENTS_ZH: Readonly<Record<string, string>> = {
  // The built-in scenario, and the documents every experiment and lesson starts from.
  'A small cluster: two nodes, cluster DNS, a web app and a client pod.':
    '一个小集群：两个节点、集群 DNS、一个 web 应用和一个 client Pod。',
  "Each document below is ordinary Kubernetes YAML, except the first (the lab's own settings).":
    '下面每个文档都是普通的 Kubernetes YAML，第一个除外（实验室自己的设置）。',
  'Edit anything and re-apply: objects that still exist keep their addresses.':
    '随意修改后重新应用：仍然存在的对象保留原来的地址。',
  "The lab's settings: what no Kubernetes object holds.":
    '实验室自己的设置：这些内容不属于任何 Kubernetes 对象。',
  'seeds every random choice (e.g. which backend a packet gets)':
    '所有随机选择的种子（例如数据包分给哪个后端）',
  'kube-apiserver --service-cluster-ip-range': '即 kube-apiserver 的 --service-cluster-ip-range',
  "how long ago the cluster was created (kubectl's AGE column)":
    '集群创建于多久以前（kubectl 的 AGE 列）',
  "machines outside the cluster, on the nodes' network": '集群外的机器，与节点在同一网络',
  "kube-proxy's configuration (the same on every node).": 'kube-proxy 的配置（每个节点都一样）。',
  'or ipvs, nftables': '也可以是 ipvs、nftables',
  'the pod network: traffic from outside it gets masqueraded':
    'Pod 网段：来自网段之外的流量会被 SNAT（masquerade）',
  "The kubelet's configuration: how a pod can reach itself through a Service.":
    'kubelet 的配置：Pod 如何通过 Service 访问到自己（hairpin）。',
  'Two nodes. Each hands pod addresses out of its own podCIDR (cni0 takes the .1).':
    '两个节点。各自从自己的 podCIDR 给 Pod 分配地址（cni0 占用 .1）。',
  'eth0: the address other nodes and the laptop reach': 'eth0：其他节点和 laptop 访问的地址',
  "The API server's own Service. It has no selector: its endpoints are written by the":
    'API server 自己的 Service。它没有 selector：它的 endpoint 由',
  'API server itself (the EndpointSlice below), pointing at node-1:6443.':
    'API server 自己写入（见下面的 EndpointSlice），指向 node-1:6443。',
  'always the first address of the Service CIDR': '总是 Service 网段的第一个地址',
  "Cluster DNS. Every pod's /etc/resolv.conf points at 10.96.0.10.":
    '集群 DNS。每个 Pod 的 /etc/resolv.conf 都指向 10.96.0.10。',
  'DNS uses UDP and TCP on port 53: one Service port per protocol.':
    'DNS 在 53 端口上同时用 UDP 和 TCP：每种协议一个 Service 端口。',
  'CoreDNS, the pods behind kube-dns. Pinned to node-1 (nodeName) so they get':
    'CoreDNS，即 kube-dns 背后的 Pod。固定在 node-1（nodeName），因此它们得到',
  "10.244.0.2 and 10.244.0.3, the addresses the textbook's rule listings show.":
    '10.244.0.2 和 10.244.0.3，也就是教材的规则清单里的地址。',
  'A web app: three replicas, spread over the nodes by the scheduler.':
    '一个 web 应用：三个副本，由调度器分散到各节点。',
  'Services below refer to this port by name': '下面的 Service 按名字引用这个端口',
  "The web app inside the cluster: a virtual IP on port 80 → the pods' port 8080.":
    '集群内的 web 应用：虚拟 IP 的 80 端口 → Pod 的 8080 端口。',
  'no clusterIP given: the API server allocates one': '没有写 clusterIP：由 API server 分配',
  "The same pods from outside: port 30080 on every node's address.":
    '从集群外访问同一组 Pod：每个节点地址的 30080 端口。',
  'A pod to experiment from (curl, nslookup). It lands on node-1 at 10.244.0.5.':
    '用来做实验的 Pod（curl、nslookup）。它在 node-1 上，地址 10.244.0.5。',
  'A pod to experiment from. It lands on node-1 at 10.244.0.5.':
    '用来做实验的 Pod。它在 node-1 上，地址 10.244.0.5。',

  // The experiments (scenarios/*/scenario.yaml).
  "Built from the lab's built-in scenario (`kube-proxy-lab scenario`): the web Deployment":
    '由实验室的内置场景（`kube-proxy-lab scenario`）改成：web Deployment',
  'is replaced by three pinned Pods so that every address and node is known in advance.':
    '换成三个固定了节点的 Pod，每个地址、每个节点都事先可知。',
  'Three web pods pinned to nodes (nodeName), each with its own label so that a Service can':
    '三个固定了节点（nodeName）的 web Pod，各有自己的标签，让一个 Service 可以',
  'select exactly one of them: the backend choice becomes deterministic.':
    '只选中其中一个：后端的选择就是确定的了。',
  'Experiment: cross-node ClusterIP (client on node-1, only endpoint on node-2)':
    '实验：跨节点访问 ClusterIP（client 在 node-1，唯一的 endpoint 在 node-2）',
  "Only web-2, on node-2: whoever calls 10.96.1.10 always gets the other node's pod.":
    '只有 node-2 上的 web-2：访问 10.96.1.10 总是到达另一个节点上的 Pod。',
  'Experiment: same-node ClusterIP and net.bridge.bridge-nf-call-iptables':
    '实验：同节点访问 ClusterIP 与 net.bridge.bridge-nf-call-iptables',
  'Only web-1, on node-1 like the client: the same-node case.':
    '只有 web-1，和 client 同在 node-1：同节点的情形。',
  'All three pods: one on the client\'s node, two on node-2 ("works 2 times out of 3").':
    '全部三个 Pod：一个和 client 同节点，两个在 node-2（“3 次里通 2 次”）。',
  'Experiment: hairpin: a pod reaching itself through its own Service':
    '实验：hairpin——Pod 通过自己的 Service 访问自己',
  'Only web-1: when web-1 calls 10.96.1.11 it is always sent back to itself.':
    '只有 web-1：web-1 访问 10.96.1.11 时，总是被送回它自己。',
  'Experiment: NodePort from an external client: which source address the pod sees':
    '实验：外部客户端访问 NodePort——Pod 看到的源地址是什么',
  'NodePort 30081 reaches only web-1 (node-1), 30082 only web-2 (node-2).':
    'NodePort 30081 只到 web-1（node-1），30082 只到 web-2（node-2）。',
  'Experiment: externalTrafficPolicy: Local': '实验：externalTrafficPolicy 设为 Local',
  'Only web-2, on node-2: node-2 has a local endpoint, node-1 has none.':
    '只有 node-2 上的 web-2：node-2 有本地 endpoint，node-1 没有。',
  'Experiment: load distribution over three endpoints': '实验：三个 endpoint 之间的负载分配',
  'All three pods behind one ClusterIP.': '三个 Pod 都在同一个 ClusterIP 后面。',
  'Experiment: a rolling update under a long-lived TCP connection':
    '实验：TCP 长连接期间的滚动更新',
  'Experiment: flushing the conntrack table under live TCP connections':
    '实验：在 TCP 连接存活时清空 conntrack 表',
  "Built from the lab's built-in scenario (`kube-proxy-lab scenario`): a web Deployment with":
    '由实验室的内置场景（`kube-proxy-lab scenario`）改成：一个 web Deployment，',
  'three replicas behind the ClusterIP 10.96.1.1, and a client pod on node-1.':
    '三个副本在 ClusterIP 10.96.1.1 后面，另有一个在 node-1 上的 client Pod。',
  'The web app: three replicas, spread over the nodes by the scheduler. Its pods ignore':
    'web 应用：三个副本，由调度器分散到各节点。它的 Pod 不理会',
  "SIGTERM (like a container's PID 1 without a handler): deleted, they keep serving for the":
    'SIGTERM（就像没有信号处理函数的容器 1 号进程）：被删除后，在整个',
  'whole grace period (terminationGracePeriodSeconds, 30 s) and are then killed.':
    '宽限期（terminationGracePeriodSeconds，30 秒）内继续服务，然后被杀掉。',
  "Experiment: a UDP flow through a pod deletion, before and after kube-proxy's conntrack cleanup":
    '实验：Pod 被删除时的 UDP 流，kube-proxy 清理 conntrack 之前与之后',
  "Built from the lab's built-in scenario (`kube-proxy-lab scenario`): a UDP echo Deployment":
    '由实验室的内置场景（`kube-proxy-lab scenario`）改成：一个 UDP echo Deployment，',
  'with two replicas behind the ClusterIP 10.96.1.53, and a client pod on node-1.':
    '两个副本在 ClusterIP 10.96.1.53 后面，另有一个在 node-1 上的 client Pod。',
  'A UDP echo service (like a DNS server: one datagram in, one answer out). Each pod answers':
    'UDP echo 服务（像 DNS 服务器：收一个数据报，回一个应答）。每个 Pod 的应答',
  'with its own name, the address the datagram reached and the peer it came from. Deleted, a':
    '带上自己的名字、数据报到达的地址和发送方的地址。被删除后，',
  'pod keeps answering for its grace period (30 s), then it is killed.':
    'Pod 在宽限期（30 秒）内继续应答，然后被杀掉。',
  'Experiment: ping — ICMP echo to a pod on another node, then to a ClusterIP':
    '实验：ping——先向另一个节点上的 Pod 发 ICMP echo，再向一个 ClusterIP 发',
  "Experiment: your own iptables rules beside kube-proxy's (icmp, state, REDIRECT, NOTRACK, limit)":
    '实验：在 kube-proxy 的规则旁写自己的 iptables 规则（icmp、state、REDIRECT、NOTRACK、limit）',
  "A hostNetwork pod on node-1: it shares node-1's network namespace (and its hostname), so its":
    'node-1 上的一个 hostNetwork Pod：它与 node-1 共用网络命名空间（和主机名），所以它的',
  "server listens on node-1's own addresses, port 9100. REDIRECT (experiment 11) sends traffic":
    '服务监听在 node-1 自己的地址上，端口 9100。REDIRECT（实验 11）把发往',
  "for node-1's port 80 there.": 'node-1 80 端口的流量送到这里。',
  "server listens on node-1's own addresses, port 9100. The lesson's REDIRECT step sends":
    '服务监听在 node-1 自己的地址上，端口 9100。本课的 REDIRECT 步骤把发往 node-1 80 端口的',
  "traffic for node-1's port 80 there, as userspace mode sent Service traffic to its proxy.":
    '流量送到这里，就像 userspace 模式把 Service 流量送给自己的代理一样。',

  // The lessons' scenarios (src/lessons/*/scenario.yaml).
  "Lesson 1 / 第 1 课: which mode is kube-proxy in? The lab's default cluster.":
    '第 1 课：kube-proxy 工作在哪种模式？实验室的默认集群。',
  "Lesson 2 / 第 2 课: find your Service's rules. Add your Service at the end of this file.":
    '第 2 课：找到你的 Service 的规则。把你的 Service 加在本文件末尾。',
  'Lesson 3 / 第 3 课: random, not round robin. The Deployment web starts with 2 replicas.':
    '第 3 课：是随机，不是轮询。Deployment web 开始时有 2 个副本。',
  'A web app: two replicas to start with (lesson 3 asks you to make it three).':
    '一个 web 应用：开始时两个副本（第 3 课会让你改成三个）。',
  "Lesson 4 / 第 4 课: a DNS query's full path. client is 10.244.0.5; CoreDNS runs at 10.244.0.2 and 10.244.0.3.":
    '第 4 课：一次 DNS 查询的完整路径。client 是 10.244.0.5；CoreDNS 在 10.244.0.2 和 10.244.0.3。',
  'Lesson 5 / 第 5 课: NodePort from outside. The laptop (192.168.1.100) calls the nodes.':
    '第 5 课：从集群外访问 NodePort。laptop（192.168.1.100）访问各个节点。',
  'Lesson 6 / 第 6 课: conntrack, and why later packets skip the nat chains.':
    '第 6 课：conntrack，以及后续的数据包为什么跳过 nat 链。',
  'Lesson 7 / 第 7 课: a rolling update under a long-lived connection; a UDP flow through a pod deletion.':
    '第 7 课：长连接期间的滚动更新；Pod 被删除时的 UDP 流。',
  'Built from experiments 07 and 08: web (10.96.1.1, 3 replicas), echo (10.96.1.53:5353/UDP, 2 replicas), client on node-1.':
    '由实验 07 和 08 合成：web（10.96.1.1，3 个副本）、echo（10.96.1.53:5353/UDP，2 个副本），client 在 node-1。',
  'Lesson 8 / 第 8 课: iptables against IPVS, the same packet in both modes.':
    '第 8 课：iptables 与 IPVS 对比，同一个数据包在两种模式下。',
  'Lesson 9 / 第 9 课: the same-node bridge and net.bridge.bridge-nf-call-iptables.':
    '第 9 课：同节点网桥与 net.bridge.bridge-nf-call-iptables。',
  "client (10.244.0.5) and web-1 (10.244.0.4) share node-1's bridge cni0; web-2 and web-3 run on node-2.":
    'client（10.244.0.5）和 web-1（10.244.0.4）共用 node-1 的网桥 cni0；web-2 和 web-3 在 node-2 上。',
  'web-local (10.96.1.11) has only web-1; web (10.96.1.1) has all three.':
    'web-local（10.96.1.11）只有 web-1；web（10.96.1.1）有全部三个。',
  'Lesson 10 / 第 10 课: hairpin, a pod calling its own Service.':
    '第 10 课：hairpin，Pod 访问自己的 Service。',
  'Lesson 11 / 第 11 课: Service types: ExternalName, headless, LoadBalancer with source ranges.':
    '第 11 课：Service 的几种类型：ExternalName、headless、限制来源网段的 LoadBalancer。',
  'Lesson 12 / 第 12 课: userspace mode, as history (the lab runs iptables mode).':
    '第 12 课：userspace 模式，作为历史（实验室运行的是 iptables 模式）。',
};

const TO_ENGLISH: ReadonlyMap<string, string> = new Map(
  Object.entries(SCENARIO_COMMENTS_ZH).map(([en, zh]) => [zh, en]),
);
const TO_CHINESE: ReadonlyMap<string, string> = new Map(Object.entries(SCENARIO_COMMENTS_ZH));

/** `text` with every comment the table knows in `lang`; everything else exactly as it was. */
export function localizeScenario(text: string, lang: Language): string {
  const table = lang === 'zh-CN' ? TO_CHINESE : TO_ENGLISH;
  const lines = text.split('\n');
  let changed = false;
  eachComment(lines, (i, from, to) => {
    const line = lines[i]!;
    const other = table.get(line.slice(from, to));
    if (other === undefined) return;
    lines[i] = line.slice(0, from) + other + line.slice(to);
    changed = true;
  });
  return changed ? lines.join('\n') : text;
}

/** The text of every comment in `text` (after `#` and one space), in order. */
export function commentsIn(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  eachComment(lines, (i, from, to) => out.push(lines[i]!.slice(from, to)));
  return out;
}

/**
 * Calls `visit` with each comment's line and the range of its text: after `#` and at most one
 * space (the marker's), up to the end of the line without a CR.
 */
function eachComment(
  lines: readonly string[],
  visit: (line: number, from: number, to: number) => void,
): void {
  const reader = new CommentFinder();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = reader.commentStart(line);
    if (at < 0) continue;
    const from = line.charCodeAt(at + 1) === 0x20 ? at + 2 : at + 1;
    visit(i, from, line.endsWith('\r') ? line.length - 1 : line.length);
  }
}

/**
 * Where YAML would read a comment on each line, fed the lines in order: a `#` at the start of
 * a line or after a space or tab, outside quoted scalars (which may run over several lines)
 * and outside block scalars (`|`, `>`: every more-indented line after one is content).
 */
class CommentFinder {
  private quote: '' | "'" | '"' = '';
  /** The indentation of the line that opened a block scalar; -1 outside one. */
  private blockParent = -1;

  commentStart(line: string): number {
    const indent = line.length - line.trimStart().length;
    if (this.blockParent >= 0) {
      if (line.trim() === '' || indent > this.blockParent) return -1;
      this.blockParent = -1;
    }
    let comment = -1;
    let lastContent = -1;
    for (let i = 0; i < line.length && comment < 0; i++) {
      const c = line[i]!;
      if (this.quote === "'") {
        if (c === "'" && line[i + 1] === "'") i++;
        else if (c === "'") this.quote = '';
      } else if (this.quote === '"') {
        if (c === '\\') i++;
        else if (c === '"') this.quote = '';
      } else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
        comment = i;
        continue;
      } else if (c === "'" || c === '"') {
        // A quote opens a scalar only where one can start (after `: `, `- `, `[`, `,`…).
        const before = line.slice(0, i).trimEnd();
        if (before === '' || /[:\-[{,?]$/.test(before)) this.quote = c;
      }
      if (c !== ' ' && c !== '\t' && c !== '\r') lastContent = i;
    }
    if (this.quote === '') {
      const content = line.slice(0, lastContent + 1);
      if (/(^|\s)[|>][-+0-9]*$/.test(content)) this.blockParent = indent;
    }
    return comment;
  }
}
