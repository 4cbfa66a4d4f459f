/**
 * describe.DescribePodTemplate (kubectl v1.32 pkg/describe/describe.go) for the fields a lab
 * template has, as `kubectl rollout history --revision=N` and `rollout undo --dry-run=client`
 * print it: through a PrefixWriter straight into a buffer — no tabwriter, so the `\t`s stay
 * tabs and a second label starts its line with a bare tab (printLabelsMultilineWithIndent).
 */
import type { Container, PodTemplate } from '../../model/cluster';

/** printLabelsMultiline / printLabelsMultilineWithIndent with initialIndent "", innerIndent "\t". */
function labelLines(title: string, labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return `${title}:\t<none>\n`;
  return keys.map((k, i) => `${i === 0 ? `${title}:\t` : '\t'}${k}=${labels[k]}\n`).join('');
}

const MAX_ANNOTATION_LEN = 140;

/** printAnnotationsMultiline: long or multi-line values go below their key, cut at 138. */
function annotationLines(title: string, annotations: Readonly<Record<string, string>>): string {
  const keys = Object.keys(annotations)
    .filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration')
    .sort();
  if (keys.length === 0) return `${title}:\t<none>\n`;
  return keys
    .map((k, i) => {
      const head = i === 0 ? `${title}:\t` : '\t';
      const value = (annotations[k] ?? '').replace(/\n$/, '');
      if (value.length + k.length + 2 <= MAX_ANNOTATION_LEN && !value.includes('\n'))
        return `${head}${k}: ${value}\n`;
      const cut = (s: string) =>
        s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s;
      return `${head}${k}:\n${value
        .split('\n')
        .map((s) => `\t  ${cut(s)}\n`)
        .join('')}`;
    })
    .join('');
}

/**
 * describeContainerBasicInfo + describeContainerEnvVars + describeContainerVolumes with no
 * status (a template has none). A hostNetwork template's hostPorts are its containerPorts
 * (the API server's defaulting, SetDefaults_PodSpec); otherwise hostPort is 0.
 */
function containerLines(c: Container, hostNetwork: boolean): string {
  const ports = c.ports.map((p) => `${p.containerPort}/${p.protocol}`).join(', ');
  const hostPorts = c.ports
    .map((p) => `${hostNetwork ? p.containerPort : 0}/${p.protocol}`)
    .join(', ');
  const line = (one: string, many: string, value: string) =>
    value.includes(',') ? `    ${many}:\t${value}\n` : `    ${one}:\t${value || '<none>'}\n`;
  return (
    `   ${c.name}:\n    Image:\t${c.image}\n` +
    line('Port', 'Ports', ports) +
    line('Host Port', 'Host Ports', hostPorts) +
    '    Environment:\t<none>\n    Mounts:\t<none>\n'
  );
}

export function describePodTemplate(t: PodTemplate): string {
  let s = 'Pod Template:\n';
  s += labelLines('  Labels', t.labels);
  if (Object.keys(t.annotations).length > 0) s += annotationLines('  Annotations', t.annotations);
  s += `  Containers:${t.containers.length === 0 ? ' <none>' : ''}\n`;
  for (const c of t.containers) s += containerLines(c, t.hostNetwork);
  // The lab's templates have no volumes, node selectors or tolerations.
  s += '  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n';
  return s;
}
