/**
 * Test-only: applies restore inputs to a model of the kernel's tables, so that the effect
 * of a sequence of (partial) syncs can be compared with that of one full sync.
 */

/** Table → chain → rules. */
export type Kernel = Map<string, Map<string, string[]>>;

/** Minimal `iptables-restore --noflush`: `:C` creates or flushes, `-A` appends, `-X` deletes. */
export function applyRestore(kernel: Kernel, input: string): void {
  let table: Map<string, string[]> | undefined;
  for (const line of input.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('*')) {
      const name = line.slice(1);
      table = kernel.get(name) ?? new Map<string, string[]>();
      kernel.set(name, table);
    } else if (line === 'COMMIT') table = undefined;
    else if (!table) throw new Error(`outside a table: ${line}`);
    else if (line.startsWith(':')) table.set(line.slice(1, line.indexOf(' ')), []);
    else if (line.startsWith('-X ')) table.delete(line.slice(3));
    else if (line.startsWith('-A ')) {
      const chain = line.split(' ')[1] ?? '';
      const rules = table.get(chain);
      if (!rules) throw new Error(`append to missing chain: ${line}`);
      rules.push(line);
    } else throw new Error(`unexpected line: ${line}`);
  }
}

/** Tables → chains (sorted by name) → rules, for comparisons. */
export const kernelSnapshot = (kernel: Kernel): Record<string, Record<string, string[]>> =>
  Object.fromEntries(
    [...kernel].map(([t, chains]) => [t, Object.fromEntries([...chains].sort())] as const),
  );
