/**
 * The output of kube-proxy's service loop, kept up to date across syncs so that a partial
 * sync costs in proportion to what changed (plus copying the restore input once).
 *
 * Every sync re-emits all ports' lines in the top-level chains, and the own chains of the
 * ports it writes (all of them on a full sync, those of UpdatedServices otherwise). Their
 * layout in the restore input, in port order:
 *   filter rules: every port's top-level filter lines;
 *   nat chains:   the written ports' chain declarations;
 *   nat rules:    every port's top-level nat lines, each written port's own rules right after
 *                 its top-level lines.
 * The section keeps all ports' top-level lines joined (rebuilt only when the port order or
 * some port's top-level lines change) and splices the written ports' own rules in; line
 * counts and per-port metrics are kept as running totals.
 */
import type { PortState } from './change-tracker';
import type { NatChainRegistry } from './chain-registry';
import type { PrebuiltLine } from '../../netfilter/restore-pieces';
import type { LineBuffer } from './line-buffer';
import { renderPortFragment, type FragmentEnv, type PortFragment } from './service-fragment';

export interface SectionBuffers {
  readonly filterRules: LineBuffer;
  readonly natChains: LineBuffer;
  readonly natRules: LineBuffer;
}

export interface SectionResult {
  readonly chainsWritten: readonly string[];
  /** namespace/names whose ports were written, in port order. */
  readonly servicesWritten: readonly string[];
  /** Own-chain rules of ports not written (kube-proxy still counts them). */
  readonly skippedNatRules: number;
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
}

export class ServiceSection {
  private order: readonly PortState[] = [];
  private joinedStale = true;
  private natTop = '';
  /** Per line of natTop, the parse the fragment's writer built (see LineBuffer.writeParsed()). */
  private natTopParses: (PrebuiltLine | undefined)[] = [];
  private filterTop = '';
  /** After port i: the offset in natTop where its lines end, and the lines up to there. */
  private natTopEnd: number[] = [];
  private natTopLinesTo: number[] = [];
  // Running totals over the current ports' fragments.
  private filterTopLines = 0;
  private ownRuleLines = 0;
  private noLocalInternal = 0;
  private noLocalExternal = 0;

  constructor(
    private readonly env: FragmentEnv,
    private readonly chains: NatChainRegistry,
  ) {}

  /** Fragments of ports that are gone. */
  release(fragments: readonly PortFragment[]): void {
    for (const fragment of fragments) this.detach(fragment);
  }

  /**
   * (Re)renders `ports`, keeping their fragment when it is current. `force` re-renders even
   * then (endpoints changed); otherwise only a fragment of another large-cluster mode goes.
   */
  render(ports: readonly PortState[], largeClusterMode: boolean, force: boolean): void {
    for (const port of ports) {
      const old = port.fragment;
      if (old && !force && old.largeClusterMode === largeClusterMode) continue;
      const fragment = renderPortFragment(this.env, port.info, port.endpoints, largeClusterMode);
      if (old) {
        this.detach(old);
        const sameTop =
          old.natRules.text === fragment.natRules.text &&
          old.filterRules.text === fragment.filterRules.text;
        if (!sameTop) this.joinedStale = true;
      }
      this.attach(fragment);
      port.fragment = fragment;
    }
  }

  /** Writes this sync's lines for `ports` (all, in order), with `written` ports' own chains. */
  write(
    b: SectionBuffers,
    ports: readonly PortState[],
    written: readonly PortState[],
  ): SectionResult {
    if (ports !== this.order || this.joinedStale) this.join(ports);
    b.filterRules.appendRange(this.filterTop, 0, this.filterTop.length, this.filterTopLines);

    const inOrder =
      written === ports ? ports : [...written].sort((x, y) => x.position - y.position);
    const chainsWritten: string[] = [];
    const servicesWritten = new Set<string>();
    let writtenRuleLines = 0;
    let from = 0;
    for (const port of inOrder) {
      const fragment = port.fragment!;
      servicesWritten.add(port.unitKey);
      for (const chain of fragment.chains) chainsWritten.push(chain);
      b.natChains.append(fragment.chainDeclarations);
      // The top-level lines up to and including this port's, as a range of the joined text
      // also when they are this port's alone (a full sync writes every port): the restore
      // then knows them as the same lines the next partial sync sends in one range.
      this.appendNatTop(b.natRules, from, port.position + 1);
      from = port.position + 1;
      b.natRules.append(fragment.chainRules);
      writtenRuleLines += fragment.chainRules.lines;
    }
    this.appendNatTop(b.natRules, from, ports.length);
    return {
      chainsWritten,
      servicesWritten: [...servicesWritten],
      skippedNatRules: this.ownRuleLines - writtenRuleLines,
      noLocalEndpointsInternal: this.noLocalInternal,
      noLocalEndpointsExternal: this.noLocalExternal,
    };
  }

  /** The top-level nat lines of ports [from, to). */
  private appendNatTop(natRules: LineBuffer, from: number, to: number): void {
    if (from >= to) return;
    const start = from === 0 ? 0 : this.natTopEnd[from - 1]!;
    const startLines = from === 0 ? 0 : this.natTopLinesTo[from - 1]!;
    natRules.appendRange(
      this.natTop,
      start,
      this.natTopEnd[to - 1]!,
      this.natTopLinesTo[to - 1]! - startLines,
      this.natTopParses,
    );
  }

  private join(ports: readonly PortState[]): void {
    const nat: string[] = [];
    const filter: string[] = [];
    const parses: (PrebuiltLine | undefined)[] = [];
    this.natTopEnd = [];
    this.natTopLinesTo = [];
    let offset = 0;
    let lines = 0;
    ports.forEach((port, i) => {
      const fragment = port.fragment!;
      port.position = i;
      nat.push(fragment.natRules.text);
      const own = fragment.natRules.parses;
      for (let k = 0; k < fragment.natRules.lines; k++) parses.push(own?.[k]);
      filter.push(fragment.filterRules.text);
      this.natTopEnd.push((offset += fragment.natRules.text.length));
      this.natTopLinesTo.push((lines += fragment.natRules.lines));
    });
    this.natTop = nat.join('');
    this.natTopParses = parses;
    this.filterTop = filter.join('');
    this.order = ports;
    this.joinedStale = false;
  }

  private attach(f: PortFragment): void {
    this.chains.claim(f.chains);
    this.filterTopLines += f.filterRules.lines;
    this.ownRuleLines += f.chainRules.lines;
    if (f.noLocalEndpointsInternal) this.noLocalInternal++;
    if (f.noLocalEndpointsExternal) this.noLocalExternal++;
  }

  private detach(f: PortFragment): void {
    this.chains.release(f.chains);
    this.filterTopLines -= f.filterRules.lines;
    this.ownRuleLines -= f.chainRules.lines;
    if (f.noLocalEndpointsInternal) this.noLocalInternal--;
    if (f.noLocalEndpointsExternal) this.noLocalExternal--;
  }
}
