/**
 * `lab flow`: named long-lived TCP or UDP flows from the host the command runs on, so that a
 * connection can outlive other commands (a rolling update under a long connection):
 *
 *   lab flow open NAME tcp|udp IP:PORT   connect() (TCP: waits for the handshake)
 *   lab flow send NAME [-w SECS] [TEXT]  write TEXT (TCP default: HTTP GET /, UDP: "hello"),
 *                                        print the answer or the error the client sees
 *   lab flow close NAME                  close() (TCP sends its FIN)
 *   lab flow list                        the flows of this host and their socket states
 */
import { ipIsValid } from '../model/ip';
import type { CommandContext, CommandResult } from './registry';

export const FLOW_USAGE = `Usage: lab flow open NAME tcp|udp IP:PORT
       lab flow send NAME [-w SECONDS] [TEXT...]
       lab flow close NAME
       lab flow list

A flow is a client socket this host keeps open across commands (a long-lived connection):
  open   connect to IP:PORT (a Service's ClusterIP, a pod…); TCP waits for the handshake
  send   write TEXT and read the answer, as a client program would: TCP sends an HTTP
         GET / (keep-alive) when TEXT is absent and prints the body of the answer; UDP sends
         one datagram ("hello" when TEXT is absent) and waits -w seconds (default 2) for one.
         The end of stream (the peer closed) or the socket's error (Connection reset by peer,
         Connection timed out, Connection refused…) is printed as the client sees it.
  close  close the socket (TCP sends its FIN)
  list   NAME PROTO LOCAL -> REMOTE STATE of each flow of this host
`;

const usage = (msg: string): CommandResult => ({
  stdout: '',
  stderr: `lab flow: ${msg}\n${FLOW_USAGE}`,
  exitCode: 2,
});

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function parseAddress(text: string): { addr: string; port: number } | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+):(\d{1,5})$/.exec(text);
  if (m === null || !ipIsValid(m[1]!)) return undefined;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { addr: m[1]!, port } : undefined;
}

const done = (ok: boolean, text: string): CommandResult =>
  ok
    ? { stdout: text, stderr: '', exitCode: 0 }
    : { stdout: '', stderr: text.endsWith('\n') ? text : `${text}\n`, exitCode: 1 };

export function runFlow(ctx: CommandContext, args: readonly string[]): CommandResult {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h')
    return { stdout: FLOW_USAGE, stderr: '', exitCode: sub === undefined ? 2 : 0 };
  const flows = ctx.world.flows();
  if (sub === 'list') {
    if (rest.length > 0) return usage(`list takes no arguments`);
    const text = flows
      .list()
      .map((f) => `${f.name} ${f.proto} ${f.local} -> ${f.remote} ${f.state}\n`)
      .join('');
    return { stdout: text, stderr: '', exitCode: 0 };
  }
  if (!['open', 'send', 'close'].includes(sub)) return usage(`unknown action "${sub}"`);
  const name = rest[0];
  if (name === undefined) return usage(`${sub}: a flow NAME is needed`);
  if (!NAME.test(name)) return usage(`invalid flow name "${name}"`);
  if (sub === 'close') {
    if (rest.length > 1) return usage(`close takes one NAME`);
    const r = flows.close(name);
    return done(r.ok, r.text);
  }
  if (sub === 'open') {
    const [, proto, target, ...extra] = rest;
    if (proto !== 'tcp' && proto !== 'udp')
      return usage(`open: protocol must be tcp or udp, not "${proto ?? ''}"`);
    if (target === undefined || extra.length > 0) return usage(`open: one IP:PORT is needed`);
    const address = parseAddress(target);
    if (address === undefined) return usage(`open: "${target}" is not an IPv4 address and port`);
    const r = flows.open(name, proto, address.addr, address.port);
    return done(r.ok, r.text);
  }
  let waitMs: number | undefined;
  const words: string[] = [];
  for (let i = 1; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-w') {
      const v = rest[++i];
      if (v === undefined || !/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0)
        return usage(`send: -w needs a number of seconds`);
      waitMs = Math.round(Number(v) * 1000);
    } else words.push(a);
  }
  const r = flows.send(name, words.length > 0 ? words.join(' ') : undefined, waitMs);
  return done(r.ok, r.text);
}
