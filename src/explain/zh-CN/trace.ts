/**
 * zh-CN texts of the engine's trace explanation ids (the English texts come rendered from the
 * worker, see LabStep.text). tests/ui/i18n.test.ts checks that every id the engine can emit
 * has a text here with the same {parameters}.
 */
export const TRACE_MESSAGES_ZH: Readonly<Record<string, string>> = {
  'ipvs.schedule':
    'IPVS：{service}（{scheduler}）为新连接调度到真实服务器 {rs}（{fwd}）；IPVS 状态 {state}',
  'ipvs.persistent':
    'IPVS：{service} 是持久服务（ClientIP 亲和）：客户端的模板把它送到 {rs}；IPVS 状态 {state}',
  'ipvs.existing': 'IPVS：数据包属于到 {rs}（{fwd}）的连接；IPVS 状态 {state}',
  'ipvs.icmp':
    'IPVS：关于发往真实服务器 {rs} 的包的 ICMP 差错：源地址和内层目的地址还原为 {service}',
  'ipvs.reply': 'IPVS：来自真实服务器 {rs} 的回包：源地址还原为 {service}；IPVS 状态 {state}',
  'ipvs.no-destination': 'IPVS：{service} 没有可用的真实服务器：ICMP 端口不可达（ip_vs_leave）',
  'ipvs.expired': 'IPVS：真实服务器 {rs} 已不存在：expire_nodest_conn=1 结束其连接条目',
  'ipvs.drop': 'IPVS 丢弃该包：它的连接已没有真实服务器',
  'ipvs.route': 'IPVS 把改写后的包路由到 {dst}，并在 LOCAL_OUT 重新注入',
  'datapath.send': '{host} 发出数据包',
  'datapath.send.kernel': '{host} 的内核生成应答',
  'datapath.send.rst.other-peer':
    '{host} 的内核回复 RST：来自 {remote} 的段找不到套接字。{host} 在 {local} 上的套接字连接的是 {peer}，等的是从那里来的回包（tcp_v4_rcv → tcp_v4_send_reset；RFC 793：发给不存在的连接的段会收到 RST）。那个套接字根本看不到这个段：它仍处于 {state}',
  'datapath.send.rst.no-socket':
    '{host} 的内核回复 RST：从 {remote} 发往 {local} 的段找不到套接字（tcp_v4_rcv → tcp_v4_send_reset；RFC 793：发给不存在的连接的段会收到 RST）',
  'datapath.send.rst.bad-ack':
    '{host} 的内核回复 RST：它的套接字 {local} ↔ {remote} 处于 {state}，而这个段确认的是 {ack}，它从没发过这个序号（RFC 793：未同步状态下收到不可接受的 ACK 要回 RST）',
  'datapath.wire': '帧从 {from} 传到 {to}',
  'datapath.hook': '{host} 上的 netfilter 钩子 {hook}',
  'datapath.rule.matched': '{trace}：规则匹配',
  'datapath.rule.skipped': '{trace}：规则不匹配',
  'datapath.rule.skipped.source': '{trace}：规则不匹配：条件是 {condition}，而源地址是 {value}',
  'datapath.rule.skipped.destination':
    '{trace}：规则不匹配：条件是 {condition}，而目的地址是 {value}',
  'datapath.rule.skipped.in': "{trace}：规则不匹配：条件是 {condition}，而包从 '{value}' 进入",
  'datapath.rule.skipped.out': "{trace}：规则不匹配：条件是 {condition}，而包从 '{value}' 发出",
  'datapath.rule.skipped.protocol': '{trace}：规则不匹配：条件是 {condition}，而这个包是 {value}',
  'datapath.rule.skipped.sport': '{trace}：规则不匹配：条件是 {condition}，而源端口是 {value}',
  'datapath.rule.skipped.dport': '{trace}：规则不匹配：条件是 {condition}，而目的端口是 {value}',
  'datapath.rule.skipped.tcp-flags':
    '{trace}：规则不匹配：条件是 {condition}，而包的 TCP 标志是 {value}',
  'datapath.rule.skipped.ctstate': '{trace}：规则不匹配：条件是 {condition}，而连接状态是 {value}',
  'datapath.rule.skipped.mark': '{trace}：规则不匹配：条件是 {condition}，而包的 mark 是 {value}',
  'datapath.rule.skipped.random': '{trace}：规则不匹配：{condition}：这次随机抽取没有选中这条规则',
  'datapath.rule.skipped.other': '{trace}：规则不匹配：条件 {condition} 不成立',
  'datapath.policy': '{trace}：由链的默认策略决定',
  'datapath.route.local': '{dst} 是本机地址：本地交付（INPUT）',
  'datapath.route.forward': '{dst} 不是本机地址：按路由 {route} 转发',
  'datapath.route.output': '路由决定如何到达 {dst}',
  'datapath.route.rerouted': 'OUTPUT 中目的地址被改写：重新路由到 {dst}',
  'datapath.bridge.to-port':
    '网桥在 {port} 上收到发往另一端口的帧；net.bridge.bridge-nf-call-iptables 为 1，所以 br_netfilter 在桥接之前把它交给 iptables 和 conntrack：现在经过 PREROUTING，选定端口后再经过 FORWARD 和 POSTROUTING',
  'datapath.bridge.to-port.no-netfilter':
    '网桥在 {port} 上收到发往另一端口的帧，只在二层交换：net.bridge.bridge-nf-call-iptables 为 0，br_netfilter 既不把它交给 iptables（不经过 PREROUTING、FORWARD、POSTROUTING），也不交给 conntrack',
  'datapath.bridge.to-port.no-undnat':
    '网桥在 {port} 上收到发往另一端口的帧，只在二层交换：net.bridge.bridge-nf-call-iptables 为 0，br_netfilter 既不把它交给 iptables，也不交给 conntrack。{node} 的 conntrack 里记着它是发往 {service} 的连接的回包，但这张表没有被查：没有谁还原源地址，它仍是 {src}（没有反向 DNAT，即 un-DNAT）',
  'datapath.bridge.to-host': '帧的目的 MAC 是网桥自身：上送 IP 协议栈',
  'datapath.bridge.bridged-dnat': 'DNAT 后的地址在同一网桥后面：该帧被桥接而不是路由',
  'datapath.bridge.xmit': 'cni0 把数据包送往 {port} 后面的 Pod',
  'datapath.bridge.flood': 'cni0 的转发表（fdb）里没有目的 MAC：帧被泛洪到 {ports} 个端口',
  'datapath.neigh.queued':
    '{iface} 上 {ip} 的邻居表项是 {state}：数据包排队等待 ARP 应答（实验台不显示 ARP 帧）',
  'datapath.neigh.failed':
    '{iface} 上没有主机应答 {ip} 的 ARP（表项 FAILED）：节点回 ICMP host unreachable',
  'datapath.neigh.failed-local':
    '没有主机应答 Pod 对 {ip} 的 ARP（表项 FAILED）：Pod 自己的内核向发送方报告 ICMP host unreachable',
  'datapath.ct.new': 'conntrack：连接的第一个包，新建（未确认的）条目',
  'datapath.ct.hit': 'conntrack：数据包属于已知连接（{dir} 方向）',
  'datapath.ct.invalid': 'conntrack：没有与该包对应的连接（{reason}）',
  'datapath.ct.untracked':
    'conntrack：raw 表把这个包标记为不跟踪（NOTRACK）：不建条目，ctstate 为 UNTRACKED，也不做 NAT',
  'datapath.ct.killed': 'conntrack：条目被删除（唯一的应答是 RST）',
  'datapath.ct.confirmed': 'conntrack：条目已确认（conntrack -L 现在能列出它）',
  'datapath.ct.clash': 'conntrack：条目与另一条目冲突（{reason}）',
  'datapath.ct.unconfirmed-freed': '数据包在确认前被丢弃：其 conntrack 条目未被列出便消失',
  'datapath.nat.dnat': 'DNAT：在 {hook} 改写目的地址',
  'datapath.nat.snat': 'SNAT：在 {hook} 改写源地址',
  'datapath.nat.undnat': 'DNAT 连接的回包：在 {hook} 还原源地址',
  'datapath.nat.unsnat': 'SNAT 连接的回包：在 {hook} 还原目的地址',
  'datapath.nat.icmp': '关于已 NAT 连接的 ICMP 错误：在 {hook} 转换',
  'datapath.reject': 'REJECT（{with}）：数据包被丢弃，节点发回应答',
  'datapath.reject.no-answer': 'REJECT：内核对该包不发送应答',
  'datapath.delivered': '交付给 {host} 的套接字层',
  'datapath.delivered.tcp-socket':
    '交付给 {host}：tcp_v4_rcv 按四元组查找，找到套接字 {local} ↔ {remote}（{state}）',
  'datapath.delivered.tcp-listener':
    '交付给 {host}：没有连接匹配这个四元组，但有套接字在 {local} 上监听：这个 SYN 建立新连接（SYN_RECV）',
  'datapath.delivered.tcp-no-socket-rst':
    '交付给 {host}：tcp_v4_rcv 找不到 {remote} → {local} 的套接字；这个段本身就是 RST，而 RST 从不被回应：直接丢弃',
  'datapath.delivered.tcp-other-peer':
    '交付给 {host}，但 tcp_v4_rcv 找不到 {remote} → {local} 的套接字：{local} 上的套接字连接的是 {peer}（{state}），只接收来自 {peer} 的段，这个端口上也没有监听：内核回 RST（tcp_v4_send_reset）',
  'datapath.delivered.tcp-no-socket':
    '交付给 {host}，但 tcp_v4_rcv 找不到 {remote} → {local} 的套接字，端口 {port} 上也没有能接收它的监听套接字：内核回 RST（tcp_v4_send_reset）',
  'datapath.delivered.udp-connected':
    '交付给 {host}：__udp4_lib_lookup 找到 {local} 上连接到 {remote} 的套接字，由它接收这个数据报',
  'datapath.delivered.udp-socket':
    '交付给 {host}：__udp4_lib_lookup 找到绑定在 {local} 的套接字（未 connect：接收任何来源的数据报）',
  'datapath.delivered.udp-unexpected':
    '交付给 {host}：绑定在 {local} 的套接字未 connect，收下了这个数据报；但它发往的是 {expected}，而这个来自 {remote}：程序看到的是“来自意外来源的回答”',
  'datapath.delivered.udp-other-peer':
    '交付给 {host}，但 __udp4_lib_lookup 找不到 {remote} → {local} 的套接字：{local} 上的套接字连接的是 {peer}，只接收来自 {peer} 的数据报，这里也没有别的套接字绑定：内核回 ICMP 端口不可达',
  'datapath.delivered.udp-no-socket':
    '交付给 {host}，但没有套接字绑定在 {local}：内核向 {remote} 回 ICMP 端口不可达',
  'datapath.delivered.icmp-echo-request':
    '交付给 {host}：来自 {remote} 的回显请求，由内核自己回答（icmp_echo），不经过任何套接字',
  'datapath.delivered.icmp-echo-reply':
    '交付给 {host}：来自 {remote} 的回显应答，id {id}、seq {seq}：交给 ICMP 套接字 id 为 {id} 的 ping',
  'datapath.delivered.icmp-echo-reply-none':
    '交付给 {host}：来自 {remote} 的回显应答，id {id}，但本机（已）没有这个 id 的 ping：丢弃',
  'datapath.delivered.icmp-error-ping':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}：交给 id 为 {id} 的 ping，记一次错误',
  'datapath.delivered.icmp-error-ignored':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}，但没有连接到那里的套接字发过它（未 connect 的套接字只有开了 IP_RECVERR 才收到 ICMP 错误）：忽略',
  'datapath.delivered.icmp-error-udp':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}：连接到那里的 UDP 套接字记下 {errno}，它的下一次发送或接收会返回这个错误',
  'datapath.delivered.icmp-error-udp-soft':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}：这是软错误（{errno}），已连接的 UDP 套接字只有开了 IP_RECVERR 才报告：忽略',
  'datapath.delivered.icmp-error-tcp-abort':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}：TCP 套接字还在建立连接（{state}），tcp_v4_err 以 {errno} 中止它',
  'datapath.delivered.icmp-error-tcp-soft':
    '交付给 {host}：来自 {remote} 的 ICMP {error}，引用的是 {quoted}：连接处于 {state}，tcp_v4_err 把 {errno} 记为软错误，只在连接超时时报告',
  'datapath.drop.netfilter': '在 {hook} 的 {table} 表中被丢弃',
  'datapath.drop.hairpin': '网桥不会把帧从 {port} 原路发回（hairpin 关闭）：静默丢弃',
  'datapath.drop.martian': '{iface} 上的火星源地址 {src}：{detail}',
  'datapath.drop.not-local': '{dst} 不是 {host} 的地址，且该主机不转发',
  'datapath.drop.no-route': '没有到 {dst} 的路由',
  'datapath.drop.no-host': '实验中没有这台主机',
  'datapath.drop.no-port': '网桥端口 {port} 后面没有 Pod',
  'datapath.drop.forwarding-off': 'net.ipv4.ip_forward 为 0：不转发',
  'datapath.drop.neighbour': '{iface} 上没有主机应答 {ip} 的 ARP',
  'datapath.drop.otherhost': '帧不是发给本机 MAC 的（泛洪的副本）：协议栈丢弃（PACKET_OTHERHOST）',
  'datapath.drop.left-lab': '发给局域网路由器 {via}，离开了实验环境',
  'datapath.drop.ttl': 'TTL 超时',
  'datapath.drop.masquerade-no-address': 'MASQUERADE：{iface} 没有地址',
  'datapath.drop.redirect-no-address': 'REDIRECT：{iface} 没有可重定向到的地址',
  'datapath.drop.nat': 'NAT 设置失败：{reason}',
  'datapath.drop.loop': '数据包在环路中打转',
  'datapath.nft.matched': 'nft {table} {chain}：规则匹配（{outcome}）',
  'datapath.nft.skipped': 'nft {table} {chain}：规则不匹配',
  'datapath.nft.skipped.source':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而源地址是 {value}',
  'datapath.nft.skipped.destination':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而目的地址是 {value}',
  'datapath.nft.skipped.in':
    "nft {table} {chain}：规则不匹配：条件是 {condition}，而包从 '{value}' 进入",
  'datapath.nft.skipped.out':
    "nft {table} {chain}：规则不匹配：条件是 {condition}，而包从 '{value}' 发出",
  'datapath.nft.skipped.protocol':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而这个包是 {value}',
  'datapath.nft.skipped.dport':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而目的端口是 {value}',
  'datapath.nft.skipped.ctstate':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而连接状态是 {value}',
  'datapath.nft.skipped.mark':
    'nft {table} {chain}：规则不匹配：条件是 {condition}，而包的 mark 是 {value}',
  'datapath.nft.skipped.other': 'nft {table} {chain}：规则不匹配：条件 {condition} 不成立',
  'datapath.nft.lookup-hit': 'nft {table} {chain}：{key} 在 @{set} 中：{outcome}',
  'datapath.nft.lookup-miss': 'nft {table} {chain}：{key} 不在 @{set} 中，看下一条规则',
  'datapath.nft.numgen': 'nft {table} {chain}：numgen random 抽到 {key}：{outcome}',
  'datapath.drop.nft': '在 {hook} 被 nft {table} 的链 {chain} 丢弃',
  'kube-proxy.conntrack.cleanup':
    '{node} 上的 kube-proxy 删除一条 UDP conntrack 条目：其后端已不是该 Service 的可用端点',
};
