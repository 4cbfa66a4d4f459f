/**
 * sk_err_soft: tcp_v4_err() keeps an ICMP error about an established connection as the socket's
 * soft error; tcp_write_err() reports it instead of ETIMEDOUT when the connection gives up; an
 * ACK that moves snd_una clears it (tcp_ack).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { TestNet } from './test-net';
import { hostReceive, openTcp, sendData } from './stack';
import type { HostPacket } from './types';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const web = cluster.pods.find((p) => p.ownerDeployment === 'web' && p.nodeName === 'node-2')!;

/** ICMP host unreachable about the client's segment `p`, as a node sends it (arp_error_report). */
function hostUnreachable(p: HostPacket): HostPacket {
  return {
    src: '10.244.0.1',
    dst: p.src,
    proto: 'icmp',
    icmp: { type: 3, code: 1 },
    length: 28 + p.length,
    mark: 0,
    inner: { src: p.src, dst: p.dst, proto: 'tcp', sport: p.sport!, dport: p.dport! },
  };
}

/** An established connection to web whose server then vanishes (every later packet lost). */
function connectionIntoTheVoid() {
  let lost = false;
  const net = new TestNet(cluster, { rewrite: (p) => (lost ? undefined : p) });
  const opened = openTcp(net.hosts, CLIENT, web.podIP, 8080, net.ctx(), {});
  net.push(opened);
  net.run(10);
  expect(net.stack(CLIENT)?.sockets[0]).toMatchObject({ state: 'ESTABLISHED' });
  lost = true;
  const sock = opened.socket!.id;
  net.push(sendData(net.hosts, sock, { kind: 'text', text: 'GET' }, net.ctx()));
  net.run(net.now);
  const data = net.wire.at(-1)!.packet;
  expect(data.tcpFlags).toBe('P.');
  const heal = (): void => {
    lost = false;
  };
  return { net, sock, data, heal };
}

function timeoutErrno(net: TestNet): string | undefined {
  net.run(20 * 60_000);
  return net.events.find((e) => e.kind === 'timeout')?.errno;
}

describe('an ICMP host unreachable about an established connection', () => {
  it('is kept as the soft error and reported when the connection times out', () => {
    const { net, data } = connectionIntoTheVoid();
    net.run(3_000);
    net.push(hostReceive(net.hosts, CLIENT, hostUnreachable(data), net.ctx()));
    // Still connected: a soft error does not end the connection.
    expect(net.stack(CLIENT)?.sockets[0]).toMatchObject({ state: 'ESTABLISHED' });
    expect(timeoutErrno(net)).toBe('EHOSTUNREACH');
  });

  it('is forgotten once an ACK moves snd_una (tcp_ack: "something worked")', () => {
    const { net, data, heal } = connectionIntoTheVoid();
    net.run(3_000);
    net.push(hostReceive(net.hosts, CLIENT, hostUnreachable(data), net.ctx()));
    const sock = () => net.stack(CLIENT)?.sockets[0];
    expect(sock()).toMatchObject({ softError: 'EHOSTUNREACH' });
    heal(); // the next retransmission gets through and is acknowledged
    net.run(net.now + 10_000);
    expect(sock()).toMatchObject({ softError: undefined });
  });

  it('without one, the connection times out with ETIMEDOUT', () => {
    const { net } = connectionIntoTheVoid();
    expect(timeoutErrno(net)).toBe('ETIMEDOUT');
  });
});
