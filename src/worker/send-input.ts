/**
 * What a send accepts, field by field: one set of rules for the Send form (which checks the
 * learner's text before anything is sent) and for the worker (which checks every request again,
 * since the protocol is an API and a request need not come from the form). Pure: no engine,
 * no DOM, so the UI may import it (ui → worker) and tests run it in Node.
 */
import type { Destination, SendProblem, SendRequest, Topology } from '../protocol/lab';

/**
 * Runs per send. 20 keeps one send's trace small enough to step through in the browser (the
 * worker clamped to this before v9; now it refuses instead, so nothing is silently changed).
 */
export const SEND_COUNT = { min: 1, max: 20 } as const;
/** A TCP or UDP port: 16 bits, and port 0 is not one a client can connect to (RFC 6335 §6). */
export const SEND_PORT = { min: 1, max: 65535 } as const;

type Problem = SendProblem;
type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; problem: Problem };

const COUNT_RANGE = { min: String(SEND_COUNT.min), max: String(SEND_COUNT.max) };
const PORT_RANGE = { min: String(SEND_PORT.min), max: String(SEND_PORT.max) };

/** Every host a send may start from, as the form lists them: pods, then nodes, then externals. */
export function sendSources(topology: Topology): string[] {
  return [
    ...topology.nodes.flatMap((n) => n.pods.map((p) => p.target)),
    ...topology.nodes.map((n) => n.name),
    ...topology.externals.map((e) => e.name),
  ];
}

/**
 * Dotted-quad IPv4 only: four decimal numbers 0–255 without leading zeros. inet_aton(3), which
 * ping and nc use, would read `010` as octal 8 and `10.1` as 10.0.0.1; the form asks for the
 * one spelling that means the same to everyone.
 */
export function isDottedIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

function portProblem(text: string): Problem | undefined {
  if (/^\d{1,5}$/.test(text) && Number(text) >= SEND_PORT.min && Number(text) <= SEND_PORT.max)
    return undefined;
  return { field: 'address', code: 'portRange', params: { text, ...PORT_RANGE } };
}

/**
 * The form's IP:port text. ICMP (ping) uses no port: the IP alone is enough, and port 0 in the
 * request means "none"; a port that is typed must still be a real one.
 */
export function parseAddressText(
  raw: string,
  protocol: SendRequest['protocol'],
): Parsed<{ ip: string; port: number }> {
  const text = raw.trim();
  if (text === '')
    return { ok: false, problem: { field: 'address', code: 'addressEmpty', params: {} } };
  const colon = text.lastIndexOf(':');
  const ip = colon < 0 ? text : text.slice(0, colon);
  if (!isDottedIPv4(ip))
    return {
      ok: false,
      problem: { field: 'address', code: 'addressNotIPv4', params: { text: ip } },
    };
  if (colon < 0) {
    if (protocol === 'icmp') return { ok: true, value: { ip, port: 0 } };
    return { ok: false, problem: { field: 'address', code: 'portMissing', params: PORT_RANGE } };
  }
  const problem = portProblem(text.slice(colon + 1));
  return problem
    ? { ok: false, problem }
    : { ok: true, value: { ip, port: Number(text.slice(colon + 1)) } };
}

/**
 * The form's count text: a whole number in SEND_COUNT, written as digits (`2.5`, `-1`, `1e9`
 * are refused, not rounded or clamped). `badInput`: the browser's number field held text it
 * could not read as a number (it then reports the value as empty).
 */
export function parseCountText(raw: string, badInput = false): Parsed<number> {
  const text = raw.trim();
  if (text === '' && !badInput)
    return { ok: false, problem: { field: 'count', code: 'countEmpty', params: COUNT_RANGE } };
  const n = Number(text);
  if (/^\d+$/.test(text) && n >= SEND_COUNT.min && n <= SEND_COUNT.max)
    return { ok: true, value: n };
  return {
    ok: false,
    problem: { field: 'count', code: 'countRange', params: { text, ...COUNT_RANGE } },
  };
}

function destinationProblem(
  to: Destination,
  req: SendRequest,
  topology: Topology,
): Problem | undefined {
  if (to.kind === 'service') {
    const name = `${String(to.namespace)}/${String(to.name)}`;
    const svc = topology.services.find((s) => s.namespace === to.namespace && s.name === to.name);
    if (svc === undefined) return { field: 'to', code: 'serviceUnknown', params: { name } };
    if (svc.clusterIP === '' || svc.clusterIP === 'None')
      return { field: 'to', code: 'serviceNoClusterIP', params: { name } };
    if (req.protocol === 'icmp') return undefined;
    const port = portProblem(String(to.port));
    return port && { ...port, field: 'to' };
  }
  if (to.kind !== 'address' || typeof to.ip !== 'string' || !isDottedIPv4(to.ip))
    return {
      field: 'address',
      code: 'addressNotIPv4',
      params: { text: String((to as { ip?: unknown }).ip) },
    };
  if (req.protocol === 'icmp' && to.port === 0) return undefined;
  return portProblem(String(to.port));
}

/**
 * Every problem of a request against the running cluster, in the form's field order; empty
 * when it may be sent. The worker's gate: it assumes nothing about where the request came from.
 */
export function sendRequestProblems(req: SendRequest, topology: Topology): Problem[] {
  const problems: Problem[] = [];
  if (typeof req.from !== 'string' || !sendSources(topology).includes(req.from))
    problems.push({ field: 'from', code: 'sourceUnknown', params: { name: String(req.from) } });
  const to: unknown = req.to;
  const dest =
    typeof to === 'object' && to !== null
      ? destinationProblem(to as Destination, req, topology)
      : ({ field: 'to', code: 'serviceUnknown', params: { name: String(to) } } as const);
  if (dest) problems.push(dest);
  if (!['tcp', 'udp', 'icmp'].includes(req.protocol))
    problems.push({
      field: 'protocol',
      code: 'protocolUnknown',
      params: { text: String(req.protocol) },
    });
  // A count that is not a number at all (JSON from elsewhere) is out of range, not "empty".
  const parsed: Parsed<number> =
    typeof req.count === 'number'
      ? parseCountText(String(req.count))
      : {
          ok: false,
          problem: {
            field: 'count',
            code: 'countRange',
            params: { text: String(req.count), ...COUNT_RANGE },
          },
        };
  if (!parsed.ok) problems.push(parsed.problem);
  return problems;
}
