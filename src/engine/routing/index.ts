/** The lab's network topology per host and the `ip` command's views of it. */
export {
  buildTopology,
  hostNetwork,
  hostVethName,
  podNetnsName,
  podsWithVeth,
  lanOf,
  linkLocalFromMac,
  formatIpv6,
  randomLocalMac,
  qemuMac,
  hashBytes,
  sortRoutes,
  withDummyInterface,
  type HostNetwork,
  type HostRef,
  type IfAddress,
  type NetInterface,
  type Route,
} from './topology';
export { runIp, type IpResult } from './ip-command';
export {
  renderAddr,
  renderLink,
  renderRoutes,
  renderRoutes6,
  renderRouteGet,
  renderBriefAddr,
  renderBriefLink,
  type Family,
} from './ip-views';
