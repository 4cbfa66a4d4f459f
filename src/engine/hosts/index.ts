/**
 * The end hosts: sockets, server applications and client programs, independent of how packets
 * travel between hosts (that is the datapath's job).
 *
 * ```ts
 * const hosts = createHosts(cluster);               // listeners from the pods' containerPorts
 * const ctx = { now, rng, cluster, epochSeconds };   // virtual time, seeded randomness
 * const { pid, emit } = startProgram(hosts, client, curl('http://web/'), ctx);
 * // for each emitted packet: the datapath carries it (sendPacket); when the outcome is
 * // `delivered`, hand it to the host: hostReceive(hosts, outcome.host, outcome.packet, ctx)
 * // and carry what that emits in turn. Between packets, advance the clock to
 * // nextWakeup(hosts) and call hostTimers(hosts, ctx) (retransmissions, timeouts).
 * const out = programResult(hosts, pid, { epochSeconds }); // stdout, stderr, exit code
 * ```
 *
 * State is plain JSON-safe data, mutated in place by these calls; nothing reads the wall clock
 * or Math.random. Packets are `HostPacket`s: the trace's `PacketHeader` with the TCP window and
 * options and the application data added, so the datapath can carry them as they are.
 */
export type {
  AppKind,
  Emitted,
  HostCtx,
  HostPacket,
  HostStack,
  HostStep,
  HostsState,
  Owner,
  Payload,
  SockAddr,
  Socket,
  SocketEvent,
  SocketEventKind,
  TcpOptions,
  TcpSocket,
  TcpState,
  TcpSysctls,
  UdpSocket,
} from './types';
export {
  createHosts,
  syncHosts,
  stackFor,
  hostKey,
  DEFAULT_PORT_RANGE,
  DEFAULT_TCP_SYSCTLS,
  type HostsOptions,
} from './build';
export {
  hostReceive,
  hostTimers,
  nextWakeup,
  openTcp,
  openUdp,
  sendData,
  closeSocket,
  startProgram,
  type OpenResult,
} from './stack';
export { programResult, hostRefOf, PROGRAM_LIMIT_MS, type ProgramSpec } from './programs/run';
export type {
  CurlOptions,
  DigOptions,
  NcOptions,
  NslookupOptions,
  ProgramResult,
  ProgramState,
  TranscriptEntry,
} from './programs/types';
export { parseCurlArgs, parseNcArgs, parseDigArgs, parseNslookupArgs } from './programs/args';
export { parsePingArgs } from './programs/ping-args';
export { parseWgetArgs } from './programs/wget-args';
export { strtodWhole, strtolPrefix } from './programs/numbers';
export { parseCaptureFilter, type Filter as CaptureFilter } from './output/pcap-filter';
export { modelTimeout, TCP_TIMEOUT_INIT, TCP_RTO_MIN, TCP_RTO_MAX } from './tcp-user';
export { SYN_WINDOW, SYNACK_WINDOW, MSS, WSCALE } from './tcp-segment';
export {
  dnsQuery,
  dnsWireSize,
  fqdn,
  rdataText,
  type DnsMessage,
  type DnsQuestion,
  type Edns,
  type Rcode,
  type RData,
  type ResourceRecord,
  type RRType,
} from './dns/message';
export {
  corednsAnswer,
  soaSerial,
  readyAddresses,
  CLUSTER_DOMAIN,
  COREDNS_TTL,
} from './dns/coredns';
export {
  clusterDnsIp,
  resolvConfFor,
  resolvConfText,
  searchCandidates,
  type ResolvConf,
} from './dns/resolv';
export { curlOutput, curlOutputAll, strerror, type CurlEnv, type ToolOutput } from './output/curl';
export { ncOutput, serviceName } from './output/nc';
export { digOutput, rrLine, questionLine, DIG_VERSION } from './output/dig';
export { nslookupOutput } from './output/nslookup';
export {
  tcpdumpLine,
  createTcpdumpState,
  dnsSummary,
  type TcpdumpOptions,
  type TcpdumpState,
} from './output/tcpdump';
export { httpDate, digWhen, tcpdumpTime } from './output/time';
export { curlRequest, webResponse, parseResponse, type HttpResponse } from './apps/http';
