/**
 * ipvsadm's formats (ipvsadm.c 1.31: print_title, print_service_entry, print_largenum,
 * print_conn; libipvs ipvs_cmp_services) and the connection states of ip_vs_proto_tcp.c with
 * their ActiveConn/InActConn accounting. Layout strings are the printf formats of the source.
 */
import { describe, expect, it } from 'vitest';
import { connTransition, scheduleConn } from './conn';
import { addDest, addService } from './table';
import { createIpvsState, SVC_F_PERSISTENT, SVC_F_SCHED2, type VirtualService } from './types';
import { renderIpvsConns, renderIpvsList } from './views';

function state() {
  const ipvs = createIpvsState();
  const svc = (addr: string, port: number, scheduler = 'rr', flags = 0): VirtualService =>
    addService(ipvs, {
      protocol: 'TCP',
      addr,
      port,
      scheduler,
      flags,
      timeout: 10800,
    }) as VirtualService;
  return { ipvs, svc };
}

describe('ipvsadm -Ln', () => {
  it('sorts services with the int-difference comparator: addresses 2^31 apart sort backwards', () => {
    const { ipvs, svc } = state();
    svc('10.96.0.1', 443);
    svc('10.10.110.190', 30023);
    svc('172.17.0.1', 30023);
    const lines = renderIpvsList(ipvs, { format: 'plain' }, 0)
      .split('\n')
      .filter((l) => l.startsWith('TCP'));
    // (int)(0xAC110001 - 0x0A600001) < 0: 172.17.0.1 sorts before 10.96.0.1; a real node lists
    // 172.17.0.1:30023 and 10.10.110.190:30023 ahead of 10.96.0.1:443 (kube-proxy.md §3.4).
    expect(lines).toEqual([
      'TCP  172.17.0.1:30023 rr',
      'TCP  10.10.110.190:30023 rr',
      'TCP  10.96.0.1:443 rr',
    ]);
  });

  it('prints scheduler flags and persistence, and destinations with trailing blanks', () => {
    const { ipvs, svc } = state();
    const s = svc('10.96.0.30', 80, 'mh', SVC_F_SCHED2 | SVC_F_PERSISTENT);
    addDest(s, { addr: '10.244.2.9', port: 8080, weight: 1, fwd: 'Masq' });
    addDest(s, { addr: '10.244.1.10', port: 8080, weight: 0, fwd: 'Route' });
    const out = renderIpvsList(ipvs, { format: 'plain' }, 0);
    expect(out).toContain('TCP  10.96.0.30:80 mh (mh-port) persistent 10800\n');
    // "  -> %-28s %-7s %-6d %-10u %-10u\n", destinations sorted by address.
    expect(out).toContain(
      '  -> 10.244.1.10:8080             Route   0      0          0         \n' +
        '  -> 10.244.2.9:8080              Masq    1      0          0         \n',
    );
  });

  it('--stats: %-33s then %9llu columns; K above 10^8 (print_largenum)', () => {
    const { ipvs, svc } = state();
    const s = svc('10.96.0.10', 53);
    Object.assign(s.stats, {
      conns: 3,
      inpkts: 18,
      outpkts: 12,
      inbytes: 123_456_789,
      outbytes: 99_999_999,
    });
    const out = renderIpvsList(ipvs, { format: 'stats' }, 0).split('\n');
    expect(out[1]).toBe(
      'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
    );
    expect(out[3]).toBe(
      'TCP  10.96.0.10:53                       3       18       12  123456K 99999999',
    );
    expect(renderIpvsList(ipvs, { format: 'stats', exact: true }, 0).split('\n')[3]).toBe(
      'TCP  10.96.0.10:53                       3       18       12 123456789 99999999',
    );
  });
});

describe('IPVS connections (ip_vs_proto_tcp.c tcp_states, set_tcp_state)', () => {
  it('NAT: SYN in → SYN_RECV (active), ACK in → ESTABLISHED, FIN in → CLOSE_WAIT (inactive), FIN out → TIME_WAIT', () => {
    const { ipvs, svc } = state();
    const s = svc('10.96.0.20', 80);
    const d = addDest(s, { addr: '10.244.2.7', port: 8080, weight: 1, fwd: 'Masq' });
    if (d === 'exists') throw new Error('unreachable');
    const pkt = { src: '10.244.1.5', dst: '10.96.0.20', sport: 43812, dport: 80 };
    const r = scheduleConn(ipvs, s, pkt, 0, true);
    if (r.kind !== 'conn') throw new Error('no destination');
    const c = r.conn;
    expect([c.state, d.activeConns, d.inactConns]).toEqual(['NONE', 0, 1]);
    const steps: [
      Parameters<typeof connTransition>[2],
      Parameters<typeof connTransition>[3],
      string,
      number,
      number,
    ][] = [
      ['input', { syn: true }, 'SYN_RECV', 1, 0],
      ['output', { syn: true, ack: true }, 'SYN_RECV', 1, 0],
      ['input', { ack: true }, 'ESTABLISHED', 1, 0],
      ['input', { fin: true, ack: true }, 'CLOSE_WAIT', 0, 1],
      ['output', { fin: true, ack: true }, 'TIME_WAIT', 0, 1],
    ];
    for (const [dir, flags, want, active, inactive] of steps) {
      connTransition(ipvs, c, dir, flags, false, 1000);
      expect([c.state, d.activeConns, d.inactConns]).toEqual([want, active, inactive]);
    }
    // ipvsadm -Lnc: "%-3s %-6s %-11s %-18s %-18s %s", expiry mm:ss of the 120 s TIME_WAIT.
    expect(renderIpvsConns(ipvs, 1000).split('\n')[2]).toBe(
      'TCP 02:00  TIME_WAIT   10.244.1.5:43812   10.96.0.20:80      10.244.2.7:8080',
    );
    // The entry expires with its timer and releases the counter.
    renderIpvsConns(ipvs, 121_000);
    expect([ipvs.conns.length, d.inactConns]).toEqual([0, 0]);
  });
});
