/**
 * Bad input never crashes the lab: any command line, on any host, returns a result (the real
 * tool's error where the input is wrong) and never throws. Seeded, so a failure replays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScript, World, DEFAULT_SCENARIO } from '../../src/engine';

const WORDS = [
  'iptables',
  'iptables-save',
  'iptables-restore',
  'kubectl',
  'ip',
  'lab',
  'grep',
  'head',
  'wc',
  '-t',
  'nat',
  'filter',
  'mangle',
  'raw',
  '-L',
  '-S',
  '-A',
  '-I',
  '-D',
  '-C',
  '-N',
  '-X',
  '-F',
  '-Z',
  '-P',
  '-n',
  '-v',
  '-x',
  '--line-numbers',
  'KUBE-SERVICES',
  'KUBE-SVC-TCOU7JCQXEZGVUNU',
  'INPUT',
  'FORWARD',
  '-j',
  'ACCEPT',
  'DROP',
  'RETURN',
  'DNAT',
  '--to-destination',
  '10.0.0.1:80',
  '-p',
  'tcp',
  'udp',
  '--dport',
  '80',
  '-m',
  'comment',
  '--comment',
  'x y',
  '-s',
  '10.0.0.0/8',
  '!',
  'get',
  'svc',
  'pods',
  'endpointslices',
  'nodes',
  'configmap',
  'kube-proxy',
  '-n',
  'kube-system',
  '-A',
  '-o',
  'wide',
  'yaml',
  'name',
  'apply',
  '-f',
  'x.yaml',
  'describe',
  'addr',
  'route',
  'link',
  'show',
  'dev',
  'eth0',
  'cni0',
  '|',
  ';',
  '&&',
  '||',
  '"',
  "'",
  '\\',
  '2>&1',
  '>/dev/null',
  '0',
  'curl',
  'dig',
  'nslookup',
  'nc',
  '-z',
  '-u',
  'conntrack',
  'sysctl',
  '-w',
  'net.bridge.bridge-nf-call-iptables=0',
  'tcpdump',
  'bridge',
  'sleep',
  'http://10.96.1.1/',
  'http://10.96.0.10:53/',
  '10.96.0.10',
  'web.default.svc.cluster.local',
  '+short',
  '-m',
  '1',
  '-1',
  '99999999999',
  '%s',
  'restore-input',
  'sync',
  '--help',
];
const HOSTS = ['node-1', 'node-2', 'laptop', 'pod/client', 'pod/kube-system/coredns-x', 'pod/nope'];

describe('any command line', () => {
  it('fuzz seed 20261202: 400 random scripts never throw and always exit with a status', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(...HOSTS),
            fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (lines) => {
          const { world } = World.fromScenario(DEFAULT_SCENARIO);
          const script = lines.map(([host, words]) => `${host}$ ${words.join(' ')}`).join('\n');
          const statuses: number[] = [];
          runScript(world, script, {
            readFile: () => undefined,
            onOutput: (_line, result) => {
              expect(typeof result.stdout).toBe('string');
              expect(typeof result.stderr).toBe('string');
              statuses.push(result.exitCode);
            },
          });
          for (const s of statuses) expect(Number.isInteger(s) && s >= 0 && s < 256).toBe(true);
        },
      ),
      { seed: 20261202, numRuns: 400 },
    );
  });
});
