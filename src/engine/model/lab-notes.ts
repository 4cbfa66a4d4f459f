/**
 * The lab's own notes in a transcript: lines a real node would not print, where the lab says
 * what it does not model or what it did in the user's stead (`lab: ss is not modelled…`,
 * `curl: the lab's curl does not model --cacert…`). Every such line comes from this catalogue,
 * so the web lab can show it in zh-CN: the worker finds the notes in a command's output
 * (readLabNotes) and the UI renders the same id with the same parameters in the user's
 * language. The CLI prints the English text as it is.
 *
 * A template is one whole line; `{name}` is a parameter. Real tools' own messages are never
 * here: they stay as the tool prints them, in every language.
 */

/** The commands the lab runs (the note for a real command it does not run lists them). */
const COMMANDS =
  'iptables, iptables-save, iptables-restore, nft, ipvsadm, ipset, conntrack, ip, bridge, ' +
  'sysctl, ss, tcpdump, xtables-monitor, curl, wget, nc, dig, nslookup, ping, kubectl, sleep, cat, ' +
  'grep, head, tail, wc, echo, printf, seq, sort, uniq, cut, tr, awk, sed, test, true, false and lab';

export const LAB_NOTES = {
  'command.unmodelled': `lab: {command} is not modelled in kube-proxy-lab; it runs ${COMMANDS}`,
  'file.unmodelled':
    "lab: {path} is not modelled on this host; the lab has /etc/resolv.conf, a pod's /etc/hosts, and on nodes /proc/net/nf_conntrack, /proc/net/ip_vs_conn and the /proc/sys/… files of the sysctls it models",
  'program.stopped':
    'lab: {program} was still running after {minutes} minutes (virtual time), so the lab stopped it as Ctrl-C would (exit status 130); give {option} to set a limit',
  'shell.write':
    "lab shell: writing to {path} is not supported (only /dev/null, 2>&1, and a node's /proc/sys/… from a command that is not a loop)",
  'shell.compound':
    'lab shell: `{keyword}` is not supported; it runs for, while and until loops and if (with test or [ … ])',
  'kube-proxy.endpoint':
    'lab: kube-proxy serves {path} here; the lab does not model what it holds (/proxyMode, /healthz and /livez it does)',
  'kubectl.patch-refused':
    'lab: the API server refuses this patch ({reason}); the lab does not model its exact words',
  'shell.loop-stopped':
    'lab: the loop was still running after {rounds} rounds and {seconds} s of virtual time, so the lab stopped it as Ctrl-C would (exit status 130, the rest of the line not run; unlike Ctrl-C, commands after it in a pipeline still get what it wrote); a loop here runs at most {max} rounds or {minutes} minutes',
  'shell.arithmetic':
    'lab shell: this arithmetic is not modelled; $((…)) has integers, variables, ( ), + - * / % **, comparisons, ! && || and ?:',
  'shell.background': 'lab shell: background jobs (`&`) are not supported',
  'shell.brace-limit':
    'lab shell: brace expansion here makes at most {max} words on a line; {word} would make more, so the line did not run',
  'shell.nesting':
    'lab shell: loops, if and $(…) nest at most {max} deep here; this line nests deeper, so the lab stopped it',
  'shell.parameter':
    'lab shell: {form} is not supported; its ${…} has -, =, +, ? (with or without :), #X, :offset:length, # ## % %%, / // /# /%, ^ ^^ , ,, and ~ on variables, $?, $#, $0 and $1…, but no arrays, ${!…} indirection, @ operators, $$, $! or $-',
  'shell.parameter-depth':
    'lab shell: ${…} nests at most {max} deep here; this line nests deeper, so the lab did not run it',
  'shell.arithmetic-depth':
    'lab shell: ( ), unary operators and ** nest at most {max} deep in $((…)) here; this expression nests deeper',
  'seq.limit': 'lab: seq here prints at most {max} numbers; seq {operands} would print more',
  'ip.unmodelled':
    'lab: `ip {what}` is not modelled in kube-proxy-lab (its ip shows addresses, links, routes, rules and neighbours, and changes none of them)',
  'ip.no-host': 'lab: this host is not in the lab topology',
  'ip.neigh':
    "lab: `ip neigh` lists the ARP entries the lab keeps (a node's on cni0; a pod's for unanswered addresses of its subnet); LAN neighbours and a pod's answered ones resolve at once and are not kept; entries come in the order they were made, not the kernel's random hash order",
  'nft.option':
    'lab: nft {option} is not modelled in kube-proxy-lab (its nft lists rulesets, tables, chains, sets and maps, with -a, -n and -s)',
  'ipvsadm.option':
    'lab: ipvsadm {option} is not modelled in kube-proxy-lab (its ipvsadm lists, adds, edits, deletes and clears services and servers, and sets timeouts)',
  'nft.unmodelled':
    'lab: `nft {what}` is not modelled in kube-proxy-lab (nft here lists what kube-proxy and iptables-nft made)',
  'awk.program':
    'lab: awk here runs the awk language as mawk 1.3.4 does (patterns and ranges, arrays, loops, functions, the string functions, getline from the input, print > "/dev/stderr"); output to files or commands, getline from them, system, rand, srand, close, fflush, ENVIRON, ARGV, a record separator RS other than a newline and regexes the lab cannot read are not modelled',
  'awk.runaway':
    'lab: awk was still running after {steps} steps, so the lab stopped it as Ctrl-C would (exit status 130)',
  'tool.option': 'lab: {tool} -{option} is not modelled in kube-proxy-lab',
  'sed.script':
    'lab: sed here runs s (flags g, p, N, I), y, p, d, q, Q, = and { } with line, $ and /regex/ addresses, ranges and !; its other commands (a, i, c, n, N, hold space, branches, files) and -i, -f, -s, -z are not modelled',
  'printf.conversion':
    "lab: printf %{conversion} is not modelled; the lab's printf has %s, %b, %c, %d, %i, %o, %u, %x, %X and %%",
  'lab.usage': 'Usage: lab restore-input | lab sync | lab flow ACTION …',
  'lab.usage-restore':
    '  restore-input  the input kube-proxy last piped to iptables-restore on this node',
  'lab.usage-sync':
    '  sync           whether that sync was full or partial, and which chains it wrote or deleted',
  'lab.usage-flow':
    '  flow           named long-lived TCP/UDP flows from this host (lab flow --help)',
  'flow.usage': 'Usage: lab flow open NAME tcp|udp IP:PORT',
  'flow.help':
    'Flows: client sockets this host keeps open across commands (long-lived connections):',
  'flow.help-open':
    "  open   connect to IP:PORT (a Service's ClusterIP, a pod…); TCP waits for the handshake",
  'flow.help-send': '  send   write TEXT and print the answer as the client program reads it:',
  'flow.help-send-tcp':
    '         TCP sends an HTTP GET / (keep-alive) when TEXT is absent and prints the body;',
  'flow.help-send-udp':
    '         UDP sends one datagram ("hello" when TEXT is absent), waits -w SECONDS (2) for one;',
  'flow.help-send-end':
    "         the end of stream or the socket's error (Connection refused…) is printed as it comes",
  'flow.help-close': '  close  close the socket (TCP sends its FIN)',
  'flow.help-list': '  list   NAME PROTO LOCAL -> REMOTE STATE of each flow of this host',
  'flow.list-args': 'lab flow: list takes no arguments',
  'flow.action': 'lab flow: unknown action "{action}"',
  'flow.name-needed': 'lab flow: {action}: a flow NAME is needed',
  'flow.name-invalid': 'lab flow: invalid flow name "{name}"',
  'flow.close-args': 'lab flow: close takes one NAME',
  'flow.proto': 'lab flow: open: protocol must be tcp or udp, not "{proto}"',
  'flow.target': 'lab flow: open: one IP:PORT is needed',
  'flow.address': 'lab flow: open: "{target}" is not an IPv4 address and port',
  'flow.wait': 'lab flow: send: -w needs a number of seconds',
  'flow.eof': 'lab flow: {name}: read: end of stream (the peer closed the connection)',
  'flow.read': 'lab flow: {name}: read: {error}',
  'flow.exists': 'lab flow: {name}: a flow with this name is open (lab flow close {name})',
  'flow.socket': 'lab flow: {name}: socket: {error}',
  'flow.connect': 'lab flow: {name}: connect to {addr} port {port} ({proto}) failed: {error}',
  'flow.none': 'lab flow: {name}: no such flow',
  'flow.write': 'lab flow: {name}: write: {error}',
  'flow.timeout': 'lab flow: {name}: no answer within {seconds} s',
  'ss.filter': 'lab: ss filters ({filter}) are not modelled in kube-proxy-lab; pipe ss into grep',
  'ss.families':
    'lab: the lab models TCP and UDP sockets only (ss -t, ss -u); unix, raw, packet and netlink sockets are not listed',
  'ss.keepalive':
    'lab: TCP keep-alive is not modelled; on a real host ss -o shows a keepalive timer on the connections a Go server accepted',
  'ss.node':
    'lab: a real node holds more sockets (the container runtime, sshd…); the lab models the API server, the kubelet, kube-proxy and its own programs',
  'xtables-monitor.trace':
    'lab: xtables-monitor printed the trace events of this node since it booted and stopped, as Ctrl-C stops it; the IP ID and the DF bit are not modelled (ID=0, no DF)',
  'xtables-monitor.events':
    'lab: xtables-monitor --event (changes to the ruleset) is not modelled; --trace is',
  'xtables-monitor.mode':
    "lab: in {mode} mode kube-proxy's own nftables table is not traced here; the lab traces iptables-nft's tables",
  'xtables-monitor.node-only':
    'lab: the lab traces the tables of nodes only; run xtables-monitor on a node',
  'ping.interval': 'lab: ping -i below 0.2 s is not modelled in kube-proxy-lab',
  'ping.unbounded': 'lab: ping runs until Ctrl-C here too; give -c COUNT or -w DEADLINE',
  'ping.name': 'lab: ping a name with -n (the lab has no reverse DNS)',
  'kube-proxy.node-only': 'lab: kube-proxy runs on nodes only; pick a node',
  'ipset.node-only': 'lab: ipset runs on nodes only',
  'ipset.inet6':
    'lab: the lab models IPv4 nodes only, so ipset makes family inet sets only; on a real node this creates an IPv6 (family inet6) set',
  'ipset.type-unmodelled':
    'lab: ipset set type {type} is not modelled in kube-proxy-lab; it models {types}',
  'ipset.protocol-unmodelled':
    'lab: ipset elements with protocol {protocol} are not modelled in kube-proxy-lab; it models tcp, udp and sctp ports',
  'ipset.range-limit':
    'lab: {element} holds {count} addresses; the lab walks at most {max} in one ipset command',
  'sysctl.option': 'lab: sysctl {option} is not modelled; the lab models {keys}',
  'sysctl.key': 'lab: {key} is not modelled; the lab models {keys}',
  'sysctl.node-only': "sysctl: the lab models the nodes' sysctls only; run it on a node",
  'sysctl.all': 'lab: sysctl -a lists only the keys the lab models; a real node has hundreds',
  'kubectl.no-command':
    'lab: kubectl needs a command (get, describe, apply, scale, delete, rollout, version)',
  'kubectl.unmodelled': 'lab: `kubectl {what}` is not modelled in kube-proxy-lab',
  'kubectl.exec-shell':
    'lab: an interactive shell is not modelled; give the command (kubectl exec POD -- curl …, or sh -c "…"), or run it on a pod/NAMESPACE/NAME line or the terminal\'s pod',
  'kubectl.exec-command': 'lab: `{command}` is not a command the lab runs in its pods',
  'kubectl.exec-type':
    'lab: kubectl exec {target} is not modelled; name the pod (kubectl get pods)',
  'kubectl.exec-container': 'lab: the pod has no container {container} (it has {containers})',
  'kubectl.jsonpath':
    'lab: this jsonpath is not modelled; the lab\'s has .field, [N], [*], [?(@.x=="v")], range … end and "text"',
  'kubectl.watch': 'lab: kubectl get --watch is not modelled in kube-proxy-lab',
  'kubectl.output': 'lab: kubectl -o {format} is not modelled in kube-proxy-lab',
  'kubectl.type':
    'lab: `kubectl {verb} {type}` is not modelled in kube-proxy-lab (its API serves pods, services, endpoints, endpointslices, nodes, deployments, replicasets and configmaps)',
  'kubectl.describe':
    'lab: `kubectl describe {type}` is not modelled in kube-proxy-lab (try kubectl get {type} -o yaml)',
  'kubectl.revision-template':
    'lab: the lab did not keep the pod template of revision {revision} of deployment {name}',
  'tcpdump.option': 'tcpdump: unsupported in the lab: {option}',
  'tcpdump.interface': 'tcpdump: the lab needs -i IFACE (or -i any)',
  'tcpdump.link-unknown':
    "lab: tcpdump printed {count} of these packets without -e's MACs: a pod that sent or received them is gone, and its MAC with it",
  'curl.option':
    "curl: the lab's curl does not model {option} (it has -s, -S, -v, -i, -I, -m, -o, -w, --connect-timeout)",
  'curl.output': "curl: the lab's curl writes to stdout or /dev/null only, not to {path}",
  'curl.writeout': "curl: the lab's curl does not model %{{variable}} in --write-out",
  'curl.scheme': "curl: (1) the lab's curl speaks plain HTTP only (no {scheme})",
  'wget.option':
    "wget: the lab's wget does not model {option} (it has -q, -O, -S, -T, -t, -nv, -v, -U, --header, --spider)",
  'wget.scheme': "wget: the lab's wget speaks plain HTTP only (no {scheme})",
  'wget.urls': "wget: the lab's wget fetches one URL per command; give each its own wget",
  'wget.tries': "wget: the lab's wget takes -t as a number or inf, not '{value}'",
  'wget.rate':
    "lab: packets take no time in the lab, so wget's transfer took 0 s: its progress line says 0s and its rate is what wget computes for a zero time (a real wget shows what it measured)",
  'wget.file':
    'lab: the lab keeps no files, so {file} was not written (wget -qO- URL prints the page); a second wget saves to {file} again, where a real one would pick {file}.1',
  'nc.option': "nc: the lab's nc does not model -{option} (it has -z, -v, -u, -n, -w)",
  'nc.range': "nc: the lab's nc takes one port, not a range ({ports})",
  'dig.server':
    "dig: the lab's dig takes the server as an IPv4 address (@10.96.0.10), not a name to look up: @{server}",
  'dig.option': "dig: the lab's dig does not model {option}",
  'dig.unmodelled': "lab: the lab's dig does not model {option}; it ran as without it",
  'dig.names':
    "dig: the lab's dig looks up one name per command (dig would look up each of {names})",
  'dig.class':
    "dig: the lab's DNS has class IN only (CoreDNS's kubernetes zone is IN); {dnsClass} is not modelled",
  'dig.ipv6': "dig: kube-proxy-lab's cluster is IPv4-only; dig -6 has no IPv6 transport to use",
  'dig.type':
    "dig: the lab's DNS messages carry A, AAAA, CNAME, SOA, PTR, NS, TXT, SRV and ANY questions, not {type}",
  'dig.srv':
    "lab: these SRV targets name endpoints by their dashed IPs (10-244-1-5.SVC.NS.svc.cluster.local.): the lab ignores pod spec.hostname/subdomain and EndpointSlice hostname, which real CoreDNS uses as the endpoint's name when set",
  'nslookup.interactive': 'nslookup: the lab runs nslookup with a name only (no interactive mode)',
  'nslookup.server':
    "nslookup: the lab's nslookup takes the server as an IPv4 address (10.96.0.10), not a name to look up: {server}",
  'nslookup.type':
    "nslookup: the lab's nslookup looks up addresses only, not -type={type}; dig {type} NAME asks for other record types (SRV, PTR, SOA, …)",
  'conntrack.option': 'conntrack: kube-proxy-lab does not model {options}',
  'conntrack.node-only': 'conntrack: the lab tracks connections on nodes only; run it on a node',
  'conntrack.stats-cpu':
    'lab: a real node counts on the CPU that handled each packet; the lab counts them all on cpu=0. early_drop, search_restart, clash_resolve and chaintoolong stay 0: the lab models no nf_conntrack_max, no parallel CPUs, no UDP clash resolution and no hash chains',
  'iptables.match': 'lab: the {name} match is not modelled in kube-proxy-lab',
  'iptables.match-option': "lab: the {name} match's --{option} is not modelled in kube-proxy-lab",
  'iptables.target': 'lab: the {name} target is not modelled in kube-proxy-lab',
  'iptables.target-option': "lab: the {name} target's --{option} is not modelled in kube-proxy-lab",
  'iptables.save-file':
    'lab: iptables-save -f would write the rules to {path}, and the lab keeps no files; without -f it prints them',
  'iptables.netmask':
    'lab: a netmask whose bits are not contiguous ({mask}) is not modelled in kube-proxy-lab; give a prefix length',
  'iptables.pod-rules':
    "lab: this host's own iptables rules are kept and listed, but the lab runs netfilter on nodes only: they do not act on its packets",
  'sleep.infinite': "sleep: the lab's virtual clock moves by a finite time only ('{value}')",
  'kubectl.grace-clock-end':
    'lab: the virtual clock ends at 9999-12-31 23:59:59 UTC; a grace period of {seconds} s would end after it, so nothing was deleted',
  'kubectl.filename-url':
    'lab: kube-proxy-lab does not fetch manifests over the network ({url}); save the file where the lab runs and give its path to -f',
  'kubectl.filename-unreadable':
    'lab: {path} is listed in its directory but could not be read where the lab runs, so nothing was sent',
  'kubectl.delete-kind':
    'lab: `kubectl delete` of a {kind} is not modelled in kube-proxy-lab; {name} was left as it is (the lab deletes Services, Deployments and Pods)',
  'terminal.no-host':
    'lab: the running cluster has no host {host} (deleted, or not in the applied scenario); choose another host for this terminal',
  'sleep.clock-end':
    "lab: the virtual clock ends at 9999-12-31 23:59:59 UTC; 'sleep {value}' would go past it, so the clock did not move",
} as const;

