/**
 * kube-proxy in IPVS mode on the built-in scenario, end to end: what ipvsadm and `ip addr`
 * show, the packet path (IPVS at LOCAL_IN, NAT to the real server, reply restored at FORWARD),
 * the connection table and its ActiveConn/InActConn accounting, ICMP port unreachable without
 * real servers, ClientIP persistence, graceful termination, and switching modes by restarting
 * kube-proxy. Expected values come from the kernel and kube-proxy sources named in each test.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine/scenario';
import { runScript } from '../../src/engine/sim/run-script';
import { traceCursor, traceSince } from '../../src/engine/sim/network';
import { World } from '../../src/engine/sim/world';

const IPVS = DEFAULT_SCENARIO.replace(/^mode: iptables.*$/m, 'mode: ipvs');

function lab(text = IPVS): World {
  const { world, diagnostics } = World.fromScenario(text);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return world;
}

/** Runs script lines; returns each command's stdout+stderr. */
function run(world: World, script: string): string[] {
  const out: string[] = [];
  runScript(world, script, {
    readFile: () => undefined,
    onOutput: (_line, r) => out.push(r.stdout + r.stderr),
  });
  return out;
}

describe('IPVS mode on the built-in scenario', () => {
  it('ipvsadm -Ln: one virtual server per ClusterIP port and per NodePort address, rr, Masq, weight 1', () => {
    const [list] = run(lab(), 'node-1$ ipvsadm -Ln');
    // ipvsadm.c list_all(): header, title, services sorted by ipvs_cmp_services (protocol, then
    // address as an int difference: 192.168.1.10 - 10.x overflows and sorts first).
    const lines = list!.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'IP Virtual Server version 1.2.1 (size=4096)',
      'Prot LocalAddress:Port Scheduler Flags',
      '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
    ]);
    expect(lines[3]).toBe('TCP  192.168.1.10:30080 rr');
    expect(list).toContain(
      'TCP  10.96.0.10:53 rr\n  -> 10.244.0.2:53                Masq    1      0          0         \n',
    );
    // NodePorts on every local address but kube-ipvs0's and loopback: eth0 and cni0.
    expect(list).toContain('TCP  10.244.0.1:30080 rr\n');
    expect(list).not.toContain('127.0.0.1:30080');
    expect(lines.filter((l) => l.startsWith('UDP '))).toEqual(['UDP  10.96.0.10:53 rr']);
  });

  it('kube-ipvs0 holds every ClusterIP as a /32, NOARP and DOWN', () => {
    const [addr] = run(lab(), 'node-1$ ip addr show kube-ipvs0');
    expect(addr).toMatch(
      /^\d+: kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default\n {4}link\/ether [0-9a-f:]{17} brd ff:ff:ff:ff:ff:ff\n/,
    );
    expect(addr).toContain('    inet 10.96.0.10/32 scope global kube-ipvs0\n');
    expect(addr).toContain('    inet 10.96.0.1/32 scope global kube-ipvs0\n');
  });

  it('a ClusterIP connection: IPVS schedules at INPUT, the reply tuple points at the pod, TIME_WAIT counts as InActConn', () => {
    const world = lab();
    const cursor = traceCursor(world);
    const [curl, conns, svc, ct] = run(
      world,
      [
        'pod/client$ curl -sS http://10.96.1.1/',
        'node-1$ ipvsadm -Lnc',
        'node-1$ ipvsadm -Ln -t 10.96.1.1:80',
        'node-1$ conntrack -L -p tcp',
      ].join('\n'),
    );
    expect(curl).toMatch(/you are 10\.244\.0\.5:\d+/);
    const ipvsSteps = traceSince(world, cursor).filter((s) => s.kind === 'ipvs');
    expect(ipvsSteps[0]).toMatchObject({
      kind: 'ipvs',
      hook: 'INPUT',
      action: 'schedule',
      connState: 'SYN_RECV',
    });
    expect(ipvsSteps.some((s) => s.kind === 'ipvs' && s.action === 'reply')).toBe(true);
    // ip_vs_proto_tcp.c: client FIN → CLOSE_WAIT, server FIN → TIME_WAIT, 2 minutes.
    expect(conns).toMatch(
      /^TCP 02:00 {2}TIME_WAIT {3}10\.244\.0\.5:\d+ +10\.96\.1\.1:80 +10\.244\.\d\.\d:8080\n/m,
    );
    // list_service(): no version header; the connection left the active states: InActConn 1.
    expect(svc!.split('\n')[0]).toBe('Prot LocalAddress:Port Scheduler Flags');
    expect(svc).toMatch(/Masq {4}1 {6}0 {10}1 {9}\n/);
    // ip_vs_update_conntrack(): the reply side is the real server; no DNAT status.
    expect(ct).toMatch(
      /dst=10\.96\.1\.1 sport=\d+ dport=80 src=10\.244\.\d\.\d dst=10\.244\.0\.5 sport=8080/,
    );
  });

  it('UDP connections stay in InActConn (one state, 5 minutes)', () => {
    const world = lab();
    const [, conns, list] = run(
      world,
      [
        'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local',
        'node-1$ ipvsadm -Lnc',
        'node-1$ ipvsadm -Ln -u 10.96.0.10:53',
      ].join('\n'),
    );
    expect(conns).toMatch(
      /^UDP 05:00 {2}UDP +10\.244\.0\.5:\d+ +10\.96\.0\.10:53 +10\.244\.0\.[23]:53\n/m,
    );
    expect(list).toMatch(/Masq {4}1 {6}0 {10}1 {9}\n/);
  });

  it('ipvsadm --rate: the estimator sees the traffic at its next 2 s tick, then decays', () => {
    const world = lab();
    const [, , now, tick, later] = run(
      world,
      [
        'pod/client$ curl -sS http://10.96.1.1/',
        'pod/client$ curl -sS http://10.96.1.1/',
        'node-1$ ipvsadm -Ln --rate -t 10.96.1.1:80',
        'node-1$ sleep 2; ipvsadm -Ln --rate -t 10.96.1.1:80',
        'node-1$ sleep 60; ipvsadm -Ln --rate -t 10.96.1.1:80',
      ].join('\n'),
    );
    const service = (out: string | undefined) =>
      /^TCP {2}10\.96\.1\.1:80 +(.*)$/m.exec(out ?? '')![1]!;
    expect(service(now).split(/\s+/)).toEqual(['0', '0', '0', '0', '0']);
    // Two connections of 6 packets each way in: inpps (12<<9)/4 → 1 (ip_vs_est.c).
    const [cps, inpps, , inbps] = service(tick).split(/\s+/).map(Number);
    expect([cps, inpps]).toEqual([0, 1]);
    expect(inbps).toBeGreaterThan(0);
    expect(service(later).split(/\s+/).slice(0, 3)).toEqual(['0', '0', '0']);
  });

  it('a virtual server without real servers answers ICMP port unreachable (ip_vs_leave)', () => {
    const world = lab();
    const cursor = traceCursor(world);
    const [curl] = run(world, 'pod/client$ curl -sS -m 2 http://10.96.0.10:80/');
    expect(
      traceSince(world, cursor).some(
        (s) =>
          s.kind === 'rule' &&
          s.chain === 'KUBE-IPVS-FILTER' &&
          s.matched &&
          s.outcome === 'REJECT',
      ),
    ).toBe(true);
    // Not a virtual server at all: KUBE-IPVS-FILTER rejects NEW connections to kube-ipvs0 addresses.
    expect(curl).toContain("Couldn't connect to server");
    const none = `${IPVS}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: empty, namespace: default}\nspec:\n  clusterIP: 10.96.5.5\n  selector: {app: nothing}\n  ports: [{port: 80, targetPort: 8080}]\n`;
    const w2 = lab(none);
    const c2 = traceCursor(w2);
    const [curl2] = run(w2, 'pod/client$ curl -sS -m 2 http://10.96.5.5/');
    expect(curl2).toContain("Couldn't connect to server");
    const steps = traceSince(w2, c2);
    expect(steps.some((s) => s.kind === 'ipvs' && s.action === 'no-destination')).toBe(true);
  });

  it('ClientIP affinity: persistent 10800 and a NONE template with port 0; the client sticks', () => {
    const sticky = `${IPVS}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: sticky, namespace: default}\nspec:\n  clusterIP: 10.96.7.7\n  selector: {app: web}\n  sessionAffinity: ClientIP\n  ports: [{port: 80, targetPort: 8080}]\n`;
    const world = lab(sticky);
    const out = run(
      world,
      [
        'node-1$ ipvsadm -Ln -t 10.96.7.7:80',
        'pod/client$ curl -sS http://10.96.7.7/',
        'pod/client$ curl -sS http://10.96.7.7/',
        'pod/client$ curl -sS http://10.96.7.7/',
        'node-1$ ipvsadm -Lnc',
      ].join('\n'),
    );
    expect(out[0]).toContain('TCP  10.96.7.7:80 rr persistent 10800\n');
    const servers = out.slice(1, 4).map((o) => /^(\S+) /.exec(o)?.[1]);
    expect(new Set(servers).size).toBe(1);
    expect(out[4]).toMatch(
      /^TCP 180:00 NONE +10\.244\.0\.5:0 +10\.96\.7\.7:0 +10\.244\.\d\.\d:0\n/m,
    );
  });
});

