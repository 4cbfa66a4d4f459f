/**
 * The capture log's storage: the last `capacity` records in columns (numbers in typed arrays,
 * strings and headers in arrays) written round a ring. Every packet is captured on several
 * interfaces (six or seven records per packet of a load run); a record object per capture was
 * garbage the young generation had to copy (the last 10,000 records are always live when it
 * collects), which cost more than the rest of the capture. The records are built when the log
 * is read (`tcpdump`, a command's start), with the fields and field order a record always had,
 * and kept until the next capture.
 */
import type { PacketHeader } from '../../protocol/trace';
import type { HostRef } from '../routing';

/**
 * The Ethernet frame a record's packet was in (link-header.ts): who sent it from which device,
 * and the address whose MAC the sender resolved ('' for the bridge device itself). `tcpdump -e`
 * looks the MACs up from it.
 */
export interface LinkFrame {
  readonly from: HostRef;
  readonly iface: string;
  readonly to: string;
}

/** One packet as seen on one interface: what `tcpdump -n -i IFACE` prints a line for. */
export interface CaptureRecord {
  /** Increasing over the World's life (records dropped from the ring leave gaps). */
  readonly seq: number;
  /** Virtual time, ms. */
  readonly t: number;
  /** Host label: node name, `pod/ns/name` or external client name. */
  readonly host: string;
  readonly iface: string;
  /** `in`: received by the interface; `out`: transmitted (tcpdump -Q in|out). */
  readonly dir: 'in' | 'out';
  readonly packetId: number;
  /** The header as it is on that interface (after the rewrites done before that point). */
  readonly packet: PacketHeader;
  /** Its frame there (absent for a packet not framed yet: a host's own, before its first link). */
  readonly frame?: LinkFrame;
}

export class CaptureRing {
  private readonly seq: Float64Array;
  private readonly t: Float64Array;
  private readonly packetId: Float64Array;
  private readonly out: Uint8Array;
  private readonly host: string[];
  private readonly iface: string[];
  private readonly packet: PacketHeader[];
  /** The frame, in three columns (no object per capture): LinkFrame's from, iface and to. */
  private readonly frameFrom: (HostRef | undefined)[];
  private readonly frameIface: string[];
  private readonly frameTo: string[];
  /** Slot of the oldest record, and how many records there are. */
  private start = 0;
  private size = 0;
  /** The records as last built (undefined once a capture came after). */
  private built: readonly CaptureRecord[] | undefined;

  constructor(readonly capacity: number) {
    this.seq = new Float64Array(capacity);
    this.t = new Float64Array(capacity);
    this.packetId = new Float64Array(capacity);
    this.out = new Uint8Array(capacity);
    this.host = new Array<string>(capacity).fill('');
    this.iface = new Array<string>(capacity).fill('');
    this.packet = new Array<PacketHeader>(capacity);
    this.frameFrom = new Array<HostRef | undefined>(capacity).fill(undefined);
    this.frameIface = new Array<string>(capacity).fill('');
    this.frameTo = new Array<string>(capacity).fill('');
  }

  get length(): number {
    return this.size;
  }

  /** Appends a record; when full, the oldest goes. */
  push(
    seq: number,
    t: number,
    host: string,
    iface: string,
    dir: 'in' | 'out',
    packetId: number,
    packet: PacketHeader,
    frameFrom?: HostRef,
    frameIface = '',
    frameTo = '',
  ): void {
    let slot = this.start + this.size;
    if (slot >= this.capacity) slot -= this.capacity;
    if (this.size < this.capacity) this.size++;
    else this.start = this.start + 1 === this.capacity ? 0 : this.start + 1;
    this.seq[slot] = seq;
    this.t[slot] = t;
    this.host[slot] = host;
    this.iface[slot] = iface;
    this.out[slot] = dir === 'out' ? 1 : 0;
    this.packetId[slot] = packetId;
    this.packet[slot] = packet;
    this.frameFrom[slot] = frameFrom;
    this.frameIface[slot] = frameIface;
    this.frameTo[slot] = frameTo;
    this.built = undefined;
  }

  /** The seq of the newest record, or undefined when there is none. */
  lastSeq(): number | undefined {
    if (this.size === 0) return undefined;
    return this.seq[(this.start + this.size - 1) % this.capacity];
  }

  /** The records, oldest first. */
  records(): readonly CaptureRecord[] {
    if (this.built !== undefined) return this.built;
    const out: CaptureRecord[] = [];
    for (let i = 0; i < this.size; i++) {
      const s = (this.start + i) % this.capacity;
      const from = this.frameFrom[s];
      out.push({
        seq: this.seq[s]!,
        t: this.t[s]!,
        host: this.host[s]!,
        iface: this.iface[s]!,
        dir: this.out[s] === 1 ? 'out' : 'in',
        packetId: this.packetId[s]!,
        packet: this.packet[s]!,
        ...(from !== undefined
          ? { frame: { from, iface: this.frameIface[s]!, to: this.frameTo[s]! } }
          : {}),
      });
    }
    this.built = out;
    return out;
  }

  /** Forgets every record (the headers too). */
  clear(): void {
    this.start = 0;
    this.size = 0;
    this.host.fill('');
    this.iface.fill('');
    this.frameFrom.fill(undefined);
    this.packet.length = 0;
    this.packet.length = this.capacity;
    this.built = undefined;
  }
}
