/**
 * The lab protocol: what the web lab asks the engine's worker (src/worker) and what it gets
 * back. Types only, JSON-safe, so every answer crosses postMessage unchanged and a session can
 * be replayed from its requests. The UI never imports the engine; it speaks this.
 *
 * Bump LAB_PROTOCOL_VERSION on any change a consumer could notice; the UI checks it at start.
 */
import type { CheckResult } from './lessons';
import type { TraceStep } from './trace';

/**
 * v4: a send may be ICMP (`protocol: 'icmp'`, a ping). v5: a command's answer carries
 * `terminal`, stdout and stderr in the order a terminal shows them. v6: and `notes`, the
 * lab's own lines in it, so the UI can show them in the user's language. v7: `run` takes the
 * terminal's width (`ss` spreads its table over it). v8: an apply's rule diff is per table
 * (iptables, ipset, IPVS, nftables), each listing compared with itself; a scenario with no
 * objects or no Node is refused (`refused`). v9: a send with bad input is refused field by
 * field (`SendAnswer.problems`, no runs) instead of running with a clamped count or failing
 * with English text.
 */
export const LAB_PROTOCOL_VERSION = 9;

/** A scenario problem, positioned as the engine reports it (1-based line and column). */
export interface LabDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly line: number;
  readonly col: number;
}

export type ProxyModeName = 'iptables' | 'ipvs' | 'nftables';

/** Where a command runs, written as a script target: `node-1`, `pod/NS/NAME`, `laptop`. */
export type HostTarget = string;

export interface TopoInterface {
  readonly name: string;
  readonly type: 'loopback' | 'nic' | 'bridge' | 'veth' | 'dummy';
  readonly addresses: readonly string[];
  /** For a pod's veth on the node: the pod it leads to (`pod/NS/NAME`). */
  readonly pod?: HostTarget;
}

export interface TopoPod {
  readonly target: HostTarget;
  readonly namespace: string;
  readonly name: string;
  readonly ip: string;
  readonly node: string;
  /** The node-side end of the pod's veth pair. */
  readonly veth?: string;
  readonly ready: boolean;
}

export interface TopoNode {
  readonly name: string;
  readonly internalIP: string;
  readonly podCIDR: string;
  readonly interfaces: readonly TopoInterface[];
  readonly pods: readonly TopoPod[];
  /** net.bridge.bridge-nf-call-iptables on this node ('1' or '0'). */
  readonly bridgeNfCallIptables: string;
}

export interface TopoServicePort {
  readonly name: string;
  readonly protocol: 'TCP' | 'UDP' | 'SCTP';
  readonly port: number;
  readonly nodePort: number;
}

export interface TopoService {
  readonly namespace: string;
  readonly name: string;
  readonly type: string;
  readonly clusterIP: string;
  readonly ports: readonly TopoServicePort[];
}

/** The running cluster as the graph and the pickers need it. */
export interface Topology {
  readonly nodes: readonly TopoNode[];
  readonly externals: readonly { readonly name: string; readonly address: string }[];
  readonly services: readonly TopoService[];
  readonly mode: ProxyModeName;
  readonly hairpinMode: string;
  readonly masqueradeAll: boolean;
  /** kube-proxy's last error on some node (e.g. a mode the lab does not model yet). */
  readonly proxyErrors: readonly string[];
}

/** The kernel tables whose listings an apply compares (each with its own listing). */
export type RuleTable = 'iptables' | 'ipset' | 'ipvs' | 'nftables';

