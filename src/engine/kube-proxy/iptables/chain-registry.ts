/**
 * The nat chains a proxier believes exist, and which of them are stale. kube-proxy deletes
 * every KUBE-SVC/SVL/SEP/FW/EXT chain it finds in the kernel (iptables-save) that the
 * current sync did not declare active. With ~100k chains, recomputing that difference and
 * sorting it on every sync is too slow, so the registry maintains it incrementally:
 *
 * - `active`: the chains current service-port fragments declare (`shared` counts the extra
 *   declarations of a chain declared by more than one, which only duplicate Services cause);
 * - `existing`: the chains the kernel holds once the last restore succeeded;
 * - `stale`: exactly the service chains in `existing` that are not active.
 *
 * The last commit is recorded so a rejected restore (applied all or nothing) can be undone.
 */
import { compareStrings } from '../service-port';

const SERVICE_CHAIN_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-SEP-', 'KUBE-FW-', 'KUBE-EXT-'];
export const isServiceChainName = (chain: string): boolean =>
  SERVICE_CHAIN_PREFIXES.some((p) => chain.startsWith(p));

export class NatChainRegistry {
  private existing = new Set<string>();
  private readonly active = new Set<string>();
  private readonly shared = new Map<string, number>();
  private readonly stale = new Set<string>();
  private lastCommit: { readonly added: string[]; readonly removed: readonly string[] } = {
    added: [],
    removed: [],
  };

  /** kube-proxy read the kernel's chains (iptables-save): they replace what we believed. */
  replaceExisting(chains: Iterable<string>): void {
    this.existing = new Set(chains);
    this.stale.clear();
    for (const chain of this.existing) this.markIfStale(chain);
  }

  /** A fragment now declares these chains. */
  claim(chains: readonly string[]): void {
    // One hash lookup per chain: `add` tells by the size whether the chain was new.
    for (const chain of chains) {
      const size = this.active.size;
      this.active.add(chain);
      if (this.active.size > size) {
        if (this.stale.size > 0) this.stale.delete(chain);
      } else this.shared.set(chain, (this.shared.get(chain) ?? 0) + 1);
    }
  }

  /** A fragment that declared these chains is gone. */
  release(chains: readonly string[]): void {
    for (const chain of chains) {
      const extra = this.shared.get(chain);
      if (extra !== undefined) {
        if (extra > 1) this.shared.set(chain, extra - 1);
        else this.shared.delete(chain);
        continue;
      }
      this.active.delete(chain);
      this.markIfStale(chain);
    }
  }

  /** Existing service chains nobody declares, in name order (kube-proxy: set-difference order). */
  staleChains(): string[] {
    return [...this.stale].sort(compareStrings);
  }

  /** The restore succeeded (as far as we know): `written` now exist, `deleted` do not. */
  commit(written: readonly string[], deleted: readonly string[]): void {
    const added: string[] = [];
    for (const chain of written) {
      const size = this.existing.size;
      if (this.existing.add(chain).size > size) added.push(chain);
    }
    for (const chain of deleted) {
      this.existing.delete(chain);
      this.stale.delete(chain);
    }
    this.lastCommit = { added, removed: deleted };
  }

  /** The last restore was rejected: the kernel holds what it held before it. */
  rollback(): void {
    const { added, removed } = this.lastCommit;
    for (const chain of added) {
      this.existing.delete(chain);
      this.stale.delete(chain);
    }
    for (const chain of removed) {
      this.existing.add(chain);
      this.markIfStale(chain);
    }
    this.lastCommit = { added: [], removed: [] };
  }

  /** The chains believed to exist, in name order. */
  chains(): string[] {
    return [...this.existing].sort(compareStrings);
  }

  private markIfStale(chain: string): void {
    if (this.existing.has(chain) && !this.active.has(chain) && isServiceChainName(chain)) {
      this.stale.add(chain);
    }
  }
}
