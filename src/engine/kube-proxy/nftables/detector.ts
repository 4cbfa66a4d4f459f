/**
 * pkg/proxy/util/localdetector.go in its nftables spelling (`IfLocalNFT`/`IfNotLocalNFT`):
 * `ip saddr 10.244.0.0/16`, `iifname "cni0"`, `iifname "veth*"` and their `!=` forms.
 */
import type { KubeProxyConfig } from '../../model/cluster';
import { localDetectorFor } from '../iptables/format';

export function nftLocalDetector(
  config: KubeProxyConfig,
  podCIDR: string,
): { ifLocal?: string; ifNotLocal?: string } {
  const d = localDetectorFor(config, podCIDR);
  const [flag, value] = d.ifLocal;
  if (flag === undefined || value === undefined) return {};
  if (flag === '-s') return { ifLocal: `ip saddr ${value}`, ifNotLocal: `ip saddr != ${value}` };
  const name = value.endsWith('+') ? `${value.slice(0, -1)}*` : value;
  return { ifLocal: `iifname "${name}"`, ifNotLocal: `iifname != "${name}"` };
}
