/**
 * Each match's text in `iptables-save`/`-S` (the extension's ->save) and in `iptables -L`
 * (->print), following the libxt_*.c print/save functions of iptables 1.8.9. Every piece starts
 * with a space, as the C code prints it. Targets: ./render-target.ts.
 */
import { hex, maskSuffix, probabilityText, saveString } from './format';
import { printIcmp, saveIcmp } from './match-icmp';
import { printIprange, saveIprange } from './match-iprange';
import { printLimit, saveLimit } from './match-limit';
import { serviceName } from './services';
import { tcpFlagNames } from './match-ports';
import { protocolName } from './protocols';
import type { Match, PortRange, TcpFlagsMatch } from './types';

/** libxt_tcp's save of `--tcp-flags` (after the ports). */
function saveTcpFlags(f: TcpFlagsMatch | undefined): string {
  if (f === undefined) return '';
  return `${f.invert ? ' !' : ''} --tcp-flags ${tcpFlagNames(f.mask)} ${tcpFlagNames(f.cmp)}`;
}

/** libxt_tcp's print_flags(): names, or `0x%02X` with -n. */
function printTcpFlags(f: TcpFlagsMatch | undefined, numeric: boolean): string {
  if (f === undefined) return '';
  const text = (bits: number): string =>
    numeric ? `0x${bits.toString(16).toUpperCase().padStart(2, '0')}` : tcpFlagNames(bits);
  return ` flags:${f.invert ? '!' : ''}${text(f.mask)}/${text(f.cmp)}`;
}

// ---- matches: save --------------------------------------------------------------------

function savePortOpt(opt: string, r: PortRange | undefined, always: boolean): string {
  if (r === undefined) return '';
  if (!always && r.min === 0 && r.max === 0xffff && !r.invert) return '';
  const inv = r.invert ? ' !' : '';
  return r.min === r.max ? `${inv} --${opt} ${r.min}` : `${inv} --${opt} ${r.min}:${r.max}`;
}

function markMask(mark: number, mask: number): string {
  return mask === 0xffffffff ? ` ${hex(mark)}` : ` ${hex(mark)}/${hex(mask)}`;
}

/** The `-m NAME …` text of a match in iptables-save. */
export function saveMatch(m: Match): string {
  const head = ` -m ${m.name}`;
  switch (m.name) {
    case 'comment':
      return `${head} --comment${saveString(m.comment)}`;
    case 'tcp':
    case 'udp':
    case 'sctp': {
      const always = m.name === 'sctp';
      const ports = savePortOpt('sport', m.sport, always) + savePortOpt('dport', m.dport, always);
      return head + ports + saveTcpFlags(m.flags);
    }
    case 'icmp':
      return head + saveIcmp(m);
    case 'state':
      return `${head}${m.invert ? ' !' : ''} --state ${m.states.join(',')}`;
    case 'iprange':
      return head + saveIprange(m);
    case 'limit':
      return head + saveLimit(m);
    case 'multiport':
      return `${head}${m.invert ? ' !' : ''} --${m.dir} ${m.ports.map((p) => (p.min === p.max ? `${p.min}` : `${p.min}:${p.max}`)).join(',')}`;
    case 'statistic':
      return head + statisticText(m, '--');
    case 'recent': {
      let t = `${head}${m.invert ? ' !' : ''} --${m.op}`;
      if (m.seconds) t += ` --seconds ${m.seconds}`;
      if (m.reap) t += ' --reap';
      if (m.hitcount) t += ` --hitcount ${m.hitcount}`;
      if (m.rttl) t += ' --rttl';
      return `${t} --name ${m.listName} --mask ${m.mask} --${m.side === 'source' ? 'rsource' : 'rdest'}`;
    }
    case 'mark':
      return `${head}${m.invert ? ' !' : ''} --mark${markMask(m.mark, m.mask)}`;
    case 'conntrack':
      return `${head}${m.invert ? ' !' : ''} --ctstate ${m.states.join(',')}`;
    case 'addrtype': {
      let t = head;
      if (m.src) t += `${m.src.invert ? ' !' : ''} --src-type ${m.src.types.join(',')}`;
      if (m.dst) t += `${m.dst.invert ? ' !' : ''} --dst-type ${m.dst.types.join(',')}`;
      if (m.limitIfaceIn) t += ' --limit-iface-in';
      if (m.limitIfaceOut) t += ' --limit-iface-out';
      return t;
    }
    case 'nfacct':
      // nfacct_print_name(): " --nfacct-name " then xtables_save_string(), which adds its own space.
      return `${head} --nfacct-name ${saveString(m.objectName)}`;
    case 'set':
      return `${head}${setText(m, '--')}`;
    case 'physdev':
      return head + physdevText(m);
    case 'ipvs':
      return head + ipvsText(m, '--', true);
  }
}

function statisticText(m: Extract<Match, { name: 'statistic' }>, prefix: string): string {
  const inv = m.invert ? ' !' : '';
  if (m.mode === 'random')
    return ` ${prefix}mode random${inv} ${prefix}probability ${probabilityText(m.probability)}`;
  let t = ` ${prefix}mode nth${inv} ${prefix}every ${m.every}`;
  // print_match(): the packet is always saved, but only listed when non-zero.
  if (m.packet || prefix !== '') t += ` ${prefix}packet ${m.packet}`;
  return t;
}

function setText(m: Extract<Match, { name: 'set' }>, prefix: string): string {
  let t = `${m.invert ? ' !' : ''} ${prefix}match-set ${m.setName} ${m.dims.join(',')}`;
  if (m.returnNomatch) t += ` ${prefix}return-nomatch`;
  return t;
}

