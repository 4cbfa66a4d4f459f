/**
 * Commands a node (Debian 12 with kubeadm's packages) or a pod's shell has that the lab does
 * not run. bash's `command not found` would claim the host lacks them; they get a lab note
 * instead. Any other unknown name still gets bash's answer.
 */
import { labNote } from '../model/lab-notes';

const UNMODELLED = new Set(
  [
    // iproute2, iptables, kubeadm's node packages (cri-tools, conntrack, socat, ebtables)
    'tc nstat rtmon ip6tables ip6tables-save ip6tables-restore iptables-legacy',
    'iptables-legacy-save iptables-legacy-restore xtables-monitor ebtables arptables',
    'crictl ctr containerd kubelet kubeadm socat ethtool',
    // procps, util-linux, kmod, systemd
    'ps top free uptime kill pkill pgrep watch vmstat pmap dmesg mount umount',
    'lsmod modprobe modinfo insmod rmmod systemctl journalctl hostnamectl',
    // coreutils and the shell's builtins
    'hostname uname whoami id ls pwd cd env printenv export set unset date',
    'tee xargs touch rm mkdir rmdir cp mv ln chmod chown stat readlink basename dirname',
    'df du find which type printf nproc sed less more vi nano',
    'tracepath',
  ]
    .join(' ')
    .split(' '),
);

/** The lab's note for a real command it does not run, or undefined for any other name. */
export function unmodelledCommandNote(name: string): string | undefined {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (!UNMODELLED.has(base)) return undefined;
  return labNote('command.unmodelled', { command: base });
}
