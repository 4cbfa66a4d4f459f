/** The shell shared by the lab's terminal and the CLI: tokenizer, scripts, registry, tools. */
import { registerIp } from './ip';
import { registerIpset } from './ipset';
import { registerIpvsadm } from './ipvsadm';
import { registerIptablesCommands } from './iptables';
import { registerNft } from './nft';
import { registerLab } from './lab';
import { registerNodeTools } from './node-tools';
import { registerClients } from './clients';
import { registerKubectl } from './kubectl';
import type { CommandRegistry } from './registry';
import { createRegistry } from './registry';
import { registerTextFilters } from './text-filters';
import { registerTextTools } from './text-tools';
import { registerAwk } from './awk';
import { registerPrintf } from './printf';
import { registerSed } from './sed';
import { registerShellBuiltins } from './shell-test';
import { registerClear } from './clear';
import { registerGrep } from './grep';
import { registerTr } from './tr';
import { registerSs } from './ss';
import { registerXtablesMonitor } from './xtables-monitor';

export {
  createRegistry,
  registerCommand,
  lookupCommand,
  runArgv,
  type AppliedObject,
  type ApplyResult,
  type CommandContext,
  type CommandHandler,
  type CommandRegistry,
  type CommandResult,
  type CommandWorld,
  type HostRef,
} from './registry';
export { runCommandLine, runCommandLineInOrder } from './shell-run';
export {
  parseCommandLine,
  lexLine,
  tokenize,
  type CommandList,
  type Pipeline,
  type Redirection,
  type ShellParseResult,
  type SimpleCommand,
} from './shell';
export {
  parseScript,
  resolveTarget,
  type ParsedScript,
  type ScriptLine,
  type ScriptTarget,
} from './script';
export { registerTextFilters, splitLines } from './text-filters';
export { posixToJs } from './grep';
export { registerIp } from './ip';
export { registerIptablesCommands } from './iptables';
export {
  registerKubectl,
  kubectl,
  humanDuration,
  tabwrite,
  toYaml,
  toJson,
  kubeProxyConfigMap,
  kubeadmProxyConfig,
  LAB_NODE_INFO,
} from './kubectl';

/** A registry with every command this module provides: grep/head/tail/wc/echo/cat, ip, kubectl. */
export function createStandardRegistry(): CommandRegistry {
  const registry = createRegistry();
  registerTextFilters(registry);
  registerTextTools(registry);
  registerAwk(registry);
  registerShellBuiltins(registry);
  registerClear(registry);
  registerPrintf(registry);
  registerSed(registry);
  registerGrep(registry);
  registerTr(registry);
  registerSs(registry);
  registerXtablesMonitor(registry);
  registerIp(registry);
  registerKubectl(registry);
  return registry;
}

/** The lab's full command set: the standard commands plus iptables, iptables-save, iptables-restore. */
export function createLabRegistry(): CommandRegistry {
  const registry = createStandardRegistry();
  registerIptablesCommands(registry);
  registerNft(registry);
  registerLab(registry);
  registerNodeTools(registry);
  registerIpvsadm(registry);
  registerIpset(registry);
  registerClients(registry);
  return registry;
}
