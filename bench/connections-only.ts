/**
 * `node --expose-gc dist-cli/bench-connections.mjs`: only the load-distribution part of the
 * bench (issue 3), for profiling (`node --cpu-prof`); `npm run bench` runs it this way too
 * (BENCH_RESULT=1 adds a line with its figures for it). CONNS sets the connection count (default
 * 10,000). FINGERPRINT=1 instead prints digests of everything a run leaves observable — the
 * answers, the spread, iptables-save --counters and conntrack -L of both nodes, the trace (with
 * trace detail 'all' for a short run), the capture log (tcpdump) and the next random draws — so that a speed-up can be
 * shown to change nothing.
 */
import { createHash } from 'node:crypto';
import { connectionsBench } from './connections';
import {
  flowControls,
  generateLoadScenario,
  loadServiceIP,
  runScript,
  setTraceDetail,
  traceSince,
  World,
} from '../src/engine';
import { captureLog, type TraceDetail } from '../src/engine/datapath';

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function script(world: World, text: string): string {
  let out = '';
  runScript(world, text, {
    readFile: () => undefined,
    onOutput: (line, r) => {
      out += `${line ?? ''}\n${r.stdout}${r.stderr}${r.exitCode}\n`;
    },
  });
  return out;
}

function fingerprint(conns: number, detail: TraceDetail): void {
  const { world } = World.fromScenario(generateLoadScenario(1_000, 10));
  world.kernel('node-1');
  world.kernel('node-2');
  setTraceDetail(world, detail);
  const client = flowControls(world, { kind: 'pod', namespace: 'default', name: 'client' });
  let answers = '';
  for (let i = 0; i < conns; i++) {
    const name = `c${i}`;
    const opened = client.open(name, 'tcp', loadServiceIP(i % 1_000), 80);
    const answer = opened.ok ? client.send(name, undefined, 1000) : opened;
    answers += `${opened.text}|${answer.text}|`;
    if (opened.ok) answers += client.close(name).text;
  }
  const rules = script(world, 'node-1$ iptables-save -c\nnode-2$ iptables-save -c\n');
  const ct = script(world, 'node-1$ conntrack -L\nnode-2$ conntrack -L\n');
  const trace = JSON.stringify(traceSince(world, 0));
  const captures = digest(JSON.stringify(captureLog(world)));
  const draws = [0, 1, 2].map(() => world.rng.nextU32()).join(',');
  console.log(`fingerprint ${conns} connections, trace detail ${detail}`);
  console.log(`  answers ${digest(answers)}  rules ${digest(rules)}  conntrack ${digest(ct)}`);
  console.log(
    `  trace ${digest(trace)} (${trace.length} chars)  captures ${captures}  clock ${world.clock.now()}  rng ${draws}`,
  );
}

const conns = Number(process.env.CONNS ?? 10_000);
if (process.env.FINGERPRINT === '1') {
  fingerprint(conns, 'off');
  fingerprint(conns, 'none');
  fingerprint(Math.min(conns, 200), 'all');
  fingerprint(Math.min(conns, 200), 'matched');
} else {
  const figures = connectionsBench(conns);
  // For bench.mjs, which runs this section in a process of its own (bench/run.ts).
  if (process.env.BENCH_RESULT === '1') console.log(`BENCH-RESULT ${JSON.stringify(figures)}`);
}
