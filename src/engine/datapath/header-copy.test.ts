/**
 * copyHeader keeps every field of every header the lab's senders make, in their order: the
 * headers seen in the course's experiments (TCP segments with and without data, SYNs with
 * their options, resets from sockets and from REJECT, UDP and DNS, ping, ICMP errors from
 * nodes and pods, NAT-rewritten copies…) copy to the same JSON. And HEADER_ORDER names every
 * field a header can have, so a field added later cannot be dropped by a copy unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PacketHeader } from '../../protocol/trace';
import type { HostPacket } from '../hosts/types';
import { runScript } from '../sim/run-script';
import { traceSince } from '../sim/network';
import { World } from '../sim/world';
import { copyHeader, HEADER_ORDER, type WireHeader } from './header-copy';
import { captureLog } from './state';

// Compile-time: every field of WireHeader and of the socket layer's HostPacket is in HEADER_ORDER.
type Listed = (typeof HEADER_ORDER)[number];
const everyWireField: Exclude<keyof WireHeader, Listed> extends never ? true : never = true;
const everyHostField: Exclude<keyof HostPacket, Listed> extends never ? true : never = true;

/** Every header the trace and the capture log hold after running each experiment's script. */
function experimentHeaders(): PacketHeader[] {
  const headers: PacketHeader[] = [];
  for (const name of readdirSync('scenarios').sort()) {
    const dir = `scenarios/${name}`;
    const { world } = World.fromScenario(readFileSync(`${dir}/scenario.yaml`, 'utf8'));
    let lastCapture = 0;
    let lastStep = 0;
    const collect = () => {
      for (const r of captureLog(world)) if (r.seq > lastCapture) headers.push(r.packet);
      lastCapture = captureLog(world).at(-1)?.seq ?? lastCapture;
      for (const s of traceSince(world, lastStep)) {
        if (s.kind === 'send' || s.kind === 'wire') headers.push(s.packet);
        if (s.kind === 'nat') headers.push(s.before, s.after);
        lastStep = s.seq + 1;
      }
    };
    runScript(world, readFileSync(`${dir}/script.txt`, 'utf8'), {
      readFile: (path) => {
        try {
          return readFileSync(path.startsWith('/') ? path : `${dir}/${path}`, 'utf8');
        } catch {
          return undefined;
        }
      },
      onOutput: collect,
    });
  }
  return headers;
}

describe('copyHeader', () => {
  it('lists every field a header can have', () => {
    expect(everyWireField && everyHostField).toBe(true);
    expect(new Set(HEADER_ORDER).size).toBe(HEADER_ORDER.length);
  });

  it("copies every header the experiments' senders make to the same JSON", () => {
    const headers = experimentHeaders();
    const layouts = new Set(headers.map((h) => Object.keys(h).join(',')));
    // The experiments exercise many senders: TCP with and without data, UDP, ICMP, resets.
    expect(layouts.size).toBeGreaterThanOrEqual(6);
    for (const proto of ['tcp', 'udp', 'icmp']) {
      expect(headers.some((h) => h.proto === proto)).toBe(true);
    }
    expect(headers.some((h) => h.inner !== undefined)).toBe(true);
    expect(headers.some((h) => h.tcpFlags?.startsWith('R') === true)).toBe(true);
    for (const h of headers) {
      const copy = copyHeader(h);
      expect(copy).not.toBe(h);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(h));
    }
  });

  it('puts the fields of a header written in another order in HEADER_ORDER, values kept', () => {
    const h = { ttl: 63, mark: 0, length: 40, proto: 'tcp', dst: 'b', src: 'a', seq: 1 } as const;
    const copy = copyHeader(h as PacketHeader);
    expect(Object.keys(copy)).toEqual(['src', 'dst', 'proto', 'length', 'mark', 'seq', 'ttl']);
    expect(copy).toEqual(h);
  });
});
