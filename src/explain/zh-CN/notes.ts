/**
 * zh-CN texts of the lab's own notes in a terminal answer (the English ones are the engine's
 * LAB_NOTES; the worker names each note it finds in CommandAnswer.notes). Only these lines are
 * translated: a real tool's output stays exactly as the tool prints it. The first word (`lab:`,
 * `curl:`…) stays, as a terminal shows which program spoke. tests/ui/i18n.test.ts checks that
 * every note id has a text here with the same {parameters}.
 */
const COMMANDS =
  'iptables、iptables-save、iptables-restore、nft、ipvsadm、ipset、conntrack、ip、bridge、' +
  'sysctl、ss、tcpdump、xtables-monitor、curl、wget、nc、dig、nslookup、ping、kubectl、sleep、cat、' +
  'grep、head、tail、wc、echo、printf、seq、sort、uniq、cut、tr、awk、sed、test、true、false 和 lab';

const API_TYPES =
  'pods、services、endpoints、endpointslices、nodes、deployments、replicasets 和 configmaps';

export const LAB_NOTES_ZH: Readonly<Record<string, string>> = {
  'command.unmodelled': `lab: 实验台没有模拟 {command}；它能运行 ${COMMANDS}`,
  'file.unmodelled':
    'lab: 实验台没有模拟这台主机上的 {path}；它有 /etc/resolv.conf、Pod 的 /etc/hosts，以及节点上的 /proc/net/nf_conntrack、/proc/net/ip_vs_conn 和它所模拟 sysctl 的 /proc/sys/… 文件',
  'program.stopped':
    'lab: {program} 运行了 {minutes} 分钟（虚拟时间）仍未结束，实验台像按下 Ctrl-C 一样停止了它（退出状态 130）；用 {option} 设定时限',
  'shell.write':
    'lab shell: 不支持写入 {path}（只支持 /dev/null、2>&1，以及在节点上由非循环命令写入 /proc/sys/…）',
  'shell.compound':
    'lab shell: 不支持 `{keyword}`；支持 for、while、until 循环和 if（配合 test 或 [ … ]）',
  'kube-proxy.endpoint':
    'lab: kube-proxy 在这里提供 {path}；实验台没有模拟其中的内容（/proxyMode、/healthz 和 /livez 已模拟）',
  'kubectl.patch-refused': 'lab: API server 拒绝这个 patch（{reason}）；实验台没有模拟它的原话',
  'shell.loop-stopped':
    'lab: 循环运行了 {rounds} 轮、{seconds} 秒虚拟时间后仍未结束，实验台像按下 Ctrl-C 一样停止了它（退出码 130，这一行余下的命令不再运行；与 Ctrl-C 不同，管道中它后面的命令仍会读到它已写出的内容）；这里的循环最多运行 {max} 轮或 {minutes} 分钟',
  'shell.arithmetic':
    'lab shell: 实验台没有模拟这种算术；$((…)) 支持整数、变量、( )、+ - * / % **、比较、! && || 和 ?:',
  'shell.background': 'lab shell: 不支持后台任务（`&`）',
  'shell.brace-limit':
    'lab shell: 这里一行命令的花括号展开最多产生 {max} 个词；{word} 会产生更多，因此这一行没有运行',
  'shell.nesting':
    'lab shell: 这里循环、if 和 $(…) 最多嵌套 {max} 层；这一行嵌套得更深，因此实验台停止了它',
  'shell.parameter':
    'lab shell: 不支持 {form}；这里的 ${…} 支持对变量、$?、$#、$0 和 $1… 使用 -、=、+、?（可带 :）、#X、:偏移:长度、# ## % %%、/ // /# /%、^ ^^ , ,, 和 ~，但不支持数组、${!…} 间接引用、@ 运算符、$$、$! 和 $-',
  'shell.parameter-depth':
    'lab shell: 这里 ${…} 最多嵌套 {max} 层；这一行嵌套得更深，因此实验台没有运行它',
  'shell.arithmetic-depth':
    'lab shell: 这里 $((…)) 中的 ( )、一元运算符和 ** 最多嵌套 {max} 层；这个表达式嵌套得更深',
  'seq.limit': 'lab: 这里的 seq 最多输出 {max} 个数；seq {operands} 会输出更多',
  'ip.unmodelled':
    'lab: 实验台没有模拟 `ip {what}`（这里的 ip 只显示地址、链路、路由、策略规则和邻居表项，不修改它们）',
  'ip.no-host': 'lab: 这台主机不在实验台的拓扑中',
  'ip.neigh':
    'lab: `ip neigh` 列出实验台保存的 ARP 表项（节点 cni0 上的表项；Pod 对本子网中无人应答地址的表项）；局域网上的邻居和 Pod 已得到应答的邻居会立即解析、不被保存；表项按创建顺序列出，而不是内核的随机哈希顺序',
  'nft.option':
    'lab: 实验台没有模拟 nft {option}（这里的 nft 可列出规则集、表、链、集合与映射，支持 -a、-n 和 -s）',
  'ipvsadm.option':
    'lab: 实验台没有模拟 ipvsadm {option}（这里的 ipvsadm 可列出、添加、修改、删除和清空虚拟服务与真实服务器，并设置超时）',
  'nft.unmodelled':
    'lab: 实验台没有模拟 `nft {what}`（这里的 nft 只列出 kube-proxy 和 iptables-nft 写入的内容）',
  'awk.program':
    'lab: 这里的 awk 按 mawk 1.3.4 的方式运行 awk 语言（模式与范围、数组、循环、函数、字符串函数、从输入 getline、print > "/dev/stderr"）；没有模拟输出到文件或命令、从文件或命令 getline、system、rand、srand、close、fflush、ENVIRON、ARGV、换行以外的记录分隔符 RS，以及实验台读不懂的正则',
  'awk.runaway':
    'lab: awk 运行了 {steps} 步仍未结束，实验台像按下 Ctrl-C 一样停止了它（退出状态 130）',
  'tool.option': 'lab: 实验台没有模拟 {tool} -{option}',
  'sed.script':
    'lab: 这里的 sed 运行 s（标志 g、p、N、I）、y、p、d、q、Q、= 和 { }，地址可以是行号、$ 和 /正则/，支持范围和 !；没有模拟它的其他命令（a、i、c、n、N、保持空间、分支、文件）以及 -i、-f、-s、-z',
  'printf.conversion':
    'lab: 实验台没有模拟 printf %{conversion}；实验台的 printf 支持 %s、%b、%c、%d、%i、%o、%u、%x、%X 和 %%',
  'lab.usage': 'Usage: lab restore-input | lab sync | lab flow 动作 …',
  'lab.usage-restore': '  restore-input  kube-proxy 在本节点上最近一次交给 iptables-restore 的输入',
  'lab.usage-sync': '  sync           那次同步是全量还是增量，写入或删除了哪些链',
  'lab.usage-flow': '  flow           从本主机发起、长期保持的 TCP/UDP 连接（lab flow --help）',
  'flow.usage': 'Usage: lab flow open 名字 tcp|udp IP:端口',
  'flow.help': 'Flows: 本主机在多条命令之间一直保持打开的客户端套接字（长连接）：',
  'flow.help-open':
    '  open   连接 IP:端口（Service 的 ClusterIP、某个 Pod……）；TCP 会等待三次握手完成',
  'flow.help-send': '  send   写入 TEXT，并像客户端程序那样读出并打印应答：',
  'flow.help-send-tcp':
    '         TCP 在没有 TEXT 时发送 HTTP GET /（keep-alive），并打印应答正文；',
  'flow.help-send-udp':
    '         UDP 发送一个数据报（没有 TEXT 时为 "hello"），等待 -w 秒（默认 2）接收一个应答；',
  'flow.help-send-end':
    '         连接结束（对端关闭）或套接字错误（Connection refused……）按客户端看到的样子打印',
  'flow.help-close': '  close  关闭套接字（TCP 会发送 FIN）',
  'flow.help-list': '  list   本主机每个 flow 的 名字 协议 本端 -> 对端 状态',
  'flow.list-args': 'lab flow: list 不接受参数',
  'flow.action': 'lab flow: 未知的动作 "{action}"',
  'flow.name-needed': 'lab flow: {action}: 需要给出 flow 的名字',
  'flow.name-invalid': 'lab flow: 无效的 flow 名字 "{name}"',
  'flow.close-args': 'lab flow: close 只接受一个名字',
  'flow.proto': 'lab flow: open: 协议必须是 tcp 或 udp，而不是 "{proto}"',
  'flow.target': 'lab flow: open: 需要且只能给出一个 IP:端口',
  'flow.address': 'lab flow: open: "{target}" 不是 IPv4 地址加端口',
  'flow.wait': 'lab flow: send: -w 后面需要一个秒数',
  'flow.eof': 'lab flow: {name}: read: 连接已结束（对端关闭了连接）',
  'flow.read': 'lab flow: {name}: read: {error}',
  'flow.exists': 'lab flow: {name}: 已经有一个同名的 flow 处于打开状态（lab flow close {name}）',
  'flow.socket': 'lab flow: {name}: socket: {error}',
  'flow.connect': 'lab flow: {name}: 连接 {addr} 端口 {port}（{proto}）失败：{error}',
  'flow.none': 'lab flow: {name}: 没有这个 flow',
  'flow.write': 'lab flow: {name}: write: {error}',
  'flow.timeout': 'lab flow: {name}: {seconds} 秒内没有应答',
  'ss.filter': 'lab: 实验台没有模拟 ss 的过滤条件（{filter}）；请把 ss 的输出交给 grep 过滤',
  'ss.families':
    'lab: 实验台只模拟 TCP 和 UDP 套接字（ss -t、ss -u）；不列出 unix、raw、packet 和 netlink 套接字',
  'ss.keepalive':
    'lab: 实验台没有模拟 TCP keep-alive；在真实主机上，ss -o 会在 Go 服务器接受的连接上显示 keepalive 计时器',
  'ss.node':
    'lab: 真实节点上的套接字更多（容器运行时、sshd……）；实验台只模拟 API server、kubelet、kube-proxy 和它自己的程序',
  'xtables-monitor.trace':
    'lab: xtables-monitor 打印了这个节点启动以来的全部跟踪事件后停止，如同按下 Ctrl-C；实验台没有模拟 IP ID 和 DF 位（ID=0，没有 DF）',
  'xtables-monitor.events':
    'lab: 实验台没有模拟 xtables-monitor --event（规则集的变化）；--trace 已模拟',
  'xtables-monitor.mode':
    'lab: {mode} 模式下 kube-proxy 自己的 nftables 表在这里不被跟踪；实验台跟踪 iptables-nft 的表',
  'xtables-monitor.node-only': 'lab: 实验台只跟踪节点上的表；请在节点上运行 xtables-monitor',
  'ping.interval': 'lab: 实验台没有模拟小于 0.2 秒的 ping -i',
  'ping.unbounded': 'lab: 这里的 ping 同样会一直运行到按下 Ctrl-C；请给出 -c COUNT 或 -w DEADLINE',
  'ping.name': 'lab: ping 主机名时请加 -n（实验台没有反向 DNS）',
  'kube-proxy.node-only': 'lab: kube-proxy 只运行在节点上；请选择一个节点',
  'ipset.node-only': 'lab: ipset 只能在节点上运行',
  'ipset.inet6':
    'lab: 实验台只模拟 IPv4 节点，所以 ipset 只能创建 family inet 的集合；在真实节点上这条命令会创建一个 IPv6（family inet6）集合',
  'ipset.type-unmodelled': 'lab: 实验台没有模拟 ipset 集合类型 {type}；它模拟的类型有 {types}',
  'ipset.protocol-unmodelled':
    'lab: 实验台没有模拟协议为 {protocol} 的 ipset 元素；它模拟 tcp、udp 和 sctp 端口',
  'ipset.range-limit':
    'lab: {element} 包含 {count} 个地址；实验台在一条 ipset 命令中最多遍历 {max} 个',
  'sysctl.option': 'lab: 实验台没有模拟 sysctl {option}；实验台模拟的键有 {keys}',
  'sysctl.key': 'lab: 实验台没有模拟 {key}；实验台模拟的键有 {keys}',
  'sysctl.node-only': 'sysctl: 实验台只模拟节点的 sysctl；请在节点上运行',
  'sysctl.all': 'lab: sysctl -a 只列出实验台模拟的键；真实节点上有数百个',
  'kubectl.no-command':
    'lab: kubectl 需要一个子命令（get、describe、apply、scale、delete、rollout、version）',
  'kubectl.unmodelled': 'lab: 实验台没有模拟 `kubectl {what}`',
  'kubectl.exec-shell':
    'lab: 实验台没有模拟交互式 shell；请直接给出命令（kubectl exec POD -- curl …，或 sh -c "…"），或在 pod/NAMESPACE/NAME 行、终端的 Pod 主机上运行',
  'kubectl.exec-command': 'lab: `{command}` 不是实验台在 Pod 里能运行的命令',
  'kubectl.exec-type':
    'lab: 实验台没有模拟 kubectl exec {target}；请写出 Pod 名（kubectl get pods）',
  'kubectl.exec-container': 'lab: 这个 Pod 没有名为 {container} 的容器（它有 {containers}）',
  'kubectl.jsonpath':
    'lab: 实验台没有模拟这个 jsonpath；它支持 .field、[N]、[*]、[?(@.x=="v")]、range … end 和 "文本"',
  'kubectl.watch': 'lab: 实验台没有模拟 kubectl get --watch',
  'kubectl.output': 'lab: 实验台没有模拟 kubectl -o {format}',
  'kubectl.type': `lab: 实验台没有模拟 \`kubectl {verb} {type}\`（它的 API 提供 ${API_TYPES}）`,
  'kubectl.describe':
    'lab: 实验台没有模拟 `kubectl describe {type}`（可以试试 kubectl get {type} -o yaml）',
  'kubectl.revision-template': 'lab: 实验台没有保留 Deployment {name} 第 {revision} 版的 Pod 模板',
  'tcpdump.option': 'tcpdump: 实验台不支持：{option}',
  'tcpdump.interface': 'tcpdump: 实验台需要 -i IFACE（或 -i any）',
  'tcpdump.link-unknown':
    'lab: tcpdump 显示其中 {count} 个包时没有 -e 的 MAC 地址：收发它们的 Pod 已不存在，它的 MAC 也随之消失',
  'curl.option':
    'curl: 实验台的 curl 没有模拟 {option}（它支持 -s、-S、-v、-i、-I、-m、-o、-w、--connect-timeout）',
  'curl.output': 'curl: 实验台的 curl 只能写到标准输出或 /dev/null，不能写到 {path}',
  'curl.writeout': 'curl: 实验台的 curl 没有模拟 --write-out 中的 %{{variable}}',
  'curl.scheme': 'curl: (1) 实验台的 curl 只支持明文 HTTP（不支持 {scheme}）',
  'wget.option':
    'wget: 实验台的 wget 没有模拟 {option}（它支持 -q、-O、-S、-T、-t、-nv、-v、-U、--header、--spider）',
  'wget.scheme': 'wget: 实验台的 wget 只支持明文 HTTP（不支持 {scheme}）',
  'wget.urls': 'wget: 实验台的 wget 每条命令只下载一个 URL；请为每个 URL 各运行一次 wget',
  'wget.tries': "wget: 实验台的 wget 的 -t 只接受数字或 inf，不接受 '{value}'",
  'wget.rate':
    'lab: 实验台里数据包的传输不花时间，所以 wget 的传输用时为 0 秒：进度行显示 0s，速率是 wget 按零用时算出的值（真实的 wget 显示它实际测得的速率）',
  'wget.file':
    'lab: 实验台不保存文件，所以没有写出 {file}（wget -qO- URL 会打印页面）；再次运行 wget 仍保存为 {file}，而真实的 wget 会改用 {file}.1',
  'nc.option': 'nc: 实验台的 nc 没有模拟 -{option}（它支持 -z、-v、-u、-n、-w）',
  'nc.range': 'nc: 实验台的 nc 只接受一个端口，不接受端口范围（{ports}）',
  'dig.server':
    'dig: 实验台的 dig 只接受 IPv4 地址形式的服务器（@10.96.0.10），不会先解析名字：@{server}',
  'dig.option': 'dig: 实验台的 dig 没有模拟 {option}',
  'dig.unmodelled': 'lab: 实验台的 dig 没有模拟 {option}；本次按没有该选项运行',
  'dig.names': 'dig: 实验台的 dig 每条命令只查询一个名字（真实的 dig 会依次查询 {names}）',
  'dig.class':
    'dig: 实验台的 DNS 只有 IN 类（CoreDNS 的 kubernetes 区域是 IN 类）；没有模拟 {dnsClass}',
  'dig.ipv6': 'dig: kube-proxy-lab 的集群只有 IPv4；dig -6 没有可用的 IPv6 传输',
  'dig.type':
    'dig: 实验台的 DNS 报文只能携带 A、AAAA、CNAME、SOA、PTR、NS、TXT、SRV 和 ANY 类型的问题，不支持 {type}',
  'dig.srv':
    'lab: 这些 SRV 目标用端点 IP 的连字符形式命名端点（10-244-1-5.SVC.NS.svc.cluster.local.）：实验台忽略 Pod 的 spec.hostname/subdomain 和 EndpointSlice 的 hostname，而真实的 CoreDNS 在设置了它们时用它们作端点名',
  'nslookup.interactive': 'nslookup: 实验台的 nslookup 需要给出要查询的名字（没有交互模式）',
  'nslookup.server':
    'nslookup: 实验台的 nslookup 只接受 IPv4 地址形式的服务器（10.96.0.10），不会先解析名字：{server}',
  'nslookup.type':
    'nslookup: 实验台的 nslookup 只查询地址，不支持 -type={type}；查询其他类型的记录（SRV、PTR、SOA 等）请用 dig {type} NAME',
  'conntrack.option': 'conntrack: 实验台没有模拟 {options}',
  'conntrack.node-only': 'conntrack: 实验台只在节点上跟踪连接；请在节点上运行',
  'conntrack.stats-cpu':
    'lab: 真实节点在处理每个报文的那个 CPU 上计数；实验台把它们都计在 cpu=0 上。early_drop、search_restart、clash_resolve 和 chaintoolong 始终为 0：实验台没有模拟 nf_conntrack_max、并行的 CPU、UDP 冲突解决和哈希链',
  'iptables.match': 'lab: 实验台没有模拟 {name} 匹配',
  'iptables.target': 'lab: 实验台没有模拟 {name} 目标',
  'iptables.match-option': 'lab: 实验台没有模拟 {name} 匹配的 --{option}',
  'iptables.target-option': 'lab: 实验台没有模拟 {name} 目标的 --{option}',
  'iptables.save-file':
    'lab: iptables-save -f 会把规则写入 {path}，而实验台不保存文件；去掉 -f 即可把规则打印出来',
  'iptables.netmask': 'lab: 实验台没有模拟位不连续的网络掩码（{mask}），请给出前缀长度',
  'iptables.pod-rules':
    'lab: 这台主机自己的 iptables 规则会被保存和列出，但实验台只在节点上运行 netfilter：这些规则不会作用于它的报文',
  'sleep.infinite': "sleep: 实验台的虚拟时钟只能前进有限的时间（'{value}'）",
  'kubectl.grace-clock-end':
    'lab: 虚拟时钟止于 UTC 9999-12-31 23:59:59；{seconds} 秒的宽限期会在此之后才结束，因此没有删除任何对象',
  'kubectl.filename-url':
    'lab: kube-proxy-lab 不通过网络获取清单（{url}）；请把文件保存到实验台运行的地方，再把它的路径传给 -f',
  'kubectl.filename-unreadable':
    'lab: {path} 出现在目录列表中，但在实验台运行的地方无法读取，因此什么也没有发送',
  'kubectl.delete-kind':
    'lab: 实验台没有模拟用 `kubectl delete` 删除 {kind}；{name} 保持原样（实验台可以删除 Service、Deployment 和 Pod）',
  'terminal.no-host':
    'lab: 运行中的集群里没有主机 {host}（已被删除，或不在已应用的场景里）；请为这个终端选择其他主机',
  'sleep.clock-end':
    "lab: 虚拟时钟止于 UTC 9999-12-31 23:59:59；'sleep {value}' 会越过这一刻，时钟没有前进",
};
