/**
 * IPVS as the kernel keeps it (net/netfilter/ipvs): virtual services, real servers,
 * schedulers, the connection table, and what ipvsadm prints. Pure data and functions.
 */
export * from './types';
export { estimatorCatchUp, readRates, ESTIMATOR_TICK_MS } from './estimator';
export {
  addDest,
  addService,
  deleteDest,
  deleteService,
  editDest,
  editService,
  findDest,
  findService,
  flushServices,
  type DestSpec,
  type ServiceSpec,
} from './table';
export {
  LAB_SCHEDULERS,
  MH_TAB_SIZE,
  initScheduler,
  schedule,
  type SchedPacket,
} from './schedulers';
export {
  connTransition,
  dropConn,
  expireConns,
  findConnIn,
  findConnOut,
  scheduleConn,
  secondsLeft,
  stateTimeout,
  type ScheduleResult,
  type TcpFlagBits,
} from './conn';
export {
  cmpDests,
  cmpServices,
  glibcMergeSort,
  procIpVsConn,
  renderIpvsConns,
  renderIpvsList,
  renderIpvsService,
  renderIpvsTimeout,
  type ListFormat,
  type ListOptions,
} from './views';
export { hash32, hsiphashU32, multiplicativeHash } from './hash';
