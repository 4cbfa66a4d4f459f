/**
 * Differential test of how `nft list` (nftables 1.0.6) prints rules that iptables-nft (1.8.9)
 * wrote: each rule below is added with the real `iptables` in a throwaway namespace, in a chain
 * of its own, and `nft list chain` must print the line the engine renders for the same rule
 * (src/engine/netfilter/nft-view/rule-text.ts), and warn about iptables-nft exactly when the
 * engine says the rule holds an x_tables expression. The rules cover every match and target the
 * lab models, kube-proxy's and kubelet's rule shapes, and the xlate quirks (dropped inversions,
 * `ct status` for SNAT/DNAT, one side of addrtype, empty comment statements). Then whole nodes
 * in each proxy mode: kubelet's and kube-proxy's operations replayed on the kernel, and every
 * `nft list …` view (tables in creation order with their handles, lazily created base chains,
 * rule handles, warnings) compared with the lab's. Not covered: a
 * rule with two `-m tcp` matches, which the lab keeps merged as iptables-save reads it back.
 */
import { describe, expect, it } from 'vitest';
import {
  chainRules,
  createNetfilter,
  iptablesCommand,
  iptablesRestore,
} from '../../src/engine/netfilter';
import { iptablesNftTables } from '../../src/engine/netfilter/nft-view/render';
import { nftRuleText } from '../../src/engine/netfilter/nft-view/rule-text';
import { createNftState, nftCommand } from '../../src/engine/nftables';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { World } from '../../src/engine/sim/world';
import { nftUnavailableReason } from './nft-differential';
import { withNetns, type NsRun } from './netns';

const reason = nftUnavailableReason();
if (reason !== undefined) console.log(`skipping iptables-nft rule rendering tests: ${reason}`);

