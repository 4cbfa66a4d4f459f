/**
 * The `kubectl` command: subcommand dispatch and pflag-style flag parsing (flags anywhere among
 * the arguments, `--flag=value`, `-n NS`, `-nNS`, `-n=NS`, `--` ends flags) with cobra's errors
 * (`Error: unknown flag: --x`, `Error: unknown command "x" for "kubectl"` + "Did you mean this?").
 * The namespace defaults to `default`, as in a fresh kubeconfig context.
 */
import type { CommandContext, CommandRegistry, CommandResult } from '../registry';
import { registerCommand } from '../registry';
import { runApply } from './apply';
import { runDescribe } from './describe';
import { runExec } from './exec';
import { runCreate } from './create';
import { runExpose } from './expose';
import { runLabel } from './label';
import { runPatch } from './patch';
import { outputFormat, runGet, type GetOptions } from './get';
import { LAB_NODE_INFO } from './objects-node';
import { runRollout, runScale } from './workloads';
import { runDelete } from './delete';
import { filenameValues } from './filenames';
import { labNote } from '../../model/lab-notes';

interface FlagSpec {
  readonly long: string;
  readonly short?: string;
  readonly value: boolean;
}

const GLOBAL: FlagSpec[] = [{ long: 'namespace', short: 'n', value: true }];
const SUBCOMMAND_FLAGS: Record<string, FlagSpec[]> = {
  get: [
    { long: 'all-namespaces', short: 'A', value: false },
    { long: 'output', short: 'o', value: true },
    { long: 'show-labels', value: false },
    { long: 'no-headers', value: false },
    { long: 'selector', short: 'l', value: true },
    { long: 'watch', short: 'w', value: false },
  ],
  describe: [{ long: 'all-namespaces', short: 'A', value: false }],
  apply: [
    { long: 'filename', short: 'f', value: true },
    { long: 'recursive', short: 'R', value: false },
  ],
  scale: [{ long: 'replicas', value: true }],
  delete: [
    { long: 'wait', value: false },
    { long: 'grace-period', value: true },
    { long: 'now', value: false },
    { long: 'force', value: false },
    { long: 'ignore-not-found', value: false },
    { long: 'filename', short: 'f', value: true },
    { long: 'recursive', short: 'R', value: false },
  ],
  expose: [
    ...['port', 'target-port', 'protocol', 'name', 'type', 'external-ip', 'selector'].map(
      (long) => ({ long, value: true }),
    ),
    { long: 'labels', short: 'l', value: true },
    { long: 'session-affinity', value: true },
    { long: 'cluster-ip', value: true },
    // kubectl's other expose flags, which the lab does not model (a note says so).
    ...['load-balancer-ip', 'overrides', 'field-manager'].map((long) => ({ long, value: true })),
    { long: 'output', short: 'o', value: true },
    { long: 'filename', short: 'f', value: true },
    ...['dry-run', 'save-config', 'record'].map((long) => ({ long, value: false })),
  ],
  create: [
    { long: 'image', value: true },
    { long: 'replicas', short: 'r', value: true },
    ...['port', 'tcp', 'clusterip', 'node-port', 'external-name'].map((long) => ({ long, value: true })), // prettier-ignore
    // kubectl's other create flags, which the lab does not model (a note says so).
    { long: 'filename', short: 'f', value: true },
    { long: 'output', short: 'o', value: true },
    { long: 'field-manager', value: true },
    ...['dry-run', 'save-config', 'edit', 'raw', 'validate'].map((long) => ({ long, value: false })), // prettier-ignore
  ],
  label: [
    { long: 'overwrite', value: false },
    // kubectl's other label flags, which the lab does not model (a note says so).
    { long: 'selector', short: 'l', value: true },
    { long: 'filename', short: 'f', value: true },
    { long: 'output', short: 'o', value: true },
    { long: 'resource-version', value: true },
    ...['list', 'all', 'dry-run', 'local'].map((long) => ({ long, value: false })),
  ],
  patch: [
    { long: 'patch', short: 'p', value: true },
    { long: 'type', value: true },
    { long: 'patch-file', value: true },
    // kubectl's other patch flags, which the lab does not model (a note says so).
    { long: 'output', short: 'o', value: true },
    { long: 'filename', short: 'f', value: true },
    { long: 'subresource', value: true },
    { long: 'field-manager', value: true },
    ...['dry-run', 'local'].map((long) => ({ long, value: false })),
  ],
  rollout: [],
  version: [{ long: 'client', value: false }],
  exec: [
    { long: 'stdin', short: 'i', value: false },
    { long: 'tty', short: 't', value: false },
    { long: 'container', short: 'c', value: true },
  ],
};

