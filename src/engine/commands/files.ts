/**
 * Whose file a path names. A command line's files are either the simulated host's own (its
 * /etc, /proc, /sys…: what `cat /etc/resolv.conf` shows inside a pod) or the user's, read from
 * where the lab runs (`kubectl apply -f web.yaml`, `iptables-restore < rules.txt`). A path in
 * the host's system directories is never looked up on the machine running the lab: a pod must
 * not show that machine's /etc/hosts as its own.
 */
import { labNote } from '../model/lab-notes';

/** Top-level directories of a Linux host's own filesystem (FHS), as opposed to user files. */
const SYSTEM_DIRS = ['etc', 'proc', 'sys', 'dev', 'run', 'var', 'usr', 'bin', 'sbin', 'lib', 'lib64', 'boot']; // prettier-ignore

export function isHostSystemPath(path: string): boolean {
  const top = /^\/+([^/]+)/.exec(path)?.[1];
  return top !== undefined && SYSTEM_DIRS.includes(top);
}

/**
 * What a tool says of a file it cannot read: the tool's own `message` for a user's file; for
 * a system file of the host, that the lab does not model it (a real host has /etc/passwd).
 */
export function missingFileMessage(path: string, message: string): string {
  if (!isHostSystemPath(path)) return message;
  return labNote('file.unmodelled', { path });
}