/** `TABLE: rule` (filter when no table is named); arguments split on spaces. */
const RULES = `
-s 10.0.0.0/8 -d 10.1.2.3/32 -i eth0 -o cni0 -p udp -m udp --sport 10:20 --dport 53 -j ACCEPT
! -i eth0 ! -o veth+ -p tcp -m tcp ! --dport 80 -j REJECT --reject-with icmp-port-unreachable
-p tcp -j REJECT --reject-with tcp-reset
-j REJECT --reject-with icmp-net-unreachable
-j REJECT --reject-with icmp-host-unreachable
-j REJECT --reject-with icmp-proto-unreachable
-j REJECT --reject-with icmp-net-prohibited
-j REJECT --reject-with icmp-host-prohibited
-j REJECT --reject-with icmp-admin-prohibited
! -p tcp -j RETURN
-p 47 -j RETURN
-p 99 -j RETURN
-p all -j RETURN
-p icmp -j DROP
-f -j DROP
! -f -j RETURN
-f -p tcp -m tcp --dport 80 -j ACCEPT
! -s 10.0.0.1 ! -d 10.0.0.0/8 -j RETURN
-s 10.0.0.0/0 -j ACCEPT
-p tcp -m tcp --sport 5 -j RETURN
-p tcp -m tcp ! --sport 5:6 -j RETURN
-p tcp -m tcp --dport 0:65535 -j RETURN
-p tcp -m tcp ! --dport 0:65535 -j RETURN
-p tcp -m tcp ! --sport 0:65535 --dport 80 -j ACCEPT
-p tcp -m tcp --dport 1024: -j RETURN
-p tcp -m tcp --dport 0:80
-p tcp -m tcp ! --dport 0:80
-p tcp -m tcp ! --dport 1024:65535
-p tcp -m tcp --dport 0
-p tcp -m tcp
-p tcp -m tcp --dport 80 ! --sport 70 -j ACCEPT
-p udp -m udp ! --dport 53:54 -j ACCEPT
-p tcp -m comment --comment x -m tcp --dport 80 -j RETURN
-p tcp -m tcp --dport 80 -m comment --comment x -j RETURN
-m comment --comment x -p tcp -m tcp --dport 80 -j RETURN
-p tcp -m mark --mark 1 -m tcp --dport 80 -j ACCEPT
-p tcp -s 1.1.1.1 -m tcp --dport 81
-s 1.2.3.4/32 -m comment --comment a -j RETURN
-m comment --comment c
! -p udp -m comment --comment x -j ACCEPT
-p sctp -m sctp --dport 80 -j ACCEPT
-p sctp -m sctp ! --sport 5:6 --dport 7 -j ACCEPT
-p sctp -m sctp -j ACCEPT
-p udp -m multiport --dports 53,54 -j RETURN
-p udp -m multiport ! --sports 53:60 -j RETURN
-p udp -m multiport --ports 53 -j RETURN
-p tcp -m multiport --dports 80:90,100 -j ACCEPT
-p tcp -m multiport ! --dports 80 -j ACCEPT
-p tcp -m multiport ! --ports 80,81 -j ACCEPT
-p sctp -m multiport --dports 80 -j ACCEPT
-m conntrack --ctstate NEW -j RETURN
-m conntrack --ctstate ESTABLISHED,RELATED -j RETURN
-m conntrack --ctstate UNTRACKED,NEW,ESTABLISHED,INVALID,RELATED -j ACCEPT
-m conntrack ! --ctstate INVALID -j RETURN
-m conntrack --ctstate UNTRACKED,SNAT -j RETURN
-m conntrack ! --ctstate DNAT -j RETURN
-m conntrack --ctstate SNAT,DNAT -j ACCEPT
-m comment --comment x -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
-p tcp -m conntrack --ctstate NEW -m tcp --dport 80 -j ACCEPT
-m mark --mark 0x4000/0x4000 -j RETURN
-m mark ! --mark 0x8000 -j RETURN
-m mark ! --mark 0x0/0x4000 -j ACCEPT
-m statistic --mode random --probability 0.5 -j RETURN
-m statistic --mode random ! --probability 0.25 -j RETURN
-m statistic --mode random --probability 1 -j ACCEPT
-m statistic --mode random --probability 0.00001 -j ACCEPT
-m statistic --mode random --probability 0.33333333349 -j ACCEPT
-m statistic --mode nth --every 3 --packet 0 -j RETURN
-m statistic --mode nth ! --every 3 --packet 2 -j ACCEPT
-m addrtype --dst-type LOCAL -j DROP
-m addrtype ! --dst-type LOCAL -j RETURN
-m addrtype --src-type LOCAL --dst-type LOCAL --limit-iface-in -j RETURN
-m addrtype --dst-type LOCAL --limit-iface-out -j ACCEPT
-m addrtype --dst-type UNICAST,LOCAL -j RETURN
-m addrtype ! --dst-type LOCAL,BROADCAST -j ACCEPT
-m addrtype ! --src-type BROADCAST ! --dst-type LOCAL -j RETURN
-m addrtype --dst-type THROW
-m addrtype --dst-type THROW,LOCAL
-m recent --rcheck --seconds 10800 --reap --name KUBE-SEP-X --mask 255.255.255.255 --rsource -j RETURN
-m recent --set --name KUBE-SEP-X --mask 255.255.255.255 --rsource -j RETURN
-m physdev --physdev-is-in -j RETURN
-m set --match-set KUBE-X dst,dst -j RETURN
-m nfacct --nfacct-name ct_x -j RETURN
-j MARK --set-xmark 0x4000/0x4000
-j MARK --set-xmark 0x4000/0xffffffff
-j MARK --set-xmark 0x0/0xffffffff
-j MARK --set-xmark 0x0/0x0
-j MARK --set-xmark 0x1/0x3
-j MARK --set-xmark 0x0/0x4000
-j MARK --set-xmark 0x4000/0x0
-j MARK --xor-mark 0x4000
-j CONNMARK --set-xmark 0x1/0xff
-j CONNMARK --set-xmark 0x1/0xffffffff
-j CONNMARK --set-xmark 0x0/0xff
-j CONNMARK --set-xmark 0x1/0x1
-j CONNMARK --save-mark --nfmask 0xffffffff --ctmask 0xffffffff
-j CONNMARK --save-mark --nfmask 0xff --ctmask 0xff
-j CONNMARK --save-mark --nfmask 0xffffffff --ctmask 0xff
-j CONNMARK --restore-mark --nfmask 0xffffffff --ctmask 0xffffffff
-j CONNMARK --restore-mark --nfmask 0xf --ctmask 0xff
-j LOG
-j LOG --log-level 6 --log-tcp-sequence --log-prefix p:
-j LOG --log-level 0 --log-tcp-options --log-ip-options --log-uid
-j LOG --log-level 7 --log-macdecode --log-tcp-sequence --log-tcp-options
-j TRACE
-p icmp -j TRACE
-p tcp --syn -j ACCEPT
-p tcp ! --syn -j ACCEPT
-p tcp --tcp-flags SYN,ACK SYN -j ACCEPT
-p tcp --tcp-flags ALL NONE -j ACCEPT
-p tcp ! --tcp-flags ALL NONE -j ACCEPT
-p tcp --tcp-flags ALL ALL -j ACCEPT
-p tcp ! --tcp-flags SYN,ACK NONE -j ACCEPT
-p tcp --tcp-flags SYN SYN -j ACCEPT
-p tcp ! --tcp-flags SYN SYN -j ACCEPT
-p tcp --tcp-flags syn,ack ack -j ACCEPT
-p tcp --tcp-flags SYN,RST RST --dport 80 -j ACCEPT
-p tcp --sport 5 --tcp-flags ACK ACK --dport 6 -j ACCEPT
-p tcp --tcp-flags FIN,SYN,RST,PSH,ACK,URG SYN -j ACCEPT
-j ACCEPT
-g C1
-j C1
nat: -p tcp -m tcp --dport 80 -j DNAT --to-destination 10.0.0.1:8080
nat: -p tcp -j DNAT --to-destination 10.0.0.1-10.0.0.5:80-90
nat: -p tcp -j DNAT --to-destination :80
nat: -p tcp -j DNAT --to-destination 10.0.0.1:80-80 --random --persistent
nat: -p tcp -m comment --comment x -m tcp -j DNAT --to-destination 10.244.0.4:8080
nat: -j SNAT --to-source 1.2.3.4
nat: -p tcp -j SNAT --to-source 10.0.0.1:1000-2000 --random-fully
nat: -j SNAT --to-source 10.0.0.1 --random --random-fully --persistent
nat: -j MASQUERADE
nat: -m comment --comment x -j MASQUERADE --random-fully
nat: -p tcp -j MASQUERADE --to-ports 1000-2000
nat: -j MASQUERADE --random
nat: -m comment --comment x -m addrtype --dst-type LOCAL -j RETURN
-p icmp --icmp-type echo-request -j ACCEPT
-p icmp ! --icmp-type echo-request -j ACCEPT
-p icmp --icmp-type 3/4 -j DROP
-p icmp --icmp-type any -j ACCEPT
-p icmp ! --icmp-type any -j ACCEPT
-p icmp --icmp-type pong -j ACCEPT
-p icmp --icmp-type 6 -j ACCEPT
-p icmp --icmp-type 13 -j ACCEPT
-s 1.2.3.4 -p icmp --icmp-type 8 -m comment --comment x -j ACCEPT
-m state --state ESTABLISHED,RELATED -j ACCEPT
-m state ! --state NEW,RELATED -j ACCEPT
-m state --state INVALID,NEW,RELATED,ESTABLISHED,UNTRACKED -j ACCEPT
-m iprange --src-range 1.2.3.4 -j ACCEPT
-m iprange ! --src-range 1.2.3.4-1.2.3.8 --dst-range 5.6.7.8-5.6.7.9 -j ACCEPT
nat: -p tcp -m tcp --dport 80 -j REDIRECT --to-ports 8080
nat: -p tcp -m tcp --dport 81 -j REDIRECT --to-ports 8080-8090 --random
nat: -p tcp -j REDIRECT --to-ports 0
nat: -p udp -j REDIRECT --to-ports 53 --random
nat: -p tcp -j REDIRECT --random
nat: -p udp -j REDIRECT
-m limit --limit 5/s -j ACCEPT
-m limit --limit 10/min --limit-burst 7 -j LOG
-p icmp -m limit -j DROP
raw: -j NOTRACK
raw: -p udp -m udp --dport 53 -j CT --notrack
raw: -j CT
nat: ! -s 10.244.0.0/16 -d 10.96.0.10/32 -p udp -m comment --comment x -m udp --dport 53 -j RETURN
`
  .trim()
  .split('\n');

