/**
 * Each target's text in `iptables-save`/`-S` (the extension's ->save) and in `iptables -L`
 * (->print), following the libxt_*.c print/save functions of iptables 1.8.9. Every piece
 * starts with a space, as the C code prints it. Matches: ./render-ext.ts.
 */
import { hex, saveString } from './format';
import type { NatRange, Target } from './types';

/** sprint_range() of libxt_NAT. */
function natRange(r: NatRange): string {
  let t = '';
  if (r.minAddr !== undefined)
    t += r.minAddr + (r.maxAddr !== undefined && r.maxAddr !== r.minAddr ? `-${r.maxAddr}` : '');
  if (r.minPort !== undefined)
    t += `:${r.minPort}${r.maxPort !== undefined && r.maxPort !== r.minPort ? `-${r.maxPort}` : ''}`;
  return t;
}

function natText(r: NatRange, rangeOpt: string, flagPrefix: string, skipColon: boolean): string {
  let range = natRange(r);
  let t = '';
  if (range !== '') {
    if (skipColon && range.startsWith(':')) range = range.slice(1);
    t += ` ${rangeOpt}${range}`;
  }
  if (r.random) t += ` ${flagPrefix}random`;
  if (r.randomFully) t += ` ${flagPrefix}random-fully`;
  if (r.persistent) t += ` ${flagPrefix}persistent`;
  return t;
}

/** The `-j …`/`-g …` text of a target in iptables-save (empty for a rule without target). */
export function saveTarget(t: Target): string {
  switch (t.kind) {
    case 'none':
      return '';
    case 'jump':
      return ` -${t.goto ? 'g' : 'j'} ${t.chain}`;
    case 'ACCEPT':
    case 'DROP':
    case 'RETURN':
      return ` -j ${t.kind}`;
    case 'REJECT':
      return ` -j REJECT --reject-with ${t.with}`;
    case 'DNAT':
      return ` -j DNAT${natText(t.range, '--to-destination ', '--', false)}`;
    case 'SNAT':
      return ` -j SNAT${natText(t.range, '--to-source ', '--', false)}`;
    case 'MASQUERADE':
    case 'REDIRECT':
      return ` -j ${t.kind}${natText(t.range, '--to-ports ', '--', true)}`;
    case 'MARK':
      return ` -j MARK --set-xmark ${hex(t.value)}/${hex(t.mask)}`;
    case 'CONNMARK':
      if (t.mode === 'set') return ` -j CONNMARK --set-xmark ${hex(t.ctmark)}/${hex(t.ctmask)}`;
      return ` -j CONNMARK --${t.mode}-mark --nfmask ${hex(t.nfmask)} --ctmask ${hex(t.ctmask)}`;
    case 'LOG': {
      let s = ' -j LOG';
      if (t.prefix !== '') s += ` --log-prefix${saveString(t.prefix)}`;
      if (t.level !== 4) s += ` --log-level ${t.level}`;
      const names = [
        'log-tcp-sequence',
        'log-tcp-options',
        'log-ip-options',
        'log-uid',
        '',
        'log-macdecode',
      ];
      names.forEach((n, i) => {
        if (n !== '' && t.flags & (1 << i)) s += ` --${n}`;
      });
      return s;
    }
    case 'TRACE':
      return ' -j TRACE';
    case 'NOTRACK':
      return ' -j NOTRACK';
    case 'CT':
      return ` -j CT${t.notrack ? ' --notrack' : ''}`;
  }
}

/** The target column of `iptables -L`. */
export function targetName(t: Target): string {
  // NOTRACK is xt_CT's alias: the kernel's rule holds a CT target, and -L names that.
  if (t.kind === 'NOTRACK') return 'CT';
  return t.kind === 'none' ? '' : t.kind === 'jump' ? t.chain : t.kind;
}

/** syslog.h prioritynames[] order: the first name with the level wins (LOG_print). */
const PRIORITY_NAMES = ['emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info', 'debug'];

function markOp(what: string, value: number, mask: number): string {
  if (value === 0) return ` ${what} and ${hex(~mask >>> 0)}`;
  if (value === mask) return ` ${what} or ${hex(value)}`;
  if (mask === 0) return ` ${what} xor ${hex(value)}`;
  if (mask === 0xffffffff) return ` ${what} set ${hex(value)}`;
  return ` ${what} xset ${hex(value)}/${hex(mask)}`;
}

/** The target's options text at the end of an `iptables -L` line. */
export function printTarget(t: Target, numeric: boolean): string {
  switch (t.kind) {
    case 'REJECT':
      return ` reject-with ${t.with}`;
    case 'DNAT':
    case 'SNAT':
      return natText(t.range, 'to:', '', false);
    case 'MASQUERADE':
      return natText(t.range, 'masq ports: ', '', true);
    case 'REDIRECT':
      return natText(t.range, 'redir ports ', '', true);
    case 'NOTRACK':
      return ' NOTRACK';
    case 'CT':
      return t.notrack ? ' CT notrack' : ' CT';
    case 'MARK':
      return markOp('MARK', t.value, t.mask);
    case 'CONNMARK':
      if (t.mode === 'set') return markOp('CONNMARK', t.ctmark, t.ctmask);
      if (t.nfmask === 0xffffffff && t.ctmask === 0xffffffff) return ` CONNMARK ${t.mode}`;
      if (t.nfmask === t.ctmask) return ` CONNMARK ${t.mode} mask ${hex(t.nfmask)}`;
      return t.mode === 'save'
        ? ` CONNMARK save nfmask ${hex(t.nfmask)} ctmask ~${hex(t.ctmask)}`
        : ` CONNMARK restore ctmask ${hex(t.ctmask)} nfmask ~${hex(t.nfmask)}`;
    case 'LOG': {
      let s = ' LOG';
      if (numeric) s += ` flags ${t.flags} level ${t.level}`;
      else {
        s += ` level ${PRIORITY_NAMES[t.level] ?? `UNKNOWN level ${t.level}`}`;
        const names = ['tcp-sequence', 'tcp-options', 'ip-options', 'uid', '', 'macdecode'];
        names.forEach((n, i) => {
          if (n !== '' && t.flags & (1 << i)) s += ` ${n}`;
        });
      }
      if (t.prefix !== '') s += ` prefix "${t.prefix}"`;
      return s;
    }
    default:
      return '';
  }
}
