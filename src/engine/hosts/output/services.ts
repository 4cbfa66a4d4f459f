/**
 * Port names as tcpdump prints them without -n: Debian's /etc/services (netbase 6.4), read the
 * way tcpdump's init_servarray() reads it (tcp and udp entries only; the first name given to a
 * port wins), which is getservbyport's answer (netfilter/services.ts holds the file).
 */
import { serviceName, servicePort } from '../../netfilter/services';

/** tcpport_string() / udpport_string(): the service name, else the number. */
export function portName(proto: 'tcp' | 'udp', port: number): string {
  return serviceName(port, proto) ?? String(port);
}

/** getservbyname(): the port of a service name (its first entry), for filters like `port http`. */
export function portNumber(proto: 'tcp' | 'udp', name: string): number | undefined {
  return servicePort(name, proto);
}