interface Case {
  readonly table: string;
  readonly args: string[];
}

function cases(): Case[] {
  return RULES.map((line) => {
    const m = /^(\w+): (.*)$/.exec(line);
    return { table: m?.[1] ?? 'filter', args: (m?.[2] ?? line).split(' ') };
  });
}

describe.skipIf(reason !== undefined)('iptables-nft rules as nft lists them', () => {
  it('every rule shape prints as nft 1.0.6 prints it, with the iptables-nft warning', () => {
    const engine = createNetfilter();
    const all = cases();
    const kinds = new Set<boolean>();
    const mismatches = withNetns((run) => {
      run(['ipset', 'create', 'KUBE-X', 'hash:ip,port']);
      run(['nfacct', 'add', 'ct_x']);
      const out: string[] = [];
      all.forEach((c, i) => {
        const chain = `C${i + 1}`;
        for (const argv of [
          ['-t', c.table, '-N', chain],
          ['-t', c.table, '-A', chain, ...c.args],
        ]) {
          const r = run(['iptables', ...argv]);
          expect(r.exitCode, `iptables ${argv.join(' ')}: ${r.stderr}`).toBe(0);
          expect(iptablesCommand(engine, argv).exitCode).toBe(0);
        }
        const real = run(['nft', 'list', 'chain', 'ip', c.table, chain]);
        const line = real.stdout.split('\n')[2]?.replace(/^\t\t/, '');
        const rule = chainRules(engine, c.table as 'filter' | 'nat', chain)[0]!;
        const mine = nftRuleText(rule);
        kinds.add(mine.xt);
        const warned = real.stderr.includes('is managed by iptables-nft');
        if (line !== mine.text || warned !== mine.xt)
          out.push(`${c.args.join(' ')}\n  nft:    [${line}] warn=${warned}\n  engine: [${mine.text}] warn=${mine.xt}`); // prettier-ignore
      });
      return out;
    });
    expect(mismatches).toEqual([]);
    // Not vacuous: the corpus holds native-only rules (no warning) and x_tables ones.
    expect([...kinds].sort()).toEqual([false, true]);
  });
});

