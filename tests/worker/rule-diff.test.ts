/**
 * An apply's rule diff compares each kernel table with itself (src/worker/rule-diff.ts). It used
 * to compare the previous mode's listing with the new mode's, so switching to IPVS reported
 * `+30 −133`: every iptables rule "deleted" although `iptables-save` still printed them.
 * The check here is the terminal itself: a table's listing before the apply, minus the lines
 * the diff says were removed, plus those it says were added, is the listing after the apply,
 * line for line, as the same command prints it on the node.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/engine';
import type { RuleTable } from '../../src/protocol/lab';
import { LabSession } from '../../src/worker/lab-session';
import { TABLE_LISTINGS } from '../../src/worker/rule-diff';

const modeText = (lab: LabSession, mode: 'iptables' | 'ipvs' | 'nftables') =>
  lab.withSetting(DEFAULT_SCENARIO, { kind: 'proxyMode', mode });

/** Every table's lines on a node as the diff reads them, from the node's terminal. */
function tables(lab: LabSession, node: string): Map<RuleTable, string[]> {
  const out = new Map<RuleTable, string[]>();
  for (const listing of TABLE_LISTINGS) {
    const answer = lab.run(node, listing.command);
    out.set(listing.table, answer.exitCode === 0 ? listing.lines(answer.stdout) : []);
  }
  return out;
}

const sorted = (lines: readonly string[]) => [...lines].sort();

/** Applies `text` and checks that every table's diff turns its before listing into its after. */
function applyAndCheck(lab: LabSession, text: string) {
  const before = new Map(['node-1', 'node-2'].map((n) => [n, tables(lab, n)]));
  const answer = lab.apply(text);
  expect(answer.accepted).toBe(true);
  for (const [node, was] of before) {
    const now = tables(lab, node);
    const diff = answer.ruleDiffs.find((d) => d.node === node);
    for (const { table } of TABLE_LISTINGS) {
      const t = diff?.tables.find((x) => x.table === table);
      const rebuilt = [...(was.get(table) ?? [])];
      for (const line of t?.removed ?? []) rebuilt.splice(rebuilt.indexOf(line), 1);
      rebuilt.push(...(t?.added ?? []));
      expect(sorted(rebuilt), `${node} ${table}`).toEqual(sorted(now.get(table) ?? []));
    }
  }
  return answer;
}

const tableOf = (answer: ReturnType<LabSession['apply']>, node: string, table: RuleTable) =>
  answer.ruleDiffs.find((d) => d.node === node)?.tables.find((t) => t.table === table);

describe('the rule diff of an apply', () => {
  it('switching to IPVS: iptables-save against iptables-save, the IPVS table against itself', () => {
    const lab = new LabSession();
    const answer = applyAndCheck(lab, modeText(lab, 'ipvs'));
    const iptables = tableOf(answer, 'node-1', 'iptables')!;
    expect(iptables.command).toBe('iptables-save');
    // IPVS mode leaves kubelet's chains and the tables it does not own alone (README: the
    // modes leave each other's rules in place); only rules it rewrote are removed.
    for (const kept of ['*mangle', '*nat', ':KUBE-KUBELET-CANARY - [0:0]', 'COMMIT'])
      expect(iptables.removed).not.toContain(kept);
    expect(iptables.removed.length).toBeLessThan(20);
    // kube-proxy's IPVS proxier: one virtual server per ClusterIP:port, scheduler rr (its
    // default), each endpoint a real server forwarded by masquerading (Masq), weight 1.
    const ipvs = tableOf(answer, 'node-1', 'ipvs')!;
    expect(ipvs.command).toBe('ipvsadm -Ln');
    expect(ipvs.removed).toEqual([]);
    expect(ipvs.added).toContain('TCP  10.96.1.1:80 rr');
    expect(ipvs.added).toContain('TCP  10.96.1.1:80 rr  -> 10.244.0.4:8080 Masq 1 0 0');
    expect(ipvs.added).toContain('UDP  10.96.0.10:53 rr  -> 10.244.0.2:53 Masq 1 0 0');
    expect(tableOf(answer, 'node-1', 'ipset')!.added).toContain('add KUBE-CLUSTER-IP 10.96.1.1,tcp:80'); // prettier-ignore
  });

  it('an edit in IPVS mode shows the virtual server that moved, under its own table', () => {
    const lab = new LabSession();
    const ipvsText = modeText(lab, 'ipvs');
    lab.apply(ipvsText);
    const moved = ipvsText.replace(
      '  - port: 80\n    targetPort: http',
      '  - port: 8080\n    targetPort: http',
    );
    const answer = applyAndCheck(lab, moved);
    const ipvs = tableOf(answer, 'node-1', 'ipvs')!;
    expect(ipvs.added).toContain('TCP  10.96.1.1:8080 rr');
    expect(ipvs.removed).toContain('TCP  10.96.1.1:80 rr');
    // The real servers moved with their virtual server, so they name it.
    expect(ipvs.removed).toContain('TCP  10.96.1.1:80 rr  -> 10.244.0.4:8080 Masq 1 0 0');
  });

  it("switching to nftables compares kube-proxy's own nft table, not iptables-nft's again", () => {
    const lab = new LabSession();
    const answer = applyAndCheck(lab, modeText(lab, 'nftables'));
    const nft = tableOf(answer, 'node-1', 'nftables')!;
    expect(nft.command).toBe('nft list table ip kube-proxy');
    expect(nft.removed).toEqual([]);
    expect(nft.added[0]).toBe('table ip kube-proxy {');
    expect(nft.added.join('\n')).not.toContain('table ip nat');
    // And back: the table kube-proxy's nftables mode made goes, iptables' rules come back.
    applyAndCheck(lab, modeText(lab, 'iptables'));
  });

  it('an apply that changes nothing reports no table', () => {
    const lab = new LabSession();
    expect(lab.apply(DEFAULT_SCENARIO).ruleDiffs).toEqual([]);
  });
});
