/**
 * A knftables Transaction as text: every operation one line, `add|flush|delete OBJECT ip
 * kube-proxy …`, written as knftables' `writeOperation` does (objects.go): `{ type … ; comment
 * "…" ; }` specs, rules and elements with their comments, priorities as numbers (knftables
 * parses named priorities to numbers "because older versions of nft don't accept certain
 * named priorities in all contexts").
 */
export const TABLE = 'ip kube-proxy';

export interface ElementSpec {
  readonly key: readonly string[];
  readonly value?: string;
  readonly comment?: string;
}

export class Transaction {
  readonly lines: string[] = [];

  addTable(comment: string): void {
    this.lines.push(`add table ${TABLE} { comment "${comment}" ; }`);
  }
  deleteTable(): void {
    this.lines.push(`delete table ${TABLE}`);
  }
  addChain(
    name: string,
    opts: { base?: { type: string; hook: string; priority: number }; comment?: string } = {},
  ): void {
    const spec: string[] = [];
    if (opts.base)
      spec.push(`type ${opts.base.type} hook ${opts.base.hook} priority ${opts.base.priority} ;`);
    if (opts.comment !== undefined) spec.push(`comment "${opts.comment}" ;`);
    this.lines.push(`add chain ${TABLE} ${name}${spec.length ? ` { ${spec.join(' ')} }` : ''}`);
  }
  flushChain(name: string): void {
    this.lines.push(`flush chain ${TABLE} ${name}`);
  }
  deleteChain(name: string): void {
    this.lines.push(`delete chain ${TABLE} ${name}`);
  }
  addRule(chain: string, rule: string, comment?: string): void {
    this.lines.push(
      `add rule ${TABLE} ${chain} ${rule}${comment !== undefined ? ` comment "${comment}"` : ''}`,
    );
  }
  addSet(
    kind: 'set' | 'map',
    name: string,
    type: string,
    opts: { flags?: string; timeoutSeconds?: number; comment?: string } = {},
  ): void {
    const spec = [`type ${type} ;`];
    if (opts.flags !== undefined) spec.push(`flags ${opts.flags} ;`);
    if (opts.timeoutSeconds !== undefined) spec.push(`timeout ${opts.timeoutSeconds}s ;`);
    if (opts.comment !== undefined) spec.push(`comment "${opts.comment}" ;`);
    this.lines.push(`add ${kind} ${TABLE} ${name} { ${spec.join(' ')} }`);
  }
  flushSet(kind: 'set' | 'map', name: string): void {
    this.lines.push(`flush ${kind} ${TABLE} ${name}`);
  }
  deleteSet(kind: 'set' | 'map', name: string): void {
    this.lines.push(`delete ${kind} ${TABLE} ${name}`);
  }
  private element(verb: 'add' | 'delete', set: string, e: ElementSpec): void {
    const comment = e.comment !== undefined ? ` comment "${e.comment}"` : '';
    const value = e.value !== undefined ? ` : ${e.value}` : '';
    this.lines.push(`${verb} element ${TABLE} ${set} { ${e.key.join(' . ')}${comment}${value} }`);
  }
  addElement(set: string, e: ElementSpec): void {
    this.element('add', set, e);
  }
  deleteElement(set: string, e: ElementSpec): void {
    this.element('delete', set, { key: e.key });
  }
  text(): string {
    return this.lines.length === 0 ? '' : this.lines.join('\n') + '\n';
  }
}

/**
 * nftElementStorage (proxier.go): the elements kube-proxy believes a set or map holds, so a
 * partial sync only adds what is new, re-adds what changed (delete + add) and deletes what
 * is left over.
 */
export class ElementStorage {
  private elements = new Map<string, string>();
  private leftover = new Set<string>();

  constructor(
    readonly kind: 'set' | 'map',
    readonly name: string,
  ) {}

  /** A full sync flushes the container. */
  reset(tx: Transaction): void {
    tx.flushSet(this.kind, this.name);
    this.elements = new Map();
    this.leftover = new Set();
  }

  /** A partial sync starts from what is there; every key not ensured again is deleted. */
  beginPartial(): void {
    this.leftover = new Set(this.elements.keys());
  }

  ensure(tx: Transaction, e: ElementSpec): void {
    const key = e.key.join(' . ');
    const value = e.value ?? '';
    const existing = this.elements.get(key);
    if (existing !== undefined) {
      if (existing !== value) {
        tx.deleteElement(this.name, e);
        tx.addElement(this.name, e);
        this.elements.set(key, value);
      }
      this.leftover.delete(key);
      return;
    }
    tx.addElement(this.name, e);
    this.elements.set(key, value);
  }

  /** Deletes keys not ensured this sync (kube-proxy iterates a Go set; the lab sorts). */
  cleanupLeftover(tx: Transaction): void {
    for (const key of [...this.leftover].sort()) {
      tx.deleteElement(this.name, { key: key.split(' . ') });
      this.elements.delete(key);
    }
    this.leftover = new Set();
  }
}
