/**
 * What tcp_v4_rcv's socket lookup made of a segment, as the trace says it: the delivery step
 * (`received`) and the reason a reset is sent (`Emitted.why`). The cases follow the kernel:
 * __inet_lookup (established 4-tuple, then listener), tcp_v4_send_reset for no socket, never a
 * reset to a reset, and RFC 793 "Reset Generation" (no connection; an unacceptable ACK in
 * SYN-SENT).
 */
import { describe, expect, it } from 'vitest';
import { rngFromSeed } from '../model/runtime';
import { DEFAULT_SCENARIO, loadScenario } from '../scenario';
import { createHosts } from './build';
import { hostReceive, openTcp } from './stack';
import type { HostCtx, HostPacket } from './types';

const { cluster } = loadScenario(DEFAULT_SCENARIO);
const CLIENT = 'pod/default/client';
const WEB = cluster.pods.find((p) => p.ownerDeployment === 'web' && p.nodeName === 'node-1')!;
const ctx: HostCtx = { now: 0, rng: rngFromSeed(1), cluster, epochSeconds: 1_733_149_320 };

/** A client pod connecting to the Service 10.96.1.1:80 (its SYN sent, SYN_SENT). */
function connecting() {
  const hosts = createHosts(cluster);
  const open = openTcp(hosts, CLIENT, '10.96.1.1', 80, ctx);
  const syn = open.emit[0]!.packet;
  const synAck = (src: string, sport: number, ack: number): HostPacket => ({
    src,
    dst: syn.src,
    proto: 'tcp',
    sport,
    dport: syn.sport!,
    tcpFlags: 'S.',
    seq: 7,
    ack,
    length: 60,
    mark: 0,
  });
  return { hosts, syn, synAck, local: `${syn.src}:${syn.sport}` };
}

describe('tcp_v4_rcv lookup in the trace', () => {
  it('a SYN-ACK from the pod IP (not un-DNATed) misses the socket connected to the Service', () => {
    const { hosts, syn, synAck, local } = connecting();
    const r = hostReceive(hosts, CLIENT, synAck(WEB.podIP, 8080, syn.seq! + 1), ctx, true);
    const remote = `${WEB.podIP}:8080`;
    expect(r.received).toEqual({
      id: 'datapath.delivered.tcp-other-peer',
      params: { host: CLIENT, local, remote, peer: '10.96.1.1:80', state: 'SYN_SENT' },
    });
    expect(r.emit).toHaveLength(1);
    expect(r.emit[0]!.packet.tcpFlags).toBe('R');
    expect(r.emit[0]!.why).toEqual({
      id: 'datapath.send.rst.other-peer',
      params: { local, remote, peer: '10.96.1.1:80', state: 'SYN_SENT' },
    });
    // Without a trace to record (load runs) the lookup is not put into words.
    const quiet = connecting();
    const q = hostReceive(quiet.hosts, CLIENT, quiet.synAck(WEB.podIP, 8080, syn.seq! + 1), ctx);
    expect(q.received).toBeUndefined();
  });

  it('the un-DNATed SYN-ACK finds the connecting socket by its 4-tuple', () => {
    const { hosts, syn, synAck, local } = connecting();
    const r = hostReceive(hosts, CLIENT, synAck('10.96.1.1', 80, syn.seq! + 1), ctx, true);
    expect(r.received).toEqual({
      id: 'datapath.delivered.tcp-socket',
      params: { host: CLIENT, local, remote: '10.96.1.1:80', state: 'SYN_SENT' },
    });
    expect(r.emit.map((e) => e.packet.tcpFlags)).toEqual(['.']);
    expect(r.emit[0]!.why).toBeUndefined();
  });

  it('an unacceptable ACK in SYN_SENT is reset, and the reason says so', () => {
    const { hosts, syn, synAck, local } = connecting();
    const r = hostReceive(hosts, CLIENT, synAck('10.96.1.1', 80, syn.seq! + 5), ctx, true);
    expect(r.received?.id).toBe('datapath.delivered.tcp-socket');
    expect(r.emit[0]!.why).toEqual({
      id: 'datapath.send.rst.bad-ack',
      params: { local, remote: '10.96.1.1:80', state: 'SYN_SENT', ack: syn.seq! + 5 },
    });
  });

  it('a SYN to a listening port; a segment for no socket; a reset for no socket', () => {
    const hosts = createHosts(cluster);
    const web = `pod/${WEB.meta.namespace}/${WEB.meta.name}`;
    const seg = (dport: number, tcpFlags: string): HostPacket => ({
      src: '10.244.0.5',
      dst: WEB.podIP,
      proto: 'tcp',
      sport: 40000,
      dport,
      tcpFlags,
      seq: 1,
      ack: 0,
      length: 60,
      mark: 0,
    });
    const local = (port: number) => `${WEB.podIP}:${port}`;
    const remote = '10.244.0.5:40000';
    expect(hostReceive(hosts, web, seg(8080, 'S'), ctx, true).received).toEqual({
      id: 'datapath.delivered.tcp-listener',
      params: { host: web, local: local(8080) },
    });
    const none = hostReceive(hosts, web, seg(9, 'S'), ctx, true);
    expect(none.received).toEqual({
      id: 'datapath.delivered.tcp-no-socket',
      params: { host: web, local: local(9), remote, port: 9 },
    });
    expect(none.emit[0]!.why).toEqual({
      id: 'datapath.send.rst.no-socket',
      params: { local: local(9), remote },
    });
    const rst = hostReceive(hosts, web, seg(9, 'R'), ctx, true);
    expect(rst.received?.id).toBe('datapath.delivered.tcp-no-socket-rst');
    expect(rst.emit).toEqual([]);
  });
});
