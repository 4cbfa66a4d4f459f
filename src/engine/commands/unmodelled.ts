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
    // The rest of what Debian 12's essential and required packages install on every node
    // (coreutils, diffutils, util-linux, bsdutils, findutils, grep, gzip, tar, sed, ncurses-bin,
    // perl-base, dpkg, apt, login, passwd, debianutils, hostname, mount, procps,
    // sysvinit-utils: `dpkg -L` on Debian 12, less what the lab runs)
    'add-shell addpart agetty apt apt-cache apt-cdrom apt-config apt-get apt-key apt-mark',
    'arch b2sum base32 base64 basenc blkdiscard blkid blkzone blockdev captoinfo chage',
    'chcon chcpu chfn chgpasswd chgrp chmem choom chpasswd chroot chrt chsh cksum cmp',
    'comm cpgr cppw csplit ctrlaltdel dd delpart diff diff3 dir dircolors dnsdomainname',
    'domainname dpkg dpkg-deb dpkg-divert dpkg-fsys-usrunmess dpkg-maintscript-helper',
    'dpkg-query dpkg-realpath dpkg-split dpkg-statoverride dpkg-trigger egrep expand',
    'expiry expr factor faillog fallocate fgrep findfs findmnt flock fmt fold fsck',
    'fsck.cramfs fsck.minix fsfreeze fstab-decode fstrim getopt getty gpasswd groupadd',
    'groupdel groupmems groupmod groups grpck grpconv grpunconv gunzip gzexe gzip',
    'hardlink hostid i386 infocmp infotocap install installkernel ionice ipcmk ipcrm ipcs',
    'ischroot isosize join killall5 last lastb lastlog ldattach link linux32 linux64',
    'logger login logname losetup lsblk lscpu lsipc lslocks lslogins lsmem lsns mcookie',
    'md5sum md5sum.textutils mesg mkfifo mkfs mkfs.bfs mkfs.cramfs mkfs.minix mknod',
    'mkswap mktemp mountpoint namei newgrp newusers nice nisdomainname nl nohup nologin',
    'nsenter numfmt od partx passwd paste pathchk perl perl5.36.0 pidof pidwait pinky',
    'pivot_root pr prlimit ptx pwck pwconv pwdx pwunconv readprofile realpath',
    'remove-shell rename.ul renice reset resizepart rev rgrep rmt-tar rtcwake run-parts',
    'runcon runuser savelog script scriptlive scriptreplay sdiff setarch setpriv setsid',
    'setterm sg sha1sum sha224sum sha256sum sha384sum sha512sum shadowconfig shred shuf',
    'skill slabtop snice split start-stop-daemon stdbuf stty su sulogin sum swaplabel',
    'swapoff swapon switch_root sync tabs tac tar tarcat taskset tempfile tic timeout',
    'tload toe tput truncate tset tsort tty uclampset uncompress unexpand unlink unshare',
    'update-alternatives update-shells useradd userdel usermod users utmpdump vdir vigr',
    'vipw w wall wdctl whereis which.debianutils who wipefs x86_64 yes ypdomainname zcat',
    'zcmp zdiff zegrep zfgrep zforce zgrep zless zmore znew zramctl',
    // bash 5.2's builtins the lab shell does not run (`help` lists them)
    'history exit logout alias unalias source jobs fg bg wait read ulimit umask exec eval',
    'trap shift getopts hash help command builtin declare typeset local let readonly',
    'times shopt suspend disown dirs pushd popd caller compgen complete compopt fc',
    'mapfile readarray enable bind',
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
