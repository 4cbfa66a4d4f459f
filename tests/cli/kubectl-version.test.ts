/**
 * `kubectl version` through the CLI: kubectl's pkg/cmd/version prints the client's version and
 * the Kustomize it embeds (v5.5.0 in kubectl 1.32), then the server's unless --client. The
 * versions are the lab's cluster's (LAB_NODE_INFO, the kubelet version kubectl get nodes
 * shows). Kept as a guard that each subcommand keeps its own flags (a table edit once left
 * `version` and `exec` without theirs, and both answered "not modelled").
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run';

describe('kubectl version', () => {
  it('prints the client and Kustomize versions, and the server version without --client', async () => {
    const client = await runCli('node-1$ kubectl version --client');
    expect(client.out).toMatch(/^Client Version: v\d+\.\d+\.\d+\nKustomize Version: v5\.5\.0\n$/);
    expect(client.status).toBe(0);
    const both = await runCli('node-1$ kubectl version');
    expect(both.out).toBe(`${client.out}Server Version: ${client.out.split('\n')[0]!.slice(16)}\n`);
  });
});
