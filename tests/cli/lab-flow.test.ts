/**
 * `lab flow` (the lab's own command: named long-lived flows) and curl with several URLs,
 * through the CLI on the built-in scenario (client 10.244.0.5; web 10.96.1.1:80 → 3 pods;
 * kube-dns 10.96.0.10 → CoreDNS, which answers 53/tcp).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

async function run(script: string) {
  let all = '';
  let err = '';
  const status = await main(['run', '--echo'], {
    stdout: (t) => (all += t),
    stderr: (t) => {
      all += t;
      err += t;
    },
    readFile: () => undefined,
    readStdin: () => script,
  });
  const blocks: string[] = [];
  for (const l of all.split('\n').slice(0, -1)) {
    if (/^(node-\d|pod\/\S+|laptop)\$ /.test(l)) blocks.push('');
    else if (blocks.length > 0) blocks[blocks.length - 1] += `${l}\n`;
  }
  return { status, err, blocks };
}

const WEB_LINE = /^(web-6bc869c565-\w+) \(10\.244\.\d\.\d+:8080\): you are 10\.244\.0\.5:(\d+)$/m;

describe('lab flow', () => {
  it('keeps one TCP connection across commands: every request on it reaches the same pod', async () => {
    const r = await run(
      [
        'pod/client$ lab flow open a tcp 10.96.1.1:80',
        'pod/client$ lab flow send a',
        'pod/client$ lab flow send a',
        'pod/client$ lab flow list',
        'node-1$ conntrack -L -p tcp',
        'pod/client$ lab flow close a',
        'pod/client$ lab flow list',
      ].join('\n'),
    );
    expect(r.status).toBe(0);
    const [open, s1, s2, list, ct, close, after] = r.blocks;
    const port = /^a tcp 10\.244\.0\.5:(\d+) -> 10\.96\.1\.1:80 ESTABLISHED$/m.exec(open!)?.[1];
    expect(port).toBeDefined();
    const first = WEB_LINE.exec(s1!);
    const second = WEB_LINE.exec(s2!);
    expect(first?.[1]).toBe(second?.[1]);
    expect(first?.[2]).toBe(port);
    expect(list).toBe(`a tcp 10.244.0.5:${port} -> 10.96.1.1:80 ESTABLISHED\n`);
    // One conntrack entry for the whole flow.
    expect(ct).toMatch(/1 flow entries have been shown/);
    expect(close).toBe('');
    expect(after).toBe('');
  });

  it('sends TEXT raw, and prints what the server answers', async () => {
    const r = await run(
      ['pod/client$ lab flow open a tcp 10.96.1.1:80', 'pod/client$ lab flow send a hello'].join(
        '\n',
      ),
    );
    // Go net/http answers a line that is not HTTP with 400 and closes.
    expect(r.blocks[1]).toContain('HTTP/1.1 400 Bad Request');
  });

  it('reports the errors a client sees: refused, timed out, no answer', async () => {
    const r = await run(
      [
        'pod/client$ lab flow open r tcp 10.244.0.4:9999',
        'pod/client$ lab flow open u udp 10.244.0.4:9999',
        'pod/client$ lab flow send u ping',
        'pod/client$ lab flow open d udp 10.96.1.1:53',
        'pod/client$ lab flow send d -w 1 ping',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.blocks[0]).toBe(
      'lab flow: r: connect to 10.244.0.4 port 9999 (tcp) failed: Connection refused\n',
    );
    // ICMP port unreachable on a connected UDP socket: ECONNREFUSED on the next read.
    expect(r.blocks[2]).toBe('lab flow: u: read: Connection refused\n');
    expect(r.blocks[4]).toBe('lab flow: d: no answer within 1 s\n');
  });

  it('bad input: usage errors (exit 2), unknown flows (exit 1), nothing opened', async () => {
    const r = await run(
      [
        'pod/client$ lab flow',
        'pod/client$ lab flow --help',
        'pod/client$ lab flow bogus',
        'pod/client$ lab flow open',
        'pod/client$ lab flow open x sctp 10.96.1.1:80',
        'pod/client$ lab flow open x tcp 10.96.1.1',
        'pod/client$ lab flow open x tcp 10.96.1.300:80',
        'pod/client$ lab flow open x tcp 10.96.1.1:70000',
        'pod/client$ lab flow open x/y tcp 10.96.1.1:80',
        'pod/client$ lab flow send nope',
        'pod/client$ lab flow send nope -w abc',
        'pod/client$ lab flow close nope',
        'pod/client$ lab flow list extra',
        'pod/client$ lab flow list',
      ].join('\n'),
    );
    expect(r.status).toBe(2);
    const [
      none,
      help,
      bogus,
      open,
      sctp,
      noPort,
      badIp,
      badPort,
      badName,
      send,
      w,
      close,
      extra,
      list,
    ] = r.blocks;
    expect(none).toMatch(/^Usage: lab flow open NAME tcp\|udp IP:PORT$/m);
    expect(help).toMatch(/^Usage: lab flow open NAME tcp\|udp IP:PORT$/m);
    expect(bogus).toMatch(/^lab flow: unknown action "bogus"$/m);
    expect(open).toMatch(/^lab flow: open: a flow NAME is needed$/m);
    expect(sctp).toMatch(/^lab flow: open: protocol must be tcp or udp, not "sctp"$/m);
    expect(noPort).toMatch(/^lab flow: open: "10\.96\.1\.1" is not an IPv4 address and port$/m);
    expect(badIp).toMatch(/is not an IPv4 address and port/);
    expect(badPort).toMatch(/is not an IPv4 address and port/);
    expect(badName).toMatch(/^lab flow: invalid flow name "x\/y"$/m);
    expect(send).toBe('lab flow: nope: no such flow\n');
    expect(w).toMatch(/^lab flow: send: -w needs a number of seconds$/m);
    expect(close).toBe('lab flow: nope: no such flow\n');
    expect(extra).toMatch(/^lab flow: list takes no arguments$/m);
    expect(list).toBe('');
  });

  it('lab --help names flow', async () => {
    const r = await run('node-1$ lab --help');
    expect(r.blocks[0]).toContain('flow           named long-lived TCP/UDP flows');
  });
});

describe('curl with several URLs', () => {
  it('fetches them in order over one kept-alive connection: the same pod answers each', async () => {
    const r = await run(
      [
        'pod/client$ curl -s http://10.96.1.1/ http://10.96.1.1/hostname http://10.96.1.1/',
        'node-1$ conntrack -L -p tcp',
      ].join('\n'),
    );
    const lines = r.blocks[0]!;
    // /, /hostname (agnhost: the pod name, no newline), / again: one pod throughout.
    const m =
      /^(web-6bc869c565-\w{5}) \(.*\n(web-6bc869c565-\w{5})(web-6bc869c565-\w{5}) \(.*\n$/.exec(
        lines,
      );
    expect(m).not.toBeNull();
    expect(new Set(m!.slice(1, 4)).size).toBe(1);
    // One connection: one conntrack entry.
    expect(r.blocks[1]).toMatch(/1 flow entries have been shown/);
  });

  it("a new host means a new connection (#1 in -v), and the exit code is the last transfer's", async () => {
    const r = await run(
      [
        'pod/client$ curl -sv http://10.96.1.1/ http://10.96.1.1/ http://10.96.0.10:9153/',
        'pod/client$ curl -sS -m 1 http://10.96.1.1/ http://10.96.1.1:81/',
      ].join('\n'),
    );
    const v = r.blocks[0]!;
    expect(v).toContain('* Connected to 10.96.1.1 (10.96.1.1) port 80 (#0)\n');
    expect(v).toContain('* Re-using existing connection #0 with host 10.96.1.1\n');
    expect(v).toContain('* Connected to 10.96.0.10 (10.96.0.10) port 9153 (#1)\n');
    expect(v).toContain('* Connection #1 to host 10.96.0.10 left intact\n');
    expect(r.blocks[1]).toMatch(WEB_LINE);
    expect(r.blocks[1]).toContain('curl: (28) Connection timed out after 1001 milliseconds\n');
    expect(r.status).toBe(28);
  });
});