/** What kubelet and kube-proxy did to node-1 of the built-in scenario in `mode`, replayed. */
function replay(world: World, run: NsRun): void {
  const kernel = world.kernel('node-1')!;
  for (const name of ['ct_state_invalid_dropped_pkts', 'localhost_nps_accepted_pkts'])
    run(['nfacct', 'add', name]);
  for (const op of kernel.ops ?? []) {
    if ('restore' in op) expect(run(['iptables-restore', ...op.args], op.restore).exitCode).toBe(0);
    else if ('iptables' in op) run(['iptables', ...op.iptables]);
    else if ('ipset' in op) expect(run(['ipset', ...op.ipset]).exitCode).toBe(0);
  }
  // nftables mode: kube-proxy's one sync so far, as it piped it to `nft -f -`.
  const sync = kernel.nftables?.lastSync;
  for (const t of [sync?.staleChainsTransaction ?? '', sync?.transaction ?? '']) {
    if (t !== '') expect(run(['nft', '-f', '-'], t).stderr).toBe('');
  }
}

const VIEWS = [
  ['list', 'ruleset'],
  ['-a', 'list', 'ruleset'],
  ['-a', 'list', 'tables'],
  ['-a', 'list', 'chains'],
  ['list', 'table', 'ip', 'filter'],
  ['list', 'chain', 'ip', 'nat', 'KUBE-SERVICES'],
  ['list', 'chain', 'ip', 'mangle', 'KUBE-IPTABLES-HINT'],
];

