/**
 * A problem found in a scenario, placed like an API server / kubectl error: which document,
 * which line and column (1-based), and a message in the API server's words.
 */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** 1-based line and column in the scenario text. */
  readonly line: number;
  readonly col: number;
  /** 0-based index of the YAML document in the file; -1 when the problem is not tied to one. */
  readonly doc: number;
  /** e.g. `Service default/web`, when known. */
  readonly object?: string;
  /** e.g. `spec.ports[0].nodePort`, when the problem is a field's. */
  readonly field?: string;
}

/** `FILE:LINE:COL: message`, the form `kube-proxy-lab check` prints. */
export function diagnosticToString(file: string, d: Diagnostic): string {
  return `${file}:${d.line}:${d.col}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;
}