describe('graceful termination (pkg/proxy/ipvs/graceful_termination.go)', () => {
  const withoutEndpoint = (world: World, ip: string) => ({
    ...world.cluster,
    endpointSlices: world.cluster.endpointSlices.map((s) => ({
      ...s,
      endpoints: s.endpoints.filter((e) => !e.addresses.includes(ip)),
    })),
  });

  it('a TCP real server with connections drains at weight 0, then goes once they expired', () => {
    const world = lab();
    const [curl] = run(world, 'pod/client$ curl -sS http://10.96.1.1/');
    const rs = /\((10\.244\.\d\.\d):8080\)/.exec(curl!)![1]!;
    world.setCluster(withoutEndpoint(world, rs));
    const [during] = run(world, 'node-1$ ipvsadm -Ln -t 10.96.1.1:80');
    expect(during).toContain(
      `  -> ${`${rs}:8080`.padEnd(28)} Masq    0      0          1         \n`,
    );
    // TIME_WAIT lasts 2 minutes; the manager looks every minute.
    const [after] = run(world, 'node-1$ sleep 180\nnode-1$ ipvsadm -Ln -t 10.96.1.1:80').slice(1);
    expect(after).not.toContain(`${rs}:8080`);
  });

  it('a UDP real server is deleted at once', () => {
    const world = lab();
    run(world, 'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local');
    world.setCluster(withoutEndpoint(world, '10.244.0.2'));
    const [list] = run(world, 'node-1$ ipvsadm -Ln -u 10.96.0.10:53');
    expect(list).not.toContain('10.244.0.2:53');
    // The TCP virtual server of the same pod drains nothing (no connections): deleted too.
    const [tcp] = run(world, 'node-1$ ipvsadm -Ln -t 10.96.0.10:53');
    expect(tcp).not.toContain('10.244.0.2:53');
  });
});