/** The flags history and undo share with every builder command, which the lab does not model. */
const ROLLOUT_UNMODELLED: FlagSpec[] = [
  { long: 'output', short: 'o', value: true },
  { long: 'selector', short: 'l', value: true },
  { long: 'filename', short: 'f', value: true },
  { long: 'kustomize', short: 'k', value: true },
  { long: 'recursive', short: 'R', value: false },
];
/** Each `kubectl rollout` subcommand's own flags (rollout_history.go, rollout_undo.go). */
const ROLLOUT_FLAGS: Record<string, FlagSpec[]> = {
  history: [{ long: 'revision', value: true }, ...ROLLOUT_UNMODELLED],
  // --dry-run is a string flag with a no-value default: `--dry-run client` is not its value.
  undo: [
    { long: 'to-revision', value: true },
    { long: 'dry-run', value: false },
    ...ROLLOUT_UNMODELLED,
  ],
};

/** kubectl's commands in registration order (cobra suggests in this order; sorting is off). */
const COMMANDS = [
  'create',
  'expose',
  'run',
  'set',
  'explain',
  'get',
  'edit',
  'delete',
  'rollout',
  'scale',
  'autoscale',
  'certificate',
  'cluster-info',
  'top',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'describe',
  'logs',
  'attach',
  'exec',
  'port-forward',
  'proxy',
  'cp',
  'auth',
  'debug',
  'events',
  'diff',
  'apply',
  'patch',
  'replace',
  'wait',
  'kustomize',
  'label',
  'annotate',
  'completion',
  'api-resources',
  'api-versions',
  'config',
  'plugin',
  'version',
  'options',
];

interface Parsed {
  flags: Map<string, string[]>;
  positionals: string[];
}

function parseFlags(
  args: readonly string[],
  specs: readonly FlagSpec[],
  sub: string,
): Parsed | CommandResult {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  const usage = `See 'kubectl ${sub} --help' for usage.\n`;
  const err = (msg: string): CommandResult => ({
    stdout: '',
    stderr: `Error: ${msg}\n${usage}`,
    exitCode: 1,
  });
  const set = (spec: FlagSpec, v: string): void =>
    void flags.set(spec.long, [...(flags.get(spec.long) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') {
      for (const positional of args.slice(i + 1)) positionals.push(positional);
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=')
        ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a.slice(2), undefined];
      const spec = specs.find((s) => s.long === name);
      if (spec === undefined) return err(`unknown flag: --${name}`);
      if (!spec.value) set(spec, inline ?? 'true');
      else if (inline !== undefined) set(spec, inline);
      else if (i + 1 < args.length) set(spec, args[++i] ?? '');
      else return err(`flag needs an argument: --${name}`);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a.charAt(k);
        const spec = specs.find((s) => s.short === c);
        if (spec === undefined) return err(`unknown shorthand flag: '${c}' in ${a}`);
        if (!spec.value) {
          set(spec, 'true');
          continue;
        }
        const rest = a.slice(k + 1);
        if (rest !== '') set(spec, rest.startsWith('=') ? rest.slice(1) : rest);
        else if (i + 1 < args.length) set(spec, args[++i] ?? '');
        else return err(`flag needs an argument: '${c}' in ${a}`);
        break;
      }
    } else positionals.push(a);
  }
  return { flags, positionals };
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}

function unknownCommand(name: string): CommandResult {
  // cobra: suggest commands within Levenshtein distance 2 or starting with what was typed.
  const t = name.toLowerCase();
  const suggestions = COMMANDS.filter((c) => levenshtein(t, c) <= 2 || c.startsWith(t));
  const hint =
    suggestions.length === 0
      ? ''
      : `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}`;
  return {
    stdout: '',
    stderr: `Error: unknown command "${name}" for "kubectl"${hint}\n`,
    exitCode: 1,
  };
}

const last = (p: Parsed, long: string): string | undefined => p.flags.get(long)?.at(-1);
const isTrue = (p: Parsed, long: string): boolean => {
  const v = last(p, long);
  return v !== undefined && v !== 'false';
};

