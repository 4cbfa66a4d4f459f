/**
 * The worker's session as the web lab uses it, run in Node: the DNS query of the lab's
 * "done" story, apply with rule diffs, a bad document that keeps the cluster, the switches.
 * Expected chain names come from the engine's own CLI on the built-in scenario (README).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine';
import { LabSession } from '../../src/worker/lab-session';
import { diffLines } from '../../src/worker/rule-diff';
import type { SendRequest } from '../../src/protocol/lab';

const dnsQuery = {
  from: 'pod/default/client',
  to: { kind: 'service', namespace: 'kube-system', name: 'kube-dns', port: 53 },
  protocol: 'udp',
  count: 1,
} as const;

describe('LabSession', () => {
  it('pings a ClusterIP from the picker: no rule matches ICMP, no DNAT, the packet leaves the lab', () => {
    const lab = new LabSession();
    const run = lab.send({ ...dnsQuery, protocol: 'icmp' }).runs[0]!;
    expect(run.prompt).toBe('pod/default/client$ ping -c 1 -W 1 10.96.0.10');
    expect(run.stdout).toContain('1 packets transmitted, 0 received, 100% packet loss');
    expect(run.exitCode).toBe(1);
    expect(run.steps.some((s) => s.kind === 'nat')).toBe(false);
    // KUBE-SERVICES is walked, and none of its rules (all -p tcp/udp) matches.
    // (The chain's end, a step without a rule, returns.)
    const services = run.steps.filter(
      (s) => s.kind === 'rule' && s.chain === 'KUBE-SERVICES' && s.rule !== '',
    );
    expect(services.length).toBeGreaterThan(6);
    expect(services.every((s) => s.kind === 'rule' && !s.matched)).toBe(true);
  });

  it('sends a DNS query from a pod through KUBE-SERVICES → KUBE-SVC → KUBE-SEP and back', () => {
    const lab = new LabSession();
    const answer = lab.send(dnsQuery);
    const run = answer.runs[0]!;
    expect(run.prompt).toBe(
      'pod/default/client$ dig @10.96.0.10 -p 53 +short +tries=1 kube-dns.kube-system.svc.cluster.local',
    );
    expect(run.stdout).toBe('10.96.0.10\n');
    const matched = run.steps.filter((s) => s.kind === 'rule' && s.matched);
    const chains = matched.map((s) => (s.kind === 'rule' ? s.chain : ''));
    expect(chains.slice(0, 4)).toEqual([
      'PREROUTING',
      'KUBE-SERVICES',
      'KUBE-SVC-TCOU7JCQXEZGVUNU',
      expect.stringMatching(/^KUBE-SEP-/),
    ]);
    const nat = run.steps.filter((s) => s.kind === 'nat').map((s) => s.kind === 'nat' && s.manip);
    expect(nat).toEqual(['dnat', 'undnat']);
    expect(run.steps.at(-1)).toMatchObject({ kind: 'verdict', verdict: 'DELIVERED' });
    expect(run.steps.every((s) => s.text.length > 0 && !s.text.includes('{'))).toBe(true);
    // The entry is not in the table before and is after.
    expect(answer.before[0]!.conntrack).not.toContain('dport=53');
    expect(answer.after[0]!.conntrack).toMatch(
      /^udp +17 \d+ src=10\.244\.0\.5 dst=10\.96\.0\.10 /m,
    );
    expect(answer.after[0]!.rules).toMatch(/^\[1:107\] -A KUBE-SVC-TCOU7JCQXEZGVUNU /m);
  });

  it('applies an edit, reports the rules it added, and keeps the cluster on a bad document', () => {
    const lab = new LabSession();
    // The web Service (the first `port: 80`) moves to port 8080.
    const changed = DEFAULT_SCENARIO.replace(
      '  - port: 80\n    targetPort: http',
      '  - port: 8080\n    targetPort: http',
    );
    const ok = lab.apply(changed);
    expect(ok.accepted).toBe(true);
    const node1 = ok.ruleDiffs.find((d) => d.node === 'node-1')!;
    const iptables = node1.tables.find((t) => t.table === 'iptables')!;
    expect(iptables.added.join('\n')).toContain('--dport 8080');
    expect(iptables.removed.join('\n')).toContain('--dport 80 ');
    const bad = lab.apply(
      changed.replace(
        'kind: Service\nmetadata:\n  name: web\n',
        'kind: Service\nmetadata:\n  name: Web_\n',
      ),
    );
    expect(bad.accepted).toBe(false);
    expect(bad.diagnostics.some((d) => d.severity === 'error' && d.line > 0)).toBe(true);
    expect(bad.topology.services.map((s) => s.name)).toContain('web');
    expect(lab.views('node-1').rules).toContain('--dport 8080');
  });

  it('writes the switches into the scenario text and kube-proxy follows them', () => {
    const lab = new LabSession();
    let text = lab.withSetting(DEFAULT_SCENARIO, { kind: 'masqueradeAll', on: true });
    text = lab.withSetting(text, { kind: 'bridgeNf', node: 'node-1', on: false });
    text = lab.withSetting(text, { kind: 'hairpinMode', mode: 'promiscuous-bridge' });
    const answer = lab.apply(text);
    expect(answer.accepted).toBe(true);
    expect(answer.topology.masqueradeAll).toBe(true);
    expect(answer.topology.hairpinMode).toBe('promiscuous-bridge');
    expect(answer.topology.nodes.find((n) => n.name === 'node-1')?.bridgeNfCallIptables).toBe('0');
    // kube-proxy's masqueradeAll rule: every packet to a ClusterIP gets KUBE-MARK-MASQ.
    expect(lab.views('node-1').rules).toMatch(/-A KUBE-SVC-\w+ .*-j KUBE-MARK-MASQ/);
    const ipvs = lab.apply(lab.withSetting(text, { kind: 'proxyMode', mode: 'ipvs' }));
    expect(ipvs.topology.mode).toBe('ipvs');
  });

  it('runs terminal lines on a host and reports unknown hosts as a terminal note', () => {
    const lab = new LabSession();
    expect(lab.run('node-1', 'iptables -t nat -L KUBE-SERVICES -n | head -1').stdout).toBe(
      'Chain KUBE-SERVICES (2 references)\n',
    );
    // A host the cluster does not have: the terminal's own note (shown in zh-CN too), not
    // the CLI's `kube-proxy-lab: script line 1: …` error.
    const nowhere = lab.run('nowhere', 'ip addr');
    expect(nowhere.terminal).toBe(
      'lab: the running cluster has no host nowhere (deleted, or not in the applied scenario); choose another host for this terminal\n',
    );
    expect(nowhere).toMatchObject({ prompt: 'nowhere$ ip addr', exitCode: 1 });
    expect(nowhere.notes).toEqual([
      { line: 0, id: 'terminal.no-host', params: { host: 'nowhere' } },
    ]);
    expect(lab.run('pod/default/gone', 'ip addr').notes[0]?.params).toEqual({
      host: 'pod/default/gone',
    });
  });

  it('gives the terminal stdout and stderr in the order a terminal shows them', () => {
    const lab = new LabSession();
    // conntrack -L: the entries, then the summary (stderr) last, as on a real terminal.
    lab.run('pod/default/client', 'curl -s http://10.96.1.1/');
    const ct = lab.run('node-1', 'conntrack -L');
    expect(ct.terminal).toBe(ct.stdout + ct.stderr);
    // curl -v: the body between the response headers and the connection's fate.
    const v = lab.run('pod/default/client', 'curl -sv http://10.96.1.1/');
    const lines = v.terminal.replace(/\r/g, '').split('\n');
    const body = lines.findIndex((l) => l.startsWith('web-'));
    expect([lines[body - 1], lines[body + 1]]).toEqual(['< ', '* Connection #0 to host 10.96.1.1 left intact']); // prettier-ignore
    expect(v.terminal.length).toBe(v.stdout.length + v.stderr.length);
  });

  it("names the lab's own notes in a terminal answer, and only those lines", () => {
    const s = new LabSession();
    const a = s.run(
      'node-1',
      'tc qdisc; iptables -t nat -S KUBE-SERVICES | head -1; kubectl get netpol',
    );
    const lines = a.terminal.split('\n');
    expect(a.notes.map((n) => [lines[n.line]?.slice(0, 12), n.id, n.params])).toEqual([
      ['lab: tc is n', 'command.unmodelled', { command: 'tc' }],
      ['lab: `kubect', 'kubectl.type', { verb: 'get', type: 'networkpolicies' }],
    ]);
    expect(lines[1]).toBe('-N KUBE-SERVICES');
    expect(s.run('node-1', 'iptables-save').notes).toEqual([]);
  });

  it('diffs lines as multisets', () => {
    expect(diffLines(['a', 'b', 'b'], ['b', 'c'])).toEqual({ added: ['c'], removed: ['a', 'b'] });
  });
});

describe('withSetting', () => {
  const lab = new LabSession();
  it('rewrites only the value of a top-level key, keeping comments and alignment', () => {
    const text = lab.withSetting(DEFAULT_SCENARIO, { kind: 'proxyMode', mode: 'nftables' });
    expect(text).toBe(
      DEFAULT_SCENARIO.replace(
        'mode: iptables                # or ipvs, nftables',
        'mode: nftables                # or ipvs, nftables',
      ),
    );
  });
  it('adds nested keys to the first document without repeating the comments above it', () => {
    const text = lab.withSetting(DEFAULT_SCENARIO, { kind: 'bridgeNf', node: 'node-1', on: false });
    expect(text.split('# A small cluster').length).toBe(2);
    expect(text).toMatch(
      /nodes:\n {2}node-1:\n {4}sysctls:\n {6}net.bridge.bridge-nf-call-iptables: "0"\n/,
    );
    expect(lab.validate(text).filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('IPVS mode through the session', () => {
  it('shows kube-ipvs0 in the topology and an IPVS step in the DNS query', () => {
    const lab = new LabSession();
    const answer = lab.apply(
      lab.withSetting(DEFAULT_SCENARIO, { kind: 'proxyMode', mode: 'ipvs' }),
    );
    expect(answer.topology.proxyErrors).toEqual([]);
    lab.views('node-1');
    const node1 = lab.topology().nodes.find((n) => n.name === 'node-1')!;
    expect(node1.interfaces.find((i) => i.name === 'kube-ipvs0')?.addresses.join(' ')).toContain(
      '10.96.0.10',
    );
    const run = lab.send(dnsQuery).runs[0]!;
    expect(run.stdout).toBe('10.96.0.10\n');
    expect(run.steps.some((s) => s.kind === 'ipvs' && s.service.includes('10.96.0.10:53'))).toBe(
      true,
    );
    expect(lab.views('node-1').rulesCommand).toBe('ipvsadm -Ln');
  });
});

describe('the scale experiment through the session', () => {
  it('measures every mode on a throwaway cluster and leaves the running one alone', () => {
    const lab = new LabSession();
    const before = lab.views('node-1').rules;
    const points = lab.scalePoint(10);
    expect(points.map((p) => [p.mode, p.services])).toEqual([
      ['iptables', 10],
      ['ipvs', 10],
      ['nftables', 10],
    ]);
    // iptables' first packet tries every KUBE-SERVICES rule; nftables and IPVS look it up.
    const [ipt, ipvs, nft] = points;
    expect(ipt!.firstPacketRules).toBeGreaterThan(nft!.firstPacketRules);
    expect(ipvs!.virtualServers).toBe(10);
    expect(JSON.parse(JSON.stringify(points))).toEqual(points);
    expect(lab.views('node-1').rules).toBe(before);
    // Out-of-range sizes are bounded, not run.
    expect(lab.scalePoint(0)[0]!.services).toBe(1);
  });
});

describe('LabSession.send refuses bad input (protocol v9)', () => {
  // Before v9 the worker floored and clamped the count (2.5 ran twice, 1e9 twenty times) and
  // answered a bad address with an English "invalid address" run; now nothing runs and each
  // problem is named by field and code for the UI to say in the learner's language.
  it.each([2.5, 0, -1, 21, 1e9, Number.NaN])(
    'count %d: refused, nothing run, nothing clamped',
    (count) => {
      const lab = new LabSession();
      const answer = lab.send({ ...dnsQuery, count });
      expect(answer.runs).toEqual([]);
      expect(answer.problems).toEqual([
        {
          field: 'count',
          code: 'countRange',
          params: { text: String(count), min: '1', max: '20' },
        },
      ]);
      expect(answer.after).toEqual(answer.before);
    },
  );

  it('a bad address or port, an unknown source or Service: refused with the field named', () => {
    const lab = new LabSession();
    const codes = (req: Partial<SendRequest>) =>
      lab.send({ ...dnsQuery, ...req }).problems?.map((p) => `${p.field}:${p.code}`);
    expect(codes({ to: { kind: 'address', ip: '10.96.0.999', port: 53 } })).toEqual([
      'address:addressNotIPv4',
    ]);
    expect(codes({ to: { kind: 'address', ip: '10.96.0.10', port: 0 } })).toEqual([
      'address:portRange',
    ]);
    expect(codes({ from: 'pod/default/nobody' })).toEqual(['from:sourceUnknown']);
    expect(
      codes({ to: { kind: 'service', namespace: 'default', name: 'nope', port: 80 } }),
    ).toEqual(['to:serviceUnknown']);
  });

  it('a valid request still runs as many times as asked', () => {
    const answer = new LabSession().send({ ...dnsQuery, count: 3 });
    expect(answer.problems).toBeUndefined();
    expect(answer.runs).toHaveLength(3);
  });

  it('runs a command with a here-document (a lesson step) and refuses other line breaks', () => {
    const lab = new LabSession();
    const yaml = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: hello\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 8080\n'; // prettier-ignore
    const applied = lab.run('node-1', `kubectl apply -f - <<EOF\n${yaml}EOF`);
    expect(applied.stdout).toBe('service/hello created\n');
    expect(lab.run('node-1', 'kubectl get svc hello -o name').stdout).toBe('service/hello\n');
    expect(lab.run('node-1', 'echo a\necho b').stderr).toBe(
      'kube-proxy-lab: one command line at a time\n',
    );
  });

  it('answers `continues` without running anything while a here-document is open', () => {
    const lab = new LabSession();
    const open = lab.run('node-1', 'kubectl apply -f - <<EOF\nkind: Service');
    expect(open).toMatchObject({ continues: true, stdout: '', stderr: '', exitCode: 0 });
    expect(lab.run('node-1', 'cat <<EOF\nx\nEOF').continues).toBeUndefined();
  });
});