function physdevText(m: Extract<Match, { name: 'physdev' }>): string {
  const inv = (x: { invert: boolean } | undefined): string => (x?.invert ? ' !' : '');
  let t = '';
  if (m.isIn) t += `${inv(m.isIn)} --physdev-is-in`;
  if (m.physIn) t += `${inv(m.physIn)} --physdev-in ${m.physIn.name}`;
  if (m.isOut) t += `${inv(m.isOut)} --physdev-is-out`;
  if (m.physOut) t += `${inv(m.physOut)} --physdev-out ${m.physOut.name}`;
  if (m.isBridged) t += `${inv(m.isBridged)} --physdev-is-bridged`;
  return t;
}

function ipvsText(m: Extract<Match, { name: 'ipvs' }>, prefix: string, numeric: boolean): string {
  const inv = (x: { invert: boolean } | undefined): string => (x?.invert ? ' !' : '');
  let t = '';
  if (m.ipvs && !m.vproto && !m.vaddr && !m.vport && !m.vdir && !m.vmethod)
    t += `${inv(m.ipvs)} ${prefix}ipvs`;
  if (m.vproto) t += `${inv(m.vproto)} ${prefix}vproto ${m.vproto.proto}`;
  if (m.vaddr) {
    const a =
      !numeric && m.vaddr.addr === '0.0.0.0'
        ? 'anywhere'
        : m.vaddr.addr + maskSuffix(m.vaddr.prefix);
    t += `${inv(m.vaddr)} ${prefix}vaddr ${a}`;
  }
  if (m.vport) t += `${inv(m.vport)} ${prefix}vport ${m.vport.port}`;
  if (m.vdir) t += ` ${prefix}vdir ${m.vdir}`;
  if (m.vmethod) t += `${inv(m.vmethod)} ${prefix}vmethod ${m.vmethod.method}`;
  return t;
}

// ---- matches: -L ----------------------------------------------------------------------

function portName(port: number, proto: string, numeric: boolean): string {
  return (numeric ? undefined : serviceName(port, proto)) ?? String(port);
}

function printPorts(
  name: string,
  r: PortRange | undefined,
  proto: string,
  numeric: boolean,
  always: boolean,
): string {
  if (r === undefined) return '';
  if (!always && r.min === 0 && r.max === 0xffff && !r.invert) return '';
  const inv = r.invert ? '!' : '';
  if (r.min === r.max) return ` ${name}:${inv}${portName(r.min, proto, numeric)}`;
  return ` ${name}s:${inv}${portName(r.min, proto, numeric)}:${portName(r.max, proto, numeric)}`;
}

/** A match's text in `iptables -L`; `proto` is the rule's -p (multiport resolves names with it). */
export function printMatch(m: Match, numeric: boolean, proto: number): string {
  switch (m.name) {
    case 'comment':
      return ` /* ${m.comment} */`;
    case 'tcp':
    case 'udp':
    case 'sctp': {
      const always = m.name === 'sctp';
      return ` ${m.name}${printPorts('spt', m.sport, m.name, numeric, always)}${printPorts('dpt', m.dport, m.name, numeric, always)}${printTcpFlags(m.flags, numeric)}`;
    }
    case 'icmp':
      return printIcmp(m, numeric);
    case 'state':
      return `${m.invert ? ' !' : ''} state ${m.states.join(',')}`;
    case 'iprange':
      return printIprange(m);
    case 'limit':
      return printLimit(m);
    case 'multiport': {
      const pname = protocolName(proto) ?? '';
      const ports = m.ports
        .map(
          (p) =>
            portName(p.min, pname, numeric) +
            (p.min === p.max ? '' : `:${portName(p.max, pname, numeric)}`),
        )
        .join(',');
      return ` multiport ${m.dir} ${m.invert ? ' !' : ''}${ports}`;
    }
    case 'statistic':
      return ` statistic${statisticText(m, '')}`;
    case 'recent': {
      let t = `${m.invert ? ' !' : ''} recent: ${m.op === 'rcheck' ? 'CHECK' : m.op.toUpperCase()}`;
      if (m.seconds) t += ` seconds: ${m.seconds}`;
      if (m.reap) t += ' reap';
      if (m.hitcount) t += ` hit_count: ${m.hitcount}`;
      if (m.rttl) t += ' TTL-Match';
      return `${t} name: ${m.listName} side: ${m.side} mask: ${m.mask}`;
    }
    case 'mark':
      return ` mark match${m.invert ? ' !' : ''}${markMask(m.mark, m.mask)}`;
    case 'conntrack':
      return `${m.invert ? ' !' : ''} ctstate ${m.states.join(',')}`;
    case 'addrtype': {
      let t = ' ADDRTYPE match';
      if (m.src) t += ` src-type ${m.src.invert ? '!' : ''}${m.src.types.join(',')}`;
      if (m.dst) t += ` dst-type ${m.dst.invert ? '!' : ''}${m.dst.types.join(',')}`;
      if (m.limitIfaceIn) t += ' limit-in';
      if (m.limitIfaceOut) t += ' limit-out';
      return t;
    }
    case 'nfacct':
      return ` nfacct-name ${saveString(m.objectName)}`;
    case 'set':
      return setText(m, '');
    case 'physdev':
      return ` PHYSDEV match${physdevText(m)}`;
    case 'ipvs':
      return ipvsText(m, '', numeric);
  }
}
