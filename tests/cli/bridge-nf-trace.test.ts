/**
 * The lab's key experiment explained step by step (lesson 9): client and web pod on node-1's
 * cni0, a connection to the Service default/web 10.96.1.1:80. With
 * net.bridge.bridge-nf-call-iptables=0 the web pod's SYN-ACK is switched at layer 2 without
 * br_nf_pre_routing(), so conntrack never un-DNATs it; it reaches the client from
 * 10.244.0.4:8080, tcp_v4_rcv finds no socket for it (the client's is connected to
 * 10.96.1.1:80), and tcp_v4_send_reset answers RST (RFC 793, Reset Generation, case 1). The
 * trace must say why at each of those steps, in English (`--json` ids, `--trace`) and zh-CN.
 * The built-in scenario's seed sends this connection to the node-1 pod 10.244.0.4.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

interface Step {
  readonly seq: number;
  readonly kind: string;
  readonly packetId: number;
  readonly verdict?: string;
  readonly packet?: { readonly tcpFlags?: string };
  readonly at: { readonly host: string };
  readonly why: { readonly id: string; readonly params?: Record<string, unknown> };
}

const OFF = 'node-1$ sysctl -w net.bridge.bridge-nf-call-iptables=0';
const CURL = 'pod/client$ curl -sS -m 2 http://10.96.1.1/';

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

/** The curl's steps: its SYN-ACK's bridge and delivery steps, and the packet sent next. */
async function synAckSteps(script: string) {
  const doc = JSON.parse(await run(['--json'], script)) as { commands: { steps: Step[] }[] };
  const steps = doc.commands.at(-1)!.steps;
  const sent = steps.find((s) => s.kind === 'send' && s.packet?.tcpFlags === 'S.')!;
  const of = steps.filter((s) => s.packetId === sent.packetId);
  const delivered = of.find((s) => s.kind === 'verdict' && s.verdict === 'DELIVERED')!;
  return {
    bridge: of.find((s) => s.kind === 'bridge')!,
    delivered,
    next: steps.find((s) => s.seq > delivered.seq && s.kind === 'send')!,
  };
}

describe('bridge-nf-call-iptables=0: why the SYN-ACK is not un-DNATed and the client resets it', () => {
  it('names the sysctl, the skipped conntrack, the socket it missed and why RST', async () => {
    const { bridge, delivered, next } = await synAckSteps(`${OFF}\n${CURL}\n`);
    expect(bridge.why).toEqual({
      id: 'datapath.bridge.to-port.no-undnat',
      params: {
        port: expect.stringMatching(/^veth/),
        node: 'node-1',
        service: '10.96.1.1:80',
        src: '10.244.0.4:8080',
      },
    });
    expect(delivered.at.host).toBe('pod/default/client');
    expect(delivered.why).toMatchObject({
      id: 'datapath.delivered.tcp-other-peer',
      params: { remote: '10.244.0.4:8080', peer: '10.96.1.1:80', state: 'SYN_SENT' },
    });
    expect(next.packet?.tcpFlags).toBe('R');
    expect(next.why).toMatchObject({
      id: 'datapath.send.rst.other-peer',
      params: { host: 'pod/default/client', remote: '10.244.0.4:8080', peer: '10.96.1.1:80' },
    });
  });

  it('says it in the trace text, in English and in zh-CN', async () => {
    const en = await run(['--trace'], `${OFF}\n${CURL}\n`);
    expect(en).toContain('net.bridge.bridge-nf-call-iptables is 0, so br_netfilter hands it neither to iptables nor to conntrack'); // prettier-ignore
    expect(en).toContain('nothing restores the source, which stays 10.244.0.4:8080 (no un-DNAT)');
    expect(en).toMatch(/is connected to 10\.96\.1\.1:80 \(SYN_SENT\) and takes segments from 10\.96\.1\.1:80 only/); // prettier-ignore
    expect(en).toContain("pod/default/client's kernel answers with a reset (RST)");
    const zh = await run(['--trace', '--lang', 'zh-CN'], `${OFF}\n${CURL}\n`);
    expect(zh).toContain('net.bridge.bridge-nf-call-iptables 为 0，br_netfilter 既不把它交给 iptables，也不交给 conntrack'); // prettier-ignore
    expect(zh).toContain('它仍是 10.244.0.4:8080（没有反向 DNAT，即 un-DNAT）');
    expect(zh).toMatch(/上的套接字连接的是 10\.96\.1\.1:80（SYN_SENT），只接收来自 10\.96\.1\.1:80 的段/); // prettier-ignore
    expect(zh).toContain('pod/default/client 的内核回复 RST');
  });

  it('with the sysctl at 1 the frame goes to PREROUTING and the reply finds its socket', async () => {
    const { bridge, delivered, next } = await synAckSteps(`${CURL}\n`);
    expect(bridge.why.id).toBe('datapath.bridge.to-port');
    const en = await run(['--trace'], `${CURL}\n`);
    expect(en).toContain('net.bridge.bridge-nf-call-iptables is 1, so br_netfilter hands it to iptables and conntrack before it is bridged'); // prettier-ignore
    expect(delivered.why).toMatchObject({
      id: 'datapath.delivered.tcp-socket',
      params: { remote: '10.96.1.1:80', state: 'SYN_SENT' },
    });
    expect(next.packet?.tcpFlags).toBe('.');
    expect(next.why.id).toBe('datapath.send');
  });
});
