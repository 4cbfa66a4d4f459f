/**
 * The client program a "send" from the lab's packet picker runs, written as the terminal line
 * a learner could type: the same packets, and the UI shows the line beside the animation.
 *
 * - UDP to port 53: `dig @IP -p PORT +short +tries=1 NAME` (one query, one answer);
 * - other UDP: `echo lab | nc -u -w1 IP PORT` (one datagram; the answer, if any, within 1 s);
 * - TCP: `nc -zv -w2 IP PORT` (handshake, then close: the later packets of the connection
 *   show conntrack at work without the nat chains);
 * - ICMP: `ping -c 1 -W 1 IP` (one echo request; a ClusterIP gets no DNAT for it).
 */
import type { Cluster } from '../engine';
import type { SendRequest } from '../protocol/lab';

export function commandForSend(cluster: Cluster, req: SendRequest): string | { error: string } {
  let ip: string;
  let name = 'kubernetes.default.svc.cluster.local';
  const to = req.to;
  if (to.kind === 'service') {
    const svc = cluster.services.find(
      (s) => s.meta.namespace === to.namespace && s.meta.name === to.name,
    );
    if (svc === undefined) {
      return { error: `Error from server (NotFound): services "${to.name}" not found\n` };
    }
    if (svc.clusterIP === '' || svc.clusterIP === 'None') {
      return { error: `service ${to.namespace}/${to.name} has no ClusterIP\n` };
    }
    ip = svc.clusterIP;
    name = `${svc.meta.name}.${svc.meta.namespace}.svc.cluster.local`;
  } else {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(to.ip)) return { error: `invalid address ${to.ip}\n` };
    ip = to.ip;
  }
  if (req.protocol === 'icmp') return `ping -c 1 -W 1 ${ip}`;
  const port = to.port;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: `invalid port ${port}\n` };
  }
  if (req.protocol === 'udp') {
    if (port === 53) return `dig @${ip} -p ${port} +short +tries=1 ${name}`;
    return `echo lab | nc -u -w1 ${ip} ${port}`;
  }
  return `nc -zv -w2 ${ip} ${port}`;
}