export type LabNoteId = keyof typeof LAB_NOTES;

/** The parameters of a template, in order of appearance (a repeated one once). */
export function noteParams(template: string): string[] {
  return [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))];
}

/** A note as one line of output, newline included. */
export function labNote(
  id: LabNoteId,
  params: Readonly<Record<string, string | number>> = {},
): string {
  const text = LAB_NOTES[id].replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = params[name];
    return v === undefined ? m : String(v);
  });
  return `${text}\n`;
}

/** A note found in output: its line (0-based), id and parameters. */
export interface FoundNote {
  readonly line: number;
  readonly id: LabNoteId;
  readonly params: Readonly<Record<string, string>>;
}

interface Matcher {
  readonly id: LabNoteId;
  readonly re: RegExp;
}

let matchers: ReadonlyMap<string, readonly Matcher[]> | undefined;

/**
 * The templates as patterns, grouped by their first word (`lab:`, `curl:`…) so that a line of
 * ordinary output (a 3 MB iptables-save) costs one lookup. A parameter matches any text; a
 * parameter's second use must repeat the first. Longer templates first: a template that
 * begins like another, longer one would also match the longer one's lines.
 */
function allMatchers(): ReadonlyMap<string, readonly Matcher[]> {
  if (matchers !== undefined) return matchers;
  const byWord = new Map<string, Matcher[]>();
  const ids = (Object.keys(LAB_NOTES) as LabNoteId[]).sort(
    (a, b) => LAB_NOTES[b].length - LAB_NOTES[a].length,
  );
  for (const id of ids) {
    const template = LAB_NOTES[id];
    const used = new Set<string>();
    const source = template
      .split(/(\{\w+\})/)
      .map((piece) => {
        const name = /^\{(\w+)\}$/.exec(piece)?.[1];
        if (name === undefined) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (used.has(name)) return `\\k<${name}>`;
        used.add(name);
        return `(?<${name}>.+?)`;
      })
      .join('');
    const word = template.slice(0, template.indexOf(' '));
    const list = byWord.get(word) ?? [];
    list.push({ id, re: new RegExp(`^${source}$`) });
    byWord.set(word, list);
  }
  matchers = byWord;
  return byWord;
}

/** The lab's notes among the lines of `text` (a command's output as a terminal shows it). */
export function readLabNotes(text: string): FoundNote[] {
  const found: FoundNote[] = [];
  const byWord = allMatchers();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const candidates = byWord.get(line.slice(0, line.indexOf(' ')));
    if (candidates === undefined) continue;
    for (const m of candidates) {
      const match = m.re.exec(line);
      if (match === null) continue;
      found.push({ line: i, id: m.id, params: { ...match.groups } });
      break;
    }
  }
  return found;
}
