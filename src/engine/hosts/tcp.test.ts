import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { modelTimeout } from './tcp-user';
import { parseCurlArgs } from './programs/args';
import type { CurlOptions } from './programs/types';
import { serviceNat, TestNet } from './test-net';
import type { HostPacket, TcpSocket } from './types';
import { hostReceive, openTcp } from './stack';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const webSvc = cluster.services.find((s) => s.meta.name === 'web');
const webPods = cluster.pods.filter((p) => p.ownerDeployment === 'web');
const sameNodeWeb = webPods.find((p) => p.nodeName === 'node-1');
const otherNodeWeb = webPods.find((p) => p.nodeName === 'node-2');
if (webSvc === undefined || sameNodeWeb === undefined || otherNodeWeb === undefined)
  throw new Error('the default scenario changed');

function curl(...args: string[]): CurlOptions {
  const r = parseCurlArgs(['curl', ...args]);
  if (!r.ok) throw new Error(r.stderr);
  return r.opts;
}

const flagsOnly = (net: TestNet) => net.flags().map((l) => l.split(' ').slice(1).join(' '));

describe('a TCP connection from connect() to TIME_WAIT (curl to a web pod)', () => {
  const net = new TestNet(cluster);
  const r = net.exec(CLIENT, { kind: 'curl', opts: curl(`http://${otherNodeWeb.podIP}:8080/`) });
  const c = net.wire[0]?.packet;
  const port = c?.sport ?? 0;
  const p = (dir: '>' | '<', flags: string) =>
    dir === '>'
      ? `10.244.0.5:${port}>${otherNodeWeb.podIP}:8080 ${flags}`
      : `${otherNodeWeb.podIP}:8080>10.244.0.5:${port} ${flags}`;

  it('exchanges the packets a real kernel does: handshake, request, response, FIN/FIN-ACK/ACK', () => {
    expect(flagsOnly(net)).toEqual([
      p('>', 'S'),
      p('<', 'S.'),
      p('>', '.'),
      p('>', 'P.'),
      p('<', '.'),
      p('<', 'P.'),
      p('>', '.'),
      p('>', 'F.'),
      p('<', 'F.'),
      p('>', '.'),
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `${otherNodeWeb.meta.name} (${otherNodeWeb.podIP}:8080): you are 10.244.0.5:${port}\n`,
    );
  });

  it('uses an even ephemeral port in 32768-60999 (inet_hash_connect) and consistent numbers', () => {
    expect(port % 2).toBe(0);
    expect(port).toBeGreaterThanOrEqual(32768);
    expect(port).toBeLessThanOrEqual(60999);
    const [syn, synack, ack, req, , resp] = net.wire.map((w) => w.packet) as HostPacket[];
    expect(synack?.ack).toBe(((syn?.seq ?? 0) + 1) >>> 0);
    expect(ack?.seq).toBe(synack?.ack);
    expect(ack?.ack).toBe(((synack?.seq ?? 0) + 1) >>> 0);
    expect(req?.payload).toBe(req?.data?.kind === 'text' ? req.data.text.length : -1);
    expect(resp?.ack).toBe(((req?.seq ?? 0) + (req?.payload ?? 0)) >>> 0);
    expect([syn?.win, synack?.win, ack?.win, resp?.win]).toEqual([64240, 65160, 502, 509]);
    expect([syn?.length, ack?.length]).toEqual([60, 52]);
  });

  it('leaves the client socket in TIME_WAIT for 60 s (TCP_TIMEWAIT_LEN), the server none', () => {
    const tw = net.stack(CLIENT)?.sockets.filter((s): s is TcpSocket => s.proto === 'tcp');
    expect(tw?.map((s) => s.state)).toEqual(['TIME_WAIT']);
    expect(tw?.[0]?.timeWaitUntil).toBe((tw?.[0]?.since ?? 0) + 60_000);
    const server = net.stack(`pod/default/${otherNodeWeb.meta.name}`)?.sockets;
    expect(server?.map((s) => (s.proto === 'tcp' ? s.state : 'udp'))).toEqual(['LISTEN']);
    net.run(net.now + 59_999);
    expect(net.stack(CLIENT)?.sockets).toHaveLength(1);
    net.run(net.now + 60_000);
    expect(net.stack(CLIENT)?.sockets).toHaveLength(0);
  });
});

describe('resets', () => {
  it('a SYN to a closed port gets RST,ACK seq 0 ack ISN+1: connection refused', () => {
    const net = new TestNet(cluster);
    const r = net.exec(CLIENT, {
      kind: 'curl',
      opts: curl('-sS', `http://${otherNodeWeb.podIP}:81/`),
    });
    const [syn, rst] = net.wire.map((w) => w.packet);
    expect(rst).toMatchObject({
      tcpFlags: 'R.',
      seq: 0,
      ack: ((syn?.seq ?? 0) + 1) >>> 0,
      win: 0,
      length: 40,
    });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toBe(
      `curl: (7) Failed to connect to ${otherNodeWeb.podIP} port 81 after 0 ms: Couldn't connect to server\n`,
    );
  });

  it('same-node Service without un-DNAT: SYN-ACK from the pod IP is reset, the SYN retransmitted until ETIMEDOUT', () => {
    const nat = serviceNat(cluster, {
      pick: () => sameNodeWeb.podIP,
      undnat: (reply) => reply.src !== sameNodeWeb.podIP,
    });
    const net = new TestNet(cluster, { rewrite: nat });
    const r = net.exec(CLIENT, { kind: 'curl', opts: curl('-sS', `http://${webSvc.clusterIP}/`) });
    const w = net.wire.map((x) => x.packet);
    const [syn, synack, rst] = w;
    expect(synack).toMatchObject({ src: sameNodeWeb.podIP, sport: 8080, tcpFlags: 'S.' });
    // tcp_v4_send_reset: the SYN-ACK had ACK → RST without ACK, seq = its ack number, win 0.
    expect(rst).toMatchObject({
      src: '10.244.0.5',
      dst: sameNodeWeb.podIP,
      sport: syn?.sport,
      dport: 8080,
      tcpFlags: 'R',
      seq: synack?.ack,
      win: 0,
      length: 40,
    });
    expect(rst?.ack).toBeUndefined();
    const synTimes = net.wire.filter((x) => x.packet.tcpFlags === 'S').map((x) => x.t);
    expect(synTimes).toEqual([0, 1000, 3000, 7000, 15000, 31000, 63000]);
    expect(r.exitCode).toBe(28);
    expect(r.stderr).toBe(
      `curl: (28) Failed to connect to ${webSvc.clusterIP} port 80 after 127000 ms: Couldn't connect to server\n`,
    );
  });

  it('an RST at rcv_nxt during the transfer: curl (56) Recv failure', () => {
    const rewrite = (p: HostPacket) =>
      (p.tcpFlags === 'P.' && p.sport === 8080
        ? { ...p, tcpFlags: 'R.', data: undefined, payload: 0 }
        : p) as HostPacket;
    const net = new TestNet(cluster, { rewrite });
    const r = net.exec(CLIENT, {
      kind: 'curl',
      opts: curl('-sS', `http://${otherNodeWeb.podIP}:8080/`),
    });
    expect(r.exitCode).toBe(56);
    expect(r.stderr).toBe('curl: (56) Recv failure: Connection reset by peer\n');
    expect(net.stack(CLIENT)?.sockets).toHaveLength(0);
  });
});

describe('SYN retransmissions (tcp_timer.c, tcp_syn_retries)', () => {
  it.each([
    [6, [0, 1000, 3000, 7000, 15000, 31000, 63000], 127_000],
    [3, [0, 1000, 3000, 7000], 15_000],
    [1, [0, 1000], 3_000],
  ])('tcp_syn_retries=%i: SYNs at %j, ETIMEDOUT at %i ms', (retries, times, gaveUp) => {
    const blackhole = (p: HostPacket) => (p.dst === '10.244.1.99' ? undefined : p);
    const net = new TestNet(cluster, {
      rewrite: blackhole,
      sysctls: { [CLIENT]: { 'net.ipv4.tcp_syn_retries': String(retries) } },
    });
    const r = net.exec(CLIENT, {
      kind: 'nc',
      opts: { host: '10.244.1.99', port: 80, udp: false, zero: true, verbose: true, stdin: '' },
    });
    expect(net.wire.map((x) => x.t)).toEqual(times);
    expect(net.now).toBe(gaveUp);
    expect(r.stderr).toBe(
      'nc: connect to 10.244.1.99 port 80 (tcp) failed: Connection timed out\n',
    );
  });

  it('models the give-up time as tcp_model_timeout does', () => {
    expect(modelTimeout(6, 1000)).toBe(127_000);
    expect(modelTimeout(8, 1000)).toBe(127_000 + 2 * 120_000);
    expect(modelTimeout(15, 200)).toBe(924_600);
  });

  it('curl -m gives up first: (28) Connection timed out after 5001 milliseconds, no RST sent', () => {
    const net = new TestNet(cluster, { rewrite: (p) => (p.dst === '10.244.1.99' ? undefined : p) });
    const r = net.exec(CLIENT, { kind: 'curl', opts: curl('-m', '5', 'http://10.244.1.99/') });
    expect(r.stderr).toBe('curl: (28) Connection timed out after 5001 milliseconds\n');
    expect(net.wire.map((x) => `${x.t} ${x.packet.tcpFlags}`)).toEqual(['0 S', '1000 S', '3000 S']);
    expect(net.stack(CLIENT)?.sockets).toHaveLength(0);
  });
});

describe('ICMP errors reach the connecting socket', () => {
  it.each([
    [3, 7, 'Connection refused'],
    [1, 7, 'No route to host'],
    [13, 7, 'No route to host'],
  ])('destination unreachable code %i → curl exit %i (%s)', (code, exit, text) => {
    const net = new TestNet(cluster);
    const opened = openTcp(net.hosts, CLIENT, '10.96.9.9', 80, net.ctx());
    const syn = opened.emit[0]?.packet as HostPacket;
    const icmp: HostPacket = {
      src: '10.244.0.1',
      dst: syn.src,
      proto: 'icmp',
      icmp: { type: 3, code },
      length: 88,
      mark: 0,
      inner: { src: syn.src, dst: syn.dst, proto: 'tcp', sport: syn.sport ?? 0, dport: 80 },
    };
    const step = hostReceive(net.hosts, CLIENT, icmp, net.ctx());
    expect(step.events.map((e) => [e.kind, e.errno])).toEqual([
      [code === 3 ? 'refused' : 'unreachable', code === 3 ? 'ECONNREFUSED' : 'EHOSTUNREACH'],
    ]);
    const viaCurl = new TestNet(cluster, {
      rewrite: (p) =>
        p.proto === 'tcp' && p.dst === '10.96.9.9'
          ? ({
              ...icmp,
              inner: { ...icmp.inner, sport: p.sport ?? 0 } as HostPacket['inner'],
              dst: p.src,
            } as HostPacket)
          : p,
    });
    const r = viaCurl.exec(CLIENT, { kind: 'curl', opts: curl('-v', 'http://10.96.9.9/') });
    expect(r.exitCode).toBe(exit);
    expect(r.stderr).toContain(`* connect to 10.96.9.9 port 80 failed: ${text}\n`);
  });
});
