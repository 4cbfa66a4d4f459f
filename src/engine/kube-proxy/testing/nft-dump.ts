/**
 * Test-only: what knftables' Fake keeps after a series of transactions, as the `add …` lines
 * of its Dump() (one per table, chain, set/map, rule and element, in the text kube-proxy
 * wrote), so the proxier's output can be compared with kube-proxy's own expected dumps
 * (pkg/proxy/nftables/proxier_test.go). Upstream compares them sorted; so do the tests.
 */
export function fakeDump(transactions: readonly string[]): string[] {
  let table: string | undefined;
  const chains = new Map<string, { decl: string; rules: string[] }>();
  const sets = new Map<string, { decl: string; elements: Map<string, string> }>();
  for (const tx of transactions) {
    for (const line of tx.split('\n')) {
      const w = line.split(' ');
      const [verb, object, , , name = ''] = w;
      if (object === 'table') {
        if (verb === 'add' && table === undefined) table = line;
        if (verb === 'delete') {
          table = undefined;
          chains.clear();
          sets.clear();
        }
      } else if (object === 'chain') {
        if (verb === 'add' && !chains.has(name)) chains.set(name, { decl: line, rules: [] });
        else if (verb === 'flush') chains.get(name)!.rules = [];
        else if (verb === 'delete') chains.delete(name);
      } else if (object === 'rule') chains.get(name)?.rules.push(line);
      else if (object === 'set' || object === 'map') {
        if (verb === 'add' && !sets.has(name)) sets.set(name, { decl: line, elements: new Map() });
        else if (verb === 'flush') sets.get(name)!.elements = new Map();
        else if (verb === 'delete') sets.delete(name);
      } else if (object === 'element') {
        const body = line.slice(line.indexOf('{') + 2, line.lastIndexOf('}') - 1);
        const key = body.split(/ comment | : /)[0]!;
        const elements = sets.get(name)!.elements;
        if (verb === 'add') elements.set(key, line);
        else elements.delete(key);
      }
    }
  }
  const out = table === undefined ? [] : [table];
  for (const s of sets.values()) out.push(s.decl, ...s.elements.values());
  for (const c of chains.values()) out.push(c.decl, ...c.rules);
  return out;
}

/** Upstream's expected dump: blank lines and `# svc` comments dropped, sorted. */
export function expectedDumpLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .sort();
}
