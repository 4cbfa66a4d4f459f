/**
 * The capture log's storage: the last `capacity` records in columns (numbers in typed arrays,
 * strings in arrays, headers in the columns of capture-columns.ts) written round a ring. Every
 * packet is captured on several interfaces (six or seven records per packet of a load run); a
 * record object per capture, and then the header objects kept, were garbage the young
 * generation had to copy (the last 10,000 records are always live when it collects), which cost
 * more than the rest of the capture. The records are built when the log is read (`tcpdump`, a
 * command's start), with the fields and field order a record always had, and kept until the
 * next capture.
 */
import type { PacketHeader } from '../../protocol/trace';
import { HeaderColumns } from './capture-columns';

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
}

export class CaptureRing {
  private readonly seq: Float64Array;
  private readonly t: Float64Array;
  private readonly packetId: Float64Array;
  private readonly out: Uint8Array;
  private readonly host: string[];
  private readonly iface: string[];
  /**
   * The header of each record: a row of `headers`. A packet is captured on several interfaces
   * in a row with the same header object (a rewrite makes a new one): those records share the
   * row, written once. Rows are taken in turn round a ring as large as the records' (a record's
   * row is never older than the record, so the oldest record's row is still there: at most
   * `capacity - 1` rows were taken after it).
   */
  private readonly row: Int32Array;
  private readonly headers: HeaderColumns;
  private nextRow = 0;
  /** The header of the newest record and its row (undefined after a clear). */
  private lastHeader: PacketHeader | undefined;
  private lastRow = 0;
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
    this.row = new Int32Array(capacity);
    this.headers = new HeaderColumns(capacity);
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
    if (packet !== this.lastHeader) {
      this.lastHeader = packet;
      this.lastRow = this.nextRow;
      this.nextRow = this.nextRow + 1 === this.capacity ? 0 : this.nextRow + 1;
      this.headers.write(this.lastRow, packet);
    }
    this.row[slot] = this.lastRow;
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
    let row = -1;
    let packet: PacketHeader | undefined;
    for (let i = 0; i < this.size; i++) {
      const s = (this.start + i) % this.capacity;
      // Records that shared a header object share the rebuilt one.
      if (this.row[s] !== row) {
        row = this.row[s]!;
        packet = this.headers.read(row) as PacketHeader;
      }
      out.push({
        seq: this.seq[s]!,
        t: this.t[s]!,
        host: this.host[s]!,
        iface: this.iface[s]!,
        dir: this.out[s] === 1 ? 'out' : 'in',
        packetId: this.packetId[s]!,
        packet: packet!,
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
    this.headers.clear();
    this.lastHeader = undefined;
    this.nextRow = 0;
    this.built = undefined;
  }
}
