/**
 * What the build runs once, in a throwaway process, before it saves V8's code cache of the
 * bundled CLI (see bin/load-cli.cjs): V8 compiles a function only when it is first called, and
 * the cache holds only the functions compiled by then. A `run` after this one starts with the
 * YAML reader, the scenario decoders, kube-proxy's sync, iptables-restore and iptables-save
 * already compiled. Nothing of it is printed; the cache changes how fast the CLI starts, never
 * what it prints (V8 rejects a cache made by another V8 version or with other flags, and the
 * loader then compiles the bundle as if there were no cache).
 */
import { generateScaleScenario } from '../engine';
import { main, type CliIo } from './main';

/** Commands most runs use, against the built-in scenario. */
const BUILT_IN_SCRIPT = [
  'node-1$ iptables-save',
  'node-1$ iptables -t nat -L KUBE-SERVICES -n',
  'node-1$ conntrack -L',
  'pod/client$ curl -s http://10.96.0.10:53',
  'pod/client$ dig +short kube-dns.kube-system.svc.cluster.local',
].join('\n');

export async function warmUp(): Promise<void> {
  const quiet = (files: Record<string, string>, script: string): CliIo => ({
    stdout: () => {},
    stderr: () => {},
    readFile: (path) => files[path],
    readStdin: () => script,
  });
  await main(['run', '--json'], quiet({}, BUILT_IN_SCRIPT));
  // The shape of a large scenario (flow sequences and maps, many documents) and a first sync
  // of thousands of rules.
  const scale = { 'scale.yaml': generateScaleScenario(50) };
  await main(['run', 'scale.yaml'], quiet(scale, 'node-1$ iptables-save\n'));
}