describe.skipIf(reason !== undefined)('a node with iptables-nft tables, as nft lists it', () => {
  it.each(['iptables', 'ipvs', 'nftables'])('%s mode', (mode) => {
    const scenario = DEFAULT_SCENARIO.replace(/^mode: iptables/m, `mode: ${mode}`);
    const { world } = World.fromScenario(scenario, { recordKernelOps: true });
    const kernel = world.kernel('node-1')!;
    expect(kernel.mode).toBe(mode);
    withNetns((run) => {
      replay(world, run);
      for (const argv of VIEWS) {
        const iptables = iptablesNftTables(kernel.netfilter);
        const state = kernel.nftables?.state ?? { tables: new Map(), lastTableHandle: 0 };
        const mine = nftCommand(state, argv, world.nowSeconds() * 1000, iptables);
        const real = run(['nft', ...argv]);
        const label = `nft ${argv.join(' ')}`;
        expect(mine.stdout.split('\n'), label).toEqual(real.stdout.split('\n'));
        expect(mine.stderr, label).toBe(real.stderr);
        expect(mine.exitCode, label).toBe(real.exitCode);
      }
      // Not vacuous: kubelet's tables are there, before kube-proxy's own in nftables mode.
      const tables = run(['nft', 'list', 'tables']).stdout;
      expect(tables).toMatch(/^table ip mangle\ntable ip filter\ntable ip nat\n/);
      if (mode === 'nftables') expect(tables).toContain('table ip kube-proxy');
      else expect(run(['nft', 'list', 'ruleset']).stdout).toContain('jump KUBE-SERVICES');
    });
  });
});

/** Commands that create, rename, replace, zero and delete, in the order a learner might. */
const HISTORY: readonly (readonly string[] | string)[] = [
  ['-N', 'A'],
  ['-A', 'A', '-p', 'tcp', '-m', 'tcp', '--dport', '80', '-j', 'ACCEPT'],
  ['-I', 'INPUT', '-j', 'A'],
  ['-t', 'nat', '-P', 'POSTROUTING', 'DROP'],
  ['-F', 'FORWARD'],
  ['-t', 'mangle', '-F'],
  ['-t', 'raw', '-N', 'X'],
  ['-t', 'raw', '-Z', 'OUTPUT'],
  ['-t', 'raw', '-Z', 'OUTPUT', '1'],
  ['-t', 'raw', '-L', 'OUTPUT', '-n', '-Z'],
  ['-t', 'raw', '-Z'],
  ['-Z', 'OUTPUT'],
  ['-F'],
  ['-N', 'B'],
  ['-A', 'B', '-j', 'RETURN'],
  ['-E', 'A', 'A2'],
  ['-R', 'A2', '1', '-p', 'udp', '-j', 'DROP'],
  ['-Z', 'A2'],
  ['-A', 'OUTPUT', '-j', 'B'],
  ['-D', 'OUTPUT', '1'],
  ['-X', 'B'],
  ['-N', 'B'],
  '*raw\n:PREROUTING ACCEPT [0:0]\n-A PREROUTING -j ACCEPT\nCOMMIT\n',
  '*nat\n:POSTROUTING ACCEPT [0:0]\n:C - [0:0]\n-A C -j RETURN\nCOMMIT\n',
  ['-A', 'A2', '-j', 'RETURN'],
];

describe.skipIf(reason !== undefined)(
  'nf_tables handles and order through iptables commands',
  () => {
    it('creation order, renames, replaced rules, deleted chains and a flushing restore', () => {
      const engine = createNetfilter();
      withNetns((run) => {
        for (const step of HISTORY) {
          if (typeof step === 'string') {
            // Without --noflush: nf_tables gets a new table (a new handle, last in the list).
            expect(run(['iptables-restore'], step).exitCode).toBe(0);
            expect(iptablesRestore(engine, step).exitCode).toBe(0);
          } else {
            const real = run(['iptables', ...step]);
            const mine = iptablesCommand(engine, step);
            expect([mine.exitCode, mine.stderr], step.join(' ')).toEqual([
              real.exitCode,
              real.stderr,
            ]);
          }
          const argv = ['-a', 'list', 'ruleset'];
          const mine = nftCommand(createNftState(), argv, 0, iptablesNftTables(engine));
          const real = run(['nft', ...argv]);
          const label = typeof step === 'string' ? step.split('\n')[0]! : step.join(' ');
          expect(mine.stdout.split('\n'), label).toEqual(real.stdout.split('\n'));
          expect(mine.stderr, label).toBe(real.stderr);
        }
      });
    });
  },
);
