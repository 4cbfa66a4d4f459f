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
import { labNote, type LabNoteId } from '../model/lab-notes';
import type { CommandContext, CommandResult } from './registry';

/** The lab's own help, a line at a time from the notes catalogue (so zh-CN can show it). */
export const FLOW_USAGE = [
  labNote('flow.usage'),
  '       lab flow send NAME [-w SECONDS] [TEXT...]\n',
  '       lab flow close NAME\n',
  '       lab flow list\n',
  '\n',
  ...(['flow.help', 'flow.help-open', 'flow.help-send', 'flow.help-send-tcp', 'flow.help-send-udp', 'flow.help-send-end', 'flow.help-close', 'flow.help-list'] as const).map((id) => labNote(id)), // prettier-ignore
].join('');

const usage = (id: LabNoteId, params: Readonly<Record<string, string>> = {}): CommandResult => ({
  stdout: '',
  stderr: `${labNote(id, params)}${FLOW_USAGE}`,
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
    if (rest.length > 0) return usage('flow.list-args');
    const text = flows
      .list()
      .map((f) => `${f.name} ${f.proto} ${f.local} -> ${f.remote} ${f.state}\n`)
      .join('');
    return { stdout: text, stderr: '', exitCode: 0 };
  }
  if (!['open', 'send', 'close'].includes(sub)) return usage('flow.action', { action: sub });
  const name = rest[0];
  if (name === undefined) return usage('flow.name-needed', { action: sub });
  if (!NAME.test(name)) return usage('flow.name-invalid', { name });
  if (sub === 'close') {
    if (rest.length > 1) return usage('flow.close-args');
    const r = flows.close(name);
    return done(r.ok, r.text);
  }
  if (sub === 'open') {
    const [, proto, target, ...extra] = rest;
    if (proto !== 'tcp' && proto !== 'udp') return usage('flow.proto', { proto: proto ?? '' });
    if (target === undefined || extra.length > 0) return usage('flow.target');
    const address = parseAddress(target);
    if (address === undefined) return usage('flow.address', { target });
    const r = flows.open(name, proto, address.addr, address.port);
    return done(r.ok, r.text);
  }
  let waitMs: number | undefined;
  const words: string[] = [];
  for (let i = 1; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-w') {
      const v = rest[++i];
      if (v === undefined || !/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) return usage('flow.wait');
      waitMs = Math.round(Number(v) * 1000);
    } else words.push(a);
  }
  const r = flows.send(name, words.length > 0 ? words.join(' ') : undefined, waitMs);
  return done(r.ok, r.text);
}
