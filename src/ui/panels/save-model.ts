/** `iptables-save -c` text → tables of chains of rules, for the chain tree. */
export interface SavedRule {
  readonly table: string;
  readonly chain: string;
  /** 1-based position in its chain. */
  readonly num: number;
  /** The rule as iptables-save prints it, without the counters. */
  readonly text: string;
  /** The jump/goto target, if any. */
  readonly target: string | undefined;
  /** Line index in the save text. */
  readonly line: number;
}

export interface SavedTable {
  readonly name: string;
  readonly chains: ReadonlyMap<string, { policy: string; rules: SavedRule[] }>;
}

export function parseSave(text: string): SavedTable[] {
  const tables: SavedTable[] = [];
  let chains = new Map<string, { policy: string; rules: SavedRule[] }>();
  let table = '';
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('*')) {
      table = line.slice(1);
      chains = new Map();
      tables.push({ name: table, chains });
    } else if (line.startsWith(':')) {
      const [name = '', policy = '-'] = line.slice(1).split(' ');
      chains.set(name, { policy, rules: [] });
    } else {
      const m = /^(?:\[\d+:\d+\] )?(-A (\S+).*)$/.exec(line);
      if (m === null) return;
      const chain = m[2]!;
      let c = chains.get(chain);
      if (c === undefined) chains.set(chain, (c = { policy: '-', rules: [] }));
      const target = / -[jg] (\S+)/.exec(m[1]!)?.[1];
      c.rules.push({ table, chain, num: c.rules.length + 1, text: m[1]!, target, line: index });
    }
  });
  return tables;
}

/** The built-in chains a table has, in the order packets meet them. */
export const BUILTIN_ORDER = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];