/** What changed in one table's listing (`command`'s output lines) after an apply. */
export interface TableDiff {
  readonly table: RuleTable;
  /** The listing compared, as a terminal would run it: `iptables-save`, `ipvsadm -Ln`, … */
  readonly command: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** What changed in one node's tables after an apply; only tables that changed are listed. */
export interface RuleDiff {
  readonly node: string;
  readonly tables: readonly TableDiff[];
}

/**
 * Why a document without errors was still refused: `noObjects`, nothing but comments (as
 * `kubectl apply` says "no objects passed to apply"); `noNodes`, objects but no Node, so there
 * is nowhere for kube-proxy to run. The last good cluster keeps running either way.
 */
export type ScenarioRefusal = 'noObjects' | 'noNodes';

export interface LoadAnswer {
  /** False: the document has errors and the last good cluster keeps running. */
  readonly accepted: boolean;
  readonly diagnostics: readonly LabDiagnostic[];
  readonly topology: Topology;
  readonly ruleDiffs: readonly RuleDiff[];
  /** Set when the document had no errors but was refused all the same. */
  readonly refused?: ScenarioRefusal;
}

/** A trace step with its explanation already rendered in English (the id is in `why`). */
export type LabStep = TraceStep & { readonly text: string };

export type Destination =
  | {
      readonly kind: 'service';
      readonly namespace: string;
      readonly name: string;
      readonly port: number;
    }
  | { readonly kind: 'address'; readonly ip: string; readonly port: number };

export interface SendRequest {
  readonly from: HostTarget;
  readonly to: Destination;
  /** `icmp`: an echo request (ping) to the destination's address; the port is not used. */
  readonly protocol: 'tcp' | 'udp' | 'icmp';
  /** How many exchanges (each a new connection, as a client program run again). */
  readonly count: number;
}

/** A lab note in a terminal answer: line index in `terminal`, note id, parameters. */
export interface TerminalNote {
  readonly line: number;
  readonly id: string;
  readonly params: Readonly<Record<string, string>>;
}

export interface CommandAnswer {
  /** The prompt line as a terminal shows it: `pod/default/client$ dig …`. */
  readonly prompt: string;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as a terminal shows them: in the order the tool wrote them. */
  readonly terminal: string;
  /**
   * The lines of `terminal` that are the lab's own notes (`lab: ss is not modelled…`), not a
   * real tool's output: which note, with what parameters, for the UI to show in zh-CN.
   */
  readonly notes: readonly TerminalNote[];
  readonly exitCode: number;
  /** Every step of every packet the command caused. */
  readonly steps: readonly LabStep[];
  /**
   * Nothing ran: the line opens a here-document whose delimiter has not been typed, and the
   * terminal reads more lines after bash's continuation prompt `> ` (PS2), then sends them all.
   */
  readonly continues?: true;
}

/** The Send form's fields, as a send problem names them (`address`: the typed IP:port). */
export type SendField = 'from' | 'to' | 'address' | 'protocol' | 'count';

/**
 * Why a send was refused, for the UI to say in the learner's language next to the field:
 * `code` picks the message, `params` fill it (the refused text, the accepted range).
 */
export interface SendProblem {
  readonly field: SendField;
  readonly code:
    | 'sourceUnknown'
    | 'serviceUnknown'
    | 'serviceNoClusterIP'
    | 'addressEmpty'
    | 'addressNotIPv4'
    | 'portMissing'
    | 'portRange'
    | 'protocolUnknown'
    | 'countEmpty'
    | 'countRange';
  readonly params: Readonly<Record<string, string>>;
}

export interface SendAnswer {
  /** Set when the request was refused: nothing ran (runs empty, before = after). */
  readonly problems?: readonly SendProblem[];
  readonly runs: readonly CommandAnswer[];
  /** Every node's views just before the first packet (the animation starts from them). */
  readonly before: readonly Views[];
  readonly after: readonly Views[];
}

/** What the rules and conntrack panels show for one node. */
export interface Views {
  readonly node: string;
  /** The mode's rule listing: `iptables-save -c`, `ipvsadm -Ln`, or `nft list ruleset`. */
  readonly rules: string;
  readonly rulesCommand: string;
  /** `conntrack -L` stdout (entries) and stderr (the summary line). */
  readonly conntrack: string;
  readonly conntrackSummary: string;
  /** Virtual seconds since the lab started. */
  readonly now: number;
}

/** A setting the UI offers as a switch; the worker writes it into the scenario text. */
export type Setting =
  | { readonly kind: 'proxyMode'; readonly mode: ProxyModeName }
  | { readonly kind: 'bridgeNf'; readonly node: string; readonly on: boolean }
  | { readonly kind: 'hairpinMode'; readonly mode: 'hairpin-veth' | 'promiscuous-bridge' | 'none' }
  | { readonly kind: 'masqueradeAll'; readonly on: boolean };

/**
 * (v3) One point of the scale experiment, measured by the engine in the worker: N ClusterIP
 * Services × 10 endpoints in one proxy mode, on node-1 (see src/engine/sim/scale-experiment.ts).
 */
export interface ScaleFigures {
  readonly mode: ProxyModeName;
  readonly services: number;
  /** iptables rules (nat + filter), or nft rules in `ip kube-proxy`. */
  readonly rules: number;
  /** ipset members (IPVS) or nft set and map elements (nftables). */
  readonly setElements: number;
  readonly virtualServers: number;
  readonly realServers: number;
  /** Rules a new connection's first packet was evaluated against on node-1. */
  readonly firstPacketRules: number;
  /** Hash lookups among them (ipset, nft set/map, ip_vs service table). */
  readonly firstPacketLookups: number;
  /** node-1's boot and first sync, in the browser's milliseconds. */
  readonly firstSyncMs: number;
}

/** The worker's API (exposed with comlink); every method answers JSON-safe data. */
export interface LabApi {
  version(): number;
  /** The built-in scenario's text (the lab opens with it). */
  defaultScenario(): string;
  /** Replaces the world with a fresh one from this scenario (the clock and conntrack restart). */
  load(text: string): LoadAnswer;
  /** Applies an edited scenario to the running world; rejected whole if it has errors. */
  apply(text: string): LoadAnswer;
  /** Checks a scenario without running it. */
  validate(text: string): readonly LabDiagnostic[];
  send(req: SendRequest): SendAnswer;
  /** Every node's views. */
  allViews(): readonly Views[];
  /**
   * One terminal line on a host, against the running world; `columns`: the width of the
   * terminal it prints to (none: not a terminal of known width, as a lesson's output box).
   */
  run(host: HostTarget, line: string, columns?: number): CommandAnswer;
  views(node: string): Views;
  /** The running cluster now (after terminal commands that change it). */
  topology(): Topology;
  /** The scenario text with one setting changed (comments and layout kept). */
  withSetting(text: string, setting: Setting): string;
  /**
   * (v3) The scale experiment at `services` Services, every mode, on a throwaway cluster (the
   * running one is not touched).
   */
  scalePoint(services: number): readonly ScaleFigures[];
  /** A lesson step begins: its trace checks count what happens from now on. */
  lessonBeginStep(): void;
  /** Judges a lesson step's checks against the running lab (src/lessons). */
  lessonCheck(
    lessonId: string,
    stepIndex: number,
    answers: Readonly<Record<string, string>>,
  ): readonly CheckResult[];
}
