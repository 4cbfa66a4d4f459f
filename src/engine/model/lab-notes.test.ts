import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAB_NOTES, labNote, noteParams, readLabNotes, type LabNoteId } from './lab-notes';

const ids = Object.keys(LAB_NOTES) as LabNoteId[];

/** Parameter values as the commands produce them: spaces, backticks, dots, slashes, dashes. */
const SAMPLE: Readonly<Record<string, string>> = {
  command: 'tracepath',
  file: 'index.html',
  filter: 'state established',
  path: '/etc/passwd',
  program: 'nc',
  minutes: '15',
  option: '--cacert',
  what: 'neigh show dev eth0',
  key: 'net.netfilter.nf_conntrack_max',
  keys: 'net.bridge.bridge-nf-call-iptables, net.ipv4.ip_forward, net.ipv4.vs.conntrack',
  format: 'jsonpath={.items[*]}',
  verb: 'get',
  host: 'pod/default/gone',
  type: 'daemonsets',
  scheme: 'https',
  ports: '80-90',
  server: 'kube-dns.kube-system',
  options: '--zone, --label',
  value: 'infinity',
  variable: 'json',
  tool: 'sort',
  keyword: 'while',
  target: 'deploy/web',
  container: 'sidecar',
  containers: 'web',
  action: 'open',
  name: 'f1',
  proto: 'tcp',
  error: 'Connection refused',
  addr: '10.96.1.1',
  port: '81',
  seconds: '2',
  mode: 'nftables',
  reason: 'a test that failed: /spec/type',
  rounds: '1000',
  max: '1000',
  conversion: 'f',
  count: '2',
  mask: '255.0.255.0',
  word: '{1..2000000}',
  types: 'hash:ip, hash:net',
  protocol: 'icmp',
  element: '10.0.0.0/1',
  operands: '0 0.5 1e6',
  dnsClass: 'CH',
  names: 'a b',
  url: 'https://example.com/web.yaml',
  kind: 'ConfigMap',
  form: '${!X}',
  revision: '3',
  steps: '20000000',
};

describe('lab notes', () => {
  it.each(ids)('%s reads back as itself with its parameters', (id) => {
    const params = Object.fromEntries(noteParams(LAB_NOTES[id]).map((p) => [p, SAMPLE[p]!]));
    expect(Object.values(params)).not.toContain(undefined);
    const text = `some output\n${labNote(id, params)}more output\n`;
    expect(readLabNotes(text)).toEqual([{ line: 1, id, params }]);
  });

  it('renders a note as one line ending in a newline', () => {
    expect(labNote('command.unmodelled', { command: 'ss' })).toMatch(
      /^lab: ss is not modelled in kube-proxy-lab; it runs iptables, [^\n]* and lab\n$/,
    );
    expect(labNote('kubectl.describe', { type: 'pods' })).toBe(
      'lab: `kubectl describe pods` is not modelled in kube-proxy-lab (try kubectl get pods -o yaml)\n',
    );
  });

  it("finds no note in a real tool's own messages", () => {
    const real = [
      "curl: (7) Failed to connect to 10.96.1.1 port 81 after 1 ms: Couldn't connect to server",
      "nc: invalid option -- 'x'",
      'lab flow: no such flow f1',
      'tcpdump: eth9: No such device exists',
      'conntrack v1.4.7 (conntrack-tools): 3 flow entries have been shown.',
      'sysctl: cannot stat /proc/sys/net/foo: No such file or directory',
      '-A KUBE-SERVICES -m comment --comment "lab: not a note" -j RETURN',
      'lab: ',
    ].join('\n');
    expect(readLabNotes(real)).toEqual([]);
  });

  it('is where every note of the engine comes from (no note text written anywhere else)', () => {
    const root = join(__dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(path);
      }
    };
    walk(root);
    // A string that starts like a note: `lab: …`, or a tool's name then words about the lab.
    const noteLike =
      /['"`}](?:lab: |lab shell: |[a-z-]+: (?:\(\d+\) )?[^'"`\n]*\b(?:the lab|kube-proxy-lab)\b)/;
    const offenders = files
      .filter((f) => !f.endsWith(join('model', 'lab-notes.ts')))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => noteLike.test(l) && !/^\s*(\*|\/\/)/.test(l))
          .map((l) => `${f}: ${l.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
