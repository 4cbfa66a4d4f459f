import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { parseCurlArgs } from './programs/args';
import { TestNet } from './test-net';
import { openTcp } from './stack';
import type { HostPacket } from './types';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const web = cluster.pods.find((p) => p.ownerDeployment === 'web' && p.nodeName === 'node-2');
const WEB = `pod/default/${web?.meta.name}`;
const URL = `http://${web?.podIP}:8080/`;

function curlOpts(...a: string[]) {
  const r = parseCurlArgs(['curl', ...a, URL]);
  if (!r.ok) throw new Error(r.stderr);
  return r.opts;
}

describe('retransmission timers', () => {
  it('a SYN_RECV child resends its SYN-ACK at 1, 3, 7, 15, 31 s and is dropped at 63 s (tcp_synack_retries=5)', () => {
    // The client's packets after its SYN are lost: the server never sees the handshake's ACK.
    let synSeen = false;
    const rewrite = (p: HostPacket) => {
      if (p.src !== '10.244.0.5') return p;
      if (p.tcpFlags === 'S' && !synSeen) return ((synSeen = true), p);
      return undefined;
    };
    const net = new TestNet(cluster, { rewrite });
    net.start(CLIENT, { kind: 'curl', opts: curlOpts('-m', '100') });
    net.run(62_999);
    const synacks = net.wire.filter((w) => w.packet.tcpFlags === 'S.').map((w) => w.t);
    expect(synacks).toEqual([0, 1000, 3000, 7000, 15000, 31000]);
    expect(net.stack(WEB)?.sockets.map((s) => (s.proto === 'tcp' ? s.state : ''))).toEqual([
      'LISTEN',
      'SYN_RECV',
    ]);
    net.run(63_000);
    expect(net.stack(WEB)?.sockets.map((s) => (s.proto === 'tcp' ? s.state : ''))).toEqual([
      'LISTEN',
    ]);
  });

  it('lost data is resent after TCP_RTO_MIN (200 ms), then 400 ms, and the transfer completes', () => {
    let drops = 2;
    const rewrite = (p: HostPacket) =>
      p.tcpFlags === 'P.' && p.sport === 8080 && drops-- > 0 ? undefined : p;
    const net = new TestNet(cluster, { rewrite });
    const r = net.exec(CLIENT, { kind: 'curl', opts: curlOpts('-s') });
    expect(
      net.wire.filter((w) => w.packet.tcpFlags === 'P.' && w.packet.sport === 8080).map((w) => w.t),
    ).toEqual([0, 200, 600]);
    expect(r.exitCode).toBe(0);
  });

  it('the web app closes at once on EOF: its FIN carries the ACK of the client’s FIN', () => {
    const rewrite = (p: HostPacket) => (p.tcpFlags === 'P.' && p.sport === 8080 ? undefined : p);
    const net = new TestNet(cluster, { rewrite });
    net.exec(CLIENT, { kind: 'curl', opts: curlOpts('-s', '-m', '1') });
    net.run(1_100);
    const after = net.wire
      .filter((w) => w.t >= 1000)
      .map((w) => `${w.t} ${w.packet.sport === 8080 ? 'S' : 'C'} ${w.packet.tcpFlags}`);
    expect(after).toEqual(['1000 C F.', '1000 S F.', '1000 C .']);
  });

  it('an owner that does not close: the ACK of the peer’s FIN waits 40 ms (pingpong delayed ACK)', () => {
    const net = new TestNet(cluster);
    const opened = openTcp(net.hosts, CLIENT, '192.168.1.10', 6443, net.ctx(), {
      data: { kind: 'text', text: 'hello' },
    });
    net.push(opened);
    net.run(1_000);
    const tail = net.wire
      .slice(-3)
      .map((w) => `${w.t} ${w.packet.dport === 6443 ? 'C' : 'S'} ${w.packet.tcpFlags}`);
    expect(tail).toEqual(['0 S .', '0 S F.', '40 C .']);
    expect(net.stack(CLIENT)?.sockets.map((s) => (s.proto === 'tcp' ? s.state : ''))).toEqual([
      'CLOSE_WAIT',
    ]);
  });
});