/** The first word that is not a flag or the namespace flag's value (cobra's subcommand). */
function firstWord(args: readonly string[]): string | undefined {
  return args.find(
    (a, i) => !a.startsWith('-') && !['-n', '--namespace'].includes(args[i - 1] ?? ''),
  );
}

export function kubectl(
  ctx: CommandContext,
  argv: string[],
  registry?: CommandRegistry,
): CommandResult {
  const args = argv.slice(1);
  const subIndex = args.findIndex(
    (a, i) => !a.startsWith('-') && !['-n', '--namespace'].includes(args[i - 1] ?? ''),
  );
  const sub = subIndex < 0 ? undefined : args[subIndex];
  if (sub === undefined)
    return {
      stdout: '',
      stderr: labNote('kubectl.no-command'),
      exitCode: 1,
    };
  const rest = [...args.slice(0, subIndex), ...args.slice(subIndex + 1)];
  const rolloutSub = sub === 'rollout' ? firstWord(rest) : undefined;
  const specs =
    rolloutSub !== undefined ? (ROLLOUT_FLAGS[rolloutSub] ?? []) : SUBCOMMAND_FLAGS[sub];
  if (specs === undefined) {
    if (COMMANDS.includes(sub))
      return {
        stdout: '',
        stderr: labNote('kubectl.unmodelled', { what: sub }),
        exitCode: 1,
      };
    return unknownCommand(sub);
  }
  // exec: the words after `--` are the command's, flags included.
  const dash = sub === 'exec' ? rest.indexOf('--') : -1;
  const usageName = rolloutSub !== undefined ? `rollout ${rolloutSub}` : sub;
  const parsed = parseFlags(
    dash < 0 ? rest : rest.slice(0, dash),
    [...GLOBAL, ...specs],
    usageName,
  );
  if ('exitCode' in parsed) return parsed;
  const namespace = last(parsed, 'namespace') ?? 'default';
  if (sub === 'exec' && registry !== undefined)
    return runExec(registry, ctx, {
      namespace,
      target: parsed.positionals,
      command: dash < 0 ? undefined : rest.slice(dash + 1),
      stdin: isTrue(parsed, 'stdin'),
      tty: isTrue(parsed, 'tty'),
      container: last(parsed, 'container'),
    });
  const world = ctx.world;
  if (sub === 'version') {
    const client = `Client Version: ${LAB_NODE_INFO.kubeletVersion}\nKustomize Version: v5.5.0\n`;
    return {
      stdout: isTrue(parsed, 'client')
        ? client
        : `${client}Server Version: ${LAB_NODE_INFO.kubeletVersion}\n`,
      stderr: '',
      exitCode: 0,
    };
  }
  const filenames = filenameValues(parsed.flags.get('filename') ?? []);
  if (sub === 'apply')
    return runApply(ctx, filenames, isTrue(parsed, 'recursive'), parsed.positionals);
  if (sub === 'scale')
    return runScale(ctx, namespace, parsed.positionals, last(parsed, 'replicas'));
  if (sub === 'delete')
    return runDelete(ctx, namespace, parsed.positionals, {
      wait: last(parsed, 'wait') !== 'false',
      gracePeriod: last(parsed, 'grace-period'),
      now: isTrue(parsed, 'now'),
      force: isTrue(parsed, 'force'),
      ignoreNotFound: isTrue(parsed, 'ignore-not-found'),
      filenames,
      recursive: isTrue(parsed, 'recursive'),
      namespaceGiven: last(parsed, 'namespace') !== undefined,
    });
  const unmodelledRollout = ROLLOUT_UNMODELLED.find((f) => parsed.flags.has(f.long));
  if (rolloutSub !== undefined && unmodelledRollout !== undefined)
    return { stdout: '', stderr: labNote('kubectl.unmodelled', { what: `rollout ${rolloutSub} --${unmodelledRollout.long}` }), exitCode: 1 }; // prettier-ignore
  if (sub === 'rollout')
    return runRollout(ctx, namespace, parsed.positionals, {
      revision: last(parsed, 'revision'),
      toRevision: last(parsed, 'to-revision'),
      dryRun: last(parsed, 'dry-run'),
    });
  if (sub === 'create') {
    const unmodelled = ['filename', 'output', 'field-manager', 'dry-run', 'save-config', 'edit', 'raw', 'validate'].find((f) => parsed.flags.has(f)); // prettier-ignore
    // A command after `--` is the containers' (create deployment NAME --image=I -- CMD…).
    if (rest.includes('--')) return { stdout: '', stderr: labNote('kubectl.unmodelled', { what: 'create deployment -- COMMAND' }), exitCode: 1 }; // prettier-ignore
    return runCreate(ctx, namespace, parsed.positionals, {
      images: (parsed.flags.get('image') ?? []).flatMap((i) => i.split(',')),
      replicas: last(parsed, 'replicas'),
      port: last(parsed, 'port'),
      tcp: parsed.flags.get('tcp') ?? [],
      clusterIP: last(parsed, 'clusterip'),
      nodePort: last(parsed, 'node-port'),
      externalName: last(parsed, 'external-name'),
      given: new Set(parsed.flags.keys()),
      unmodelled: unmodelled === undefined ? undefined : `--${unmodelled}`,
    });
  }
  if (sub === 'label') {
    const unmodelled = ['selector', 'filename', 'output', 'resource-version', 'list', 'all', 'dry-run', 'local'].find((f) => parsed.flags.has(f)); // prettier-ignore
    if (unmodelled !== undefined)
      return { stdout: '', stderr: labNote('kubectl.unmodelled', { what: `label --${unmodelled}` }), exitCode: 1 }; // prettier-ignore
    return runLabel(ctx, namespace, parsed.positionals, isTrue(parsed, 'overwrite'));
  }
  if (sub === 'patch') {
    const unmodelled = ['output', 'filename', 'subresource', 'field-manager', 'dry-run', 'local'].find((f) => parsed.flags.has(f)); // prettier-ignore
    return runPatch(ctx, namespace, parsed.positionals, {
      patch: last(parsed, 'patch'),
      patchFile: last(parsed, 'patch-file'),
      type: last(parsed, 'type'),
      unmodelled: unmodelled === undefined ? undefined : `--${unmodelled}`,
    });
  }
  if (sub === 'expose') {
    const unmodelled = ['load-balancer-ip', 'overrides', 'field-manager', 'output', 'filename', 'dry-run', 'save-config', 'record'].find((f) => parsed.flags.has(f)); // prettier-ignore
    return runExpose(ctx, namespace, parsed.positionals, {
      port: last(parsed, 'port'),
      targetPort: last(parsed, 'target-port'),
      protocol: last(parsed, 'protocol'),
      name: last(parsed, 'name'),
      type: last(parsed, 'type'),
      externalIP: last(parsed, 'external-ip'),
      selector: last(parsed, 'selector'),
      labels: last(parsed, 'labels'),
      sessionAffinity: last(parsed, 'session-affinity'),
      clusterIP: last(parsed, 'cluster-ip'),
      unmodelled: unmodelled === undefined ? undefined : `--${unmodelled}`,
    });
  }
  if (sub === 'describe') return runDescribe(world.cluster, namespace, parsed.positionals);
  if (isTrue(parsed, 'watch'))
    return {
      stdout: '',
      stderr: labNote('kubectl.watch'),
      exitCode: 1,
    };
  const out = last(parsed, 'output');
  const output = out === undefined ? '' : outputFormat(out);
  if (typeof output !== 'string') return output;
  const opts: GetOptions = {
    namespace,
    allNamespaces: isTrue(parsed, 'all-namespaces'),
    output,
    ...(output === 'jsonpath' ? { template: out!.slice('jsonpath='.length) } : {}),
    showLabels: isTrue(parsed, 'show-labels'),
    noHeaders: isTrue(parsed, 'no-headers'),
    selector: last(parsed, 'selector'),
  };
  const rowCtx = {
    cluster: world.cluster,
    epochSeconds: world.epochSeconds,
    nowSeconds: world.nowSeconds(),
    wide: output === 'wide',
  };
  return runGet(rowCtx, opts, parsed.positionals);
}

export function registerKubectl(registry: CommandRegistry): void {
  registerCommand(registry, 'kubectl', (ctx, argv) => kubectl(ctx, argv, registry));
}

export { humanDuration } from './duration';
export { tabwrite, GET_TABWRITER, DESCRIBE_TABWRITER } from './tabwriter';
export { toYaml, toJson, type Json } from './yaml';
export { kubeProxyConfigMap, kubeadmProxyConfig } from './configmap';
export { LAB_NODE_INFO } from './objects-node';
