/**
 * Experiments 01, 03, 04 and 05 with kube-proxy in IPVS mode (the scenario's
 * KubeProxyConfiguration changed to `mode: ipvs`, the script unchanged), and what IPVS changes:
 * the destination is rewritten at INPUT instead of PREROUTING, hairpin traffic is always
 * masqueraded (KUBE-LOOP-BACK), and a NodePort with externalTrafficPolicy: Local falls back to
 * remote endpoints without SNAT when the node has none (kubernetes PR 97081) instead of
 * dropping. The iptables commands of the scripts that name KUBE-SEP chains fail: IPVS mode
 * writes no such chains.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const PROMPT = /^(?:node-\d+|pod\/[\w./-]+|laptop)\$ /;

async function runIpvs(name: string): Promise<{ line: string; text: string }[]> {
  let all = '';
  await main(['run', '--echo', `ipvs/${name}/scenario.yaml`, `scenarios/${name}/script.txt`], {
    stdout: (t) => (all += t),
    stderr: (t) => (all += t),
    readFile: (path) => {
      try {
        if (path.startsWith('ipvs/'))
          return readFileSync(`scenarios/${path.slice(5)}`, 'utf8').replace(
            /^mode: iptables.*$/m,
            'mode: ipvs',
          );
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    readStdin: () => '',
  });
  const blocks: { line: string; text: string }[] = [];
  for (const l of all.split('\n')) {
    if (PROMPT.test(l)) blocks.push({ line: l, text: '' });
    else if (blocks.length > 0) blocks[blocks.length - 1]!.text += `${l}\n`;
  }
  return blocks;
}

const outputs = (blocks: { line: string; text: string }[], needle: string): string[] =>
  blocks.filter((b) => b.line.includes(needle)).map((b) => b.text);

describe('experiments in IPVS mode', () => {
  it('01 cross-node ClusterIP: the pod sees the client; conntrack shows the IPVS-altered reply', async () => {
    const b = await runIpvs('01-cross-node-clusterip');
    expect(outputs(b, 'curl')[0]).toMatch(
      /^web-2 \(10\.244\.1\.2:8080\): you are 10\.244\.0\.5:\d+/,
    );
    const [ct1] = outputs(b, 'conntrack -L');
    expect(ct1).toMatch(
      /src=10\.244\.0\.5 dst=10\.96\.1\.10 sport=\d+ dport=80 src=10\.244\.1\.2 dst=10\.244\.0\.5 sport=8080/,
    );
  });

  it('03 hairpin: KUBE-LOOP-BACK always masquerades to cni0; with bridge-nf-call-iptables=1 the un-SNATed reply is bridged back and needs the hairpin flag', async () => {
    const b = await runIpvs('03-hairpin');
    const curls = outputs(b, 'curl');
    const ok = /^web-1 \(10\.244\.0\.4:8080\): you are 10\.244\.0\.1:\d+/;
    const timeout = /Connection timed out/;
    // The script's cases: hairpin on / off × bridge-nf 1 / 0 × masquerade rule edits (no-ops here).
    const works = curls.map((c) => ok.test(c));
    expect(curls.every((c) => ok.test(c) || timeout.test(c))).toBe(true);
    expect(works).toEqual([true, false, true, true, true, true, false, true, true]);
  });

  it('04 NodePort source: same-node backend sees cni0, other-node backend sees the node IP', async () => {
    const b = await runIpvs('04-nodeport-source');
    const curls = outputs(b, 'laptop$ curl');
    expect(curls[0]).toMatch(/you are 10\.244\.0\.1:\d+/);
    expect(curls[1]).toMatch(/you are 192\.168\.1\.10:\d+/);
  });

  it('05 eTP Local: a node without local endpoints forwards to a remote pod unmasqueraded, so the reply never returns', async () => {
    const b = await runIpvs('05-external-traffic-policy-local');
    const curls = outputs(b, 'curl');
    expect(curls[0]).toMatch(/you are 192\.168\.1\.100:\d+/); // local endpoint: source kept
    expect(curls[1]).toMatch(/Connection timed out/); // iptables mode drops; IPVS forwards
    const ct = outputs(b, 'conntrack -L');
    expect(ct[1]).toMatch(
      /SYN_SENT src=192\.168\.1\.100 dst=192\.168\.1\.10 .*\[UNREPLIED\] src=10\.244\.1\.2/,
    );
  });

  it("07 rolling update: the dead real server's frames are flooded, then its ICMP host unreachable is IPVS-translated back to the client", async () => {
    const b = await runIpvs('07-rolling-update-long-tcp');
    // IPVS routes the write out of cni0 to the stale MAC: cni0 floods it, back to the client.
    const capture = outputs(b, 'tcpdump')[0]!.split('\n');
    expect(capture[1]).toMatch(/IP 10\.244\.0\.5\.\d+ > 10\.244\.0\.4\.8080: Flags \[P\.\]/);
    // ip_vs_out_icmp restores the quoted destination to the virtual service, so the client's
    // socket finds the error: its soft error is what the timed-out connection reports.
    const sends = outputs(b, 'lab flow send long');
    expect(sends[3]).toContain('lab flow: long: write: No route to host');
  });
});