describe('switching modes by restarting kube-proxy (platformCleanup)', () => {
  // The operator edits the configuration (the lab's scenario editor) and kube-proxy restarts.
  const toMode = (world: World, mode: string) =>
    world.reloadScenario(DEFAULT_SCENARIO.replace(/^mode: iptables.*$/m, `mode: ${mode}`));

  it('iptables → ipvs: conntrack and kubelet rules stay; iptables-mode service chains are left behind', () => {
    const world = lab(DEFAULT_SCENARIO);
    run(world, 'pod/client$ curl -sS http://10.96.1.1/');
    expect(toMode(world, 'ipvs').filter((d) => d.severity === 'error')).toEqual([]);
    const [ct, nat, list, filter] = run(
      world,
      [
        'node-1$ conntrack -L -p tcp',
        'node-1$ iptables -t nat -S',
        'node-1$ ipvsadm -Ln',
        'node-1$ iptables -S KUBE-FIREWALL',
      ].join('\n'),
    );
    expect(ct).toContain('dst=10.96.1.1');
    expect(nat).toMatch(/^-N KUBE-SVC-/m);
    expect(nat).toContain('-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT');
    expect(list).toContain('TCP  10.96.1.1:80 rr');
    expect(filter).toContain('block incoming localnet connections');
    // And traffic flows through IPVS now.
    const [curl] = run(world, 'pod/client$ curl -sS http://10.96.1.1/');
    expect(curl).toMatch(/you are 10\.244\.0\.5/);
  });

  it('ipvs → iptables: kube-ipvs0, IPVS and the ipsets stay (both modes are iptables-based)', () => {
    const world = lab();
    run(world, 'node-1$ ipvsadm -Ln');
    toMode(world, 'iptables');
    const [addr, list, sets, nat] = run(
      world,
      [
        'node-1$ ip addr show kube-ipvs0',
        'node-1$ ipvsadm -Ln',
        'node-1$ ipset list -n',
        'node-1$ iptables -t nat -S KUBE-SERVICES',
      ].join('\n'),
    );
    expect(addr).toContain('inet 10.96.1.1/32');
    expect(list).toContain('TCP  10.96.1.1:80 rr');
    expect(sets).toContain('KUBE-CLUSTER-IP');
    expect(nat).toMatch(/-j KUBE-SVC-/);
    // iptables DNAT happens in PREROUTING, before IPVS could see the VIP.
    const [curl] = run(world, 'pod/client$ curl -sS http://10.96.1.1/');
    expect(curl).toMatch(/you are 10\.244\.0\.5/);
  });

  it('ipvs → nftables: IPVS, kube-ipvs0, the ipsets and the IPVS chains go; back to ipvs: the nftables table goes', () => {
    const world = lab();
    run(world, 'node-1$ ipvsadm -Ln');
    toMode(world, 'nftables');
    const [list, addr, sets, nat, tables] = run(
      world,
      [
        'node-1$ ipvsadm -Ln',
        'node-1$ ip addr show kube-ipvs0',
        'node-1$ ipset list -n',
        'node-1$ iptables -t nat -S',
        'node-1$ nft list tables',
      ].join('\n'),
    );
    expect(list!.split('\n').slice(3).join('')).toBe('');
    expect(addr).toBe('Device "kube-ipvs0" does not exist.\n');
    expect(sets).toBe('');
    expect(nat).not.toContain('KUBE-SERVICES');
    expect(nat).toContain('KUBE-KUBELET-CANARY');
    expect(tables).toContain('table ip kube-proxy');
    toMode(world, 'ipvs');
    const [tables2, list2] = run(world, 'node-1$ nft list tables\nnode-1$ ipvsadm -Ln');
    expect(tables2).not.toContain('kube-proxy');
    expect(list2).toContain('TCP  10.96.1.1:80 rr');
  });
});
