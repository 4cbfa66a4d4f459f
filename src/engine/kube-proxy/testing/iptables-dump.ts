/**
 * The normalisation kube-proxy's own tests apply before comparing restore input
 * (pkg/proxy/iptables/proxier_test.go `sortIPTablesRules`, on top of
 * pkg/util/iptables/testing `ParseIPTablesDump` and `IPTablesDump.String`):
 *
 * - tables sorted by name; in each, chains KUBE-NODEPORTS, KUBE-SERVICES, then the other
 *   KUBE-* chains alphabetically, then the rest;
 * - rules grouped per chain (in that chain order), then the `-X` lines of deleted chains;
 * - KUBE-NODEPORTS (both tables) and KUBE-SERVICES (both tables) stably sorted by the
 *   service name in the comment (up to the first space or colon), the "must be the last
 *   rule" rule staying last in nat KUBE-SERVICES.
 */
interface DumpChain {
  readonly name: string;
  readonly counters: string;
  readonly rules: string[];
  deleted: boolean;
}

interface DumpTable {
  readonly name: string;
  readonly chains: DumpChain[];
}

export function parseRestoreInput(data: string): DumpTable[] {
  const tables: DumpTable[] = [];
  let table: DumpTable | undefined;
  let declaring = false;
  for (const raw of data.trim().split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (table === undefined) {
      if (!line.startsWith('*')) throw new Error(`expected a table, got ${line}`);
      table = { name: line.slice(1), chains: [] };
      tables.push(table);
      declaring = true;
      continue;
    }
    const decl = declaring ? /^:(\S*) - \[(\d*):(\d*)\]$/.exec(line) : null;
    if (decl) {
      table.chains.push({
        name: decl[1] ?? '',
        counters: `${decl[2]}:${decl[3]}`,
        rules: [],
        deleted: false,
      });
      continue;
    }
    declaring = false;
    const chainOf = (name: string): DumpChain => {
      const chain = table?.chains.find((c) => c.name === name);
      if (!chain) throw new Error(`chain ${name} not declared (${line})`);
      return chain;
    };
    if (line.startsWith('-A ')) chainOf(line.split(' ')[1] ?? '').rules.push(line);
    else if (line.startsWith('-X ')) chainOf(line.slice(3)).deleted = true;
    else if (line === 'COMMIT') table = undefined;
    else throw new Error(`cannot parse ${line}`);
  }
  if (table !== undefined) throw new Error('no COMMIT line');
  return tables;
}

/** `Rule.Comment`: the word after `--comment`, where a "quoted string" is one word. */
function ruleComment(rule: string): string | undefined {
  const words = [...rule.matchAll(/(?:^|\s)("[^"]*"|[^"]\S*)/g)].map((m) =>
    (m[1] ?? '').replace(/^"|"$/g, ''),
  );
  const i = words.indexOf('--comment');
  return i >= 0 ? words[i + 1] : undefined;
}

function serviceNameOf(comment: string): string {
  const i = comment.search(/[ :]/);
  return i === -1 ? comment : comment.slice(0, i);
}

/** A comparator from Go's `less`: a strict "comes before" test. */
function fromLess<T>(less: (a: T, b: T) => boolean): (a: T, b: T) => number {
  return (a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0);
}

const byCommentServiceName = (a: string, b: string): boolean => {
  const ca = ruleComment(a);
  const cb = ruleComment(b);
  if (ca === undefined || cb === undefined) return false;
  return serviceNameOf(ca) < serviceNameOf(cb);
};

function chainLess(a: DumpChain, b: DumpChain): boolean {
  const rank = (c: DumpChain): number =>
    c.name === 'KUBE-NODEPORTS'
      ? 0
      : c.name === 'KUBE-SERVICES'
        ? 1
        : c.name.startsWith('KUBE-')
          ? 2
          : 3;
  const ra = rank(a);
  const rb = rank(b);
  return ra !== rb ? ra < rb : a.name < b.name;
}

export function sortRestoreInput(data: string): string {
  const tables = parseRestoreInput(data).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  let out = '';
  for (const table of tables) {
    table.chains.sort(fromLess(chainLess));
    for (const chain of table.chains) {
      if (chain.name === 'KUBE-NODEPORTS') chain.rules.sort(fromLess(byCommentServiceName));
      if (chain.name === 'KUBE-SERVICES' && table.name === 'filter') {
        chain.rules.sort(fromLess(byCommentServiceName));
      }
      if (chain.name === 'KUBE-SERVICES' && table.name === 'nat') {
        const last = (r: string): boolean =>
          (ruleComment(r) ?? '').includes('must be the last rule');
        chain.rules.sort(
          fromLess((a, b) => (last(a) ? false : last(b) ? true : byCommentServiceName(a, b))),
        );
      }
    }
    out += `*${table.name}\n`;
    for (const chain of table.chains) out += `:${chain.name} - [${chain.counters}]\n`;
    for (const chain of table.chains) for (const rule of chain.rules) out += `${rule}\n`;
    for (const chain of table.chains) if (chain.deleted) out += `-X ${chain.name}\n`;
    out += 'COMMIT\n';
  }
  return out;
}

/**
 * Our restore input in the form upstream's expected dumps use: the fake proxier's mark is
 * the literal "0x4000" (real kube-proxy writes Go's %#08x, 0x00004000), then sorted.
 */
export function asUpstream(restoreInput: string): string {
  return sortRestoreInput(restoreInput.replaceAll('0x00004000', '0x4000'));
}

/** Strips the common leading indentation of a template literal (Go's dedent.Dedent). */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indents = lines
    .filter((l) => l.trim() !== '')
    .map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = Math.min(...indents);
  return lines
    .map((l) => l.slice(cut))
    .join('\n')
    .replace(/[ \t]+$/, '');
}

/** The lines of one table of a restore input (without `*table` and `COMMIT`). */
export function tableLines(data: string, table: 'filter' | 'nat'): string[] {
  const lines = data.split('\n');
  const start = lines.indexOf(`*${table}`);
  const end = lines.indexOf('COMMIT', start);
  return lines.slice(start + 1, end);
}

/** The `-A <chain> …` lines of one chain of one table, in restore order. */
export function chainRules(data: string, table: 'filter' | 'nat', chain: string): string[] {
  return tableLines(data, table).filter((l) => l.startsWith(`-A ${chain} `));
}

/** The chains a table declares, in restore order. */
export function declaredChains(data: string, table: 'filter' | 'nat'): string[] {
  return tableLines(data, table)
    .filter((l) => l.startsWith(':'))
    .map((l) => l.slice(1, l.indexOf(' ')));
}
