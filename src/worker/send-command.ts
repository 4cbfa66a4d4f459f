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

/** `req` has passed sendRequestProblems (send-input.ts): its Service exists and has a ClusterIP. */
export function commandForSend(cluster: Cluster, req: SendRequest): string {
  let ip: string;
  let name = 'kubernetes.default.svc.cluster.local';
  const to = req.to;
  if (to.kind === 'service') {
    const svc = cluster.services.find(
      (s) => s.meta.namespace === to.namespace && s.meta.name === to.name,
    );
    ip = svc?.clusterIP ?? '';
    name = `${to.name}.${to.namespace}.svc.cluster.local`;
  } else {
    ip = to.ip;
  }
  if (req.protocol === 'icmp') return `ping -c 1 -W 1 ${ip}`;
  const port = to.port;
  if (req.protocol === 'udp') {
    if (port === 53) return `dig @${ip} -p ${port} +short +tries=1 ${name}`;
    return `echo lab | nc -u -w1 ${ip} ${port}`;
  }
  return `nc -zv -w2 ${ip} ${port}`;
}
