/** IP sets (net/netfilter/ipset) and the `ipset` tool. */
export * from './sets';
export * from './hash-table';
export { renderSave, renderSet, runIpset, type IpsetEnv, type IpsetResult } from './cli';
export { jhash2 } from './jhash';
