/**
 * The delivery step of a UDP datagram or an ICMP message names what the receiving socket layer
 * did with it, as tcp-lookup does for TCP (bridge-nf-trace.test.ts):
 * - __udp4_lib_lookup (net/ipv4/udp.c): a connected socket matches only its peer; an
 *   unconnected one takes any sender; no match → icmp_send(ICMP_PORT_UNREACH);
 * - icmp_rcv: an echo request is answered by icmp_echo(), an echo reply goes to the ping
 *   socket with its id (ping_rcv), an error to the socket that sent the quoted packet
 *   (__udp4_lib_err: a connected socket records a hard error; without IP_RECVERR an
 *   unconnected one ignores it).
 * dig in the lab is BIND 9.18's (a UDP socket connected to the server per try), CoreDNS's
 * socket is unconnected on 0.0.0.0:53 (Go's net.ListenPacket).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

interface Step {
  readonly kind: string;
  readonly verdict?: string;
  readonly packet?: { readonly proto?: string; readonly src?: string; readonly dst?: string };
  readonly at: { readonly host: string };
  readonly why: { readonly id: string; readonly params?: Record<string, unknown> };
}

async function run(args: string[], script: string): Promise<string> {
  let out = '';
  await main(['run', ...args], {
    stdout: (t) => (out += t),
    stderr: () => {},
    readFile: () => undefined,
    readStdin: () => script,
  });
  return out;
}

/** The delivery steps of the script's last command, in order: host and explanation. */
async function deliveries(script: string) {
  const doc = JSON.parse(await run(['--json'], script)) as { commands: { steps: Step[] }[] };
  return doc.commands
    .at(-1)!
    .steps.filter((s) => s.kind === 'verdict' && s.verdict === 'DELIVERED')
    .map((s) => ({ host: s.at.host, ...s.why }));
}

const OFF = 'node-1$ sysctl -w net.bridge.bridge-nf-call-iptables=0';
const DIG = 'pod/client$ dig @10.96.0.10 kubernetes.default.svc.cluster.local +tries=1 +timeout=2';
const COREDNS = expect.stringMatching(/^pod\/kube-system\/coredns-/);

describe('delivery of UDP datagrams and ICMP messages: which socket, or why none', () => {
  it('a DNS query and its answer: the unconnected CoreDNS socket, then the connected dig socket', async () => {
    const [query, answer, ...rest] = await deliveries(`${DIG}\n`);
    expect(rest).toEqual([]);
    expect(query).toMatchObject({
      host: COREDNS,
      id: 'datapath.delivered.udp-socket',
      params: { local: '0.0.0.0:53', remote: expect.stringMatching(/^10\.244\.0\.5:\d+$/) },
    });
    expect(answer).toMatchObject({
      host: 'pod/default/client',
      id: 'datapath.delivered.udp-connected',
      params: { remote: '10.96.0.10:53' },
    });
  });

  it('bridge-nf-call-iptables=0: the answer keeps the pod address, misses dig’s socket, and the port-unreachable is ignored', async () => {
    const steps = await deliveries(`${OFF}\n${DIG}\n`);
    expect(steps.map((s) => s.id)).toEqual([
      'datapath.delivered.udp-socket',
      'datapath.delivered.udp-other-peer',
      'datapath.delivered.icmp-error-ignored',
    ]);
    const answer = steps[1]!.params!;
    expect(answer.remote).toMatch(/^10\.244\.0\.[23]:53$/);
    expect(answer.peer).toBe('10.96.0.10:53');
    expect(steps[2]).toMatchObject({
      host: COREDNS,
      params: { error: '3/3', quoted: `UDP ${String(answer.remote)} → ${String(answer.local)}` },
    });
    const en = await run(['--trace'], `${OFF}\n${DIG}\n`);
    expect(en).toContain(
      'is connected to 10.96.0.10:53 and takes datagrams from 10.96.0.10:53 only, and no other socket is bound there: the kernel answers ICMP port unreachable',
    );
    const zh = await run(['--trace', '--lang', 'zh-CN'], `${OFF}\n${DIG}\n`);
    expect(zh).toContain('连接的是 10.96.0.10:53，只接收来自 10.96.0.10:53 的数据报');
    expect(zh).toContain('未 connect 的套接字只有开了 IP_RECVERR 才收到 ICMP 错误');
  });

  it('a datagram to a port nobody listens on: port unreachable, which the connected sender records', async () => {
    // The web pod 10.244.0.4 serves HTTP on 8080 only.
    const steps = await deliveries('pod/client$ dig @10.244.0.4 web +tries=1 +timeout=2\n');
    expect(steps).toMatchObject([
      {
        host: expect.stringMatching(/^pod\/default\/web-/),
        id: 'datapath.delivered.udp-no-socket',
        params: { local: '10.244.0.4:53' },
      },
      {
        host: 'pod/default/client',
        id: 'datapath.delivered.icmp-error-udp',
        params: { error: '3/3', errno: 'ECONNREFUSED' },
      },
    ]);
  });

  it('ping: the kernel answers the request, the reply goes to the ping with its id', async () => {
    const steps = await deliveries('pod/client$ ping -c 1 10.244.0.4\n');
    expect(steps).toMatchObject([
      { id: 'datapath.delivered.icmp-echo-request', params: { remote: '10.244.0.5' } },
      {
        host: 'pod/default/client',
        id: 'datapath.delivered.icmp-echo-reply',
        params: { remote: '10.244.0.4', seq: 1 },
      },
    ]);
  });
});
