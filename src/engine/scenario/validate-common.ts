/**
 * The name, label, port and IP checks of k8s.io/apimachinery/pkg/util/validation and
 * pkg/apis/core/validation, with their messages verbatim (including the double space that
 * `RegexError` leaves between examples).
 */
import { cidrParse, ipIsValid } from '../model/ip';

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** IsDNS1123Label: namespaces, container names, port names of Services. */
export function dns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL_FMT,
        'my-name',
        '123-abc',
      ),
    );
  }
  return errs;
}

/** IsDNS1123Subdomain: Pod, Deployment, Node and EndpointSlice names. */
export function dns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return errs;
}

/** IsDNS1035Label: Service names (they become DNS labels and environment variable names). */
export function dns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** IsQualifiedName: label keys (`prefix/name`). */
export function qualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name = value;
  if (parts.length === 2) {
    const [prefix = '', n = ''] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else if (parts.length > 2) {
    return [
      regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_FMT,
        'MyName',
        'my.name',
        '123-abc',
      ) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME.test(name)) {
    errs.push(
      `name part ${regexError(
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME_FMT,
        'MyName',
        'my.name',
        '123-abc',
      )}`,
    );
  }
  return errs;
}

/** IsValidLabelValue. */
export function labelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** IsValidPortNum. */
export function portNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** IsValidPortName (IANA_SVC_NAME): container port names and named targetPorts. */
export function portName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const IPV4_LOOSE = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * IsValidIP (strict form, k8s ≥ 1.32). The lab models an IPv4 single-stack cluster, so an
 * IPv6 address is refused with a lab-specific detail.
 */
export function ipAddress(value: string): string[] {
  if (isDottedQuad(value) || ipIsValid(value)) return [];
  if (IPV4_LOOSE.test(value) && value.split('.').every((o) => Number(o) <= 255)) {
    return ['must not have leading 0s'];
  }
  if (value.includes(':') && /^[0-9a-fA-F:.]+$/.test(value)) {
    return ['the lab models an IPv4 single-stack cluster: IPv6 addresses are not supported'];
  }
  return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/**
 * ipIsValid's answer for the common case without splitting the text (100,000 endpoint
 * addresses): four octets 0–255 of ASCII digits, no leading zeros. False sends the value to
 * ipIsValid itself.
 */
function isDottedQuad(v: string): boolean {
  let octets = 0;
  let digits = 0;
  let n = 0;
  let first = 0;
  for (let i = 0; i <= v.length; i++) {
    const c = i < v.length ? v.charCodeAt(i) : 46;
    if (c === 46) {
      if (digits === 0 || (digits > 1 && first === 48) || n > 255) return false;
      octets++;
      digits = 0;
      n = 0;
    } else {
      if (c < 48 || c > 57 || digits === 3) return false;
      if (digits === 0) first = c;
      n = n * 10 + c - 48;
      digits++;
    }
  }
  return octets === 4;
}

/** IsValidCIDR (strict: no host bits, no leading zeros). */
export function cidr(value: string): string[] {
  if (cidrParse(value)) return [];
  const slash = value.indexOf('/');
  const addr = slash < 0 ? value : value.slice(0, slash);
  if (value.includes(':')) {
    return ['the lab models an IPv4 single-stack cluster: IPv6 CIDRs are not supported'];
  }
  const loose = cidrParse(value, { allowHostBits: true });
  if (loose) return ['must not have bits set beyond the prefix length'];
  if (
    slash >= 0 &&
    ipAddress(addr).length === 1 &&
    ipAddress(addr)[0] === 'must not have leading 0s'
  ) {
    return ['must not have leading 0s in IP or prefix length'];
  }
  return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
}

/** ValidateNonSpecialIP: externalIPs may not be unspecified, loopback or link-local. */
export function nonSpecialIP(value: string): string[] {
  const errs: string[] = [];
  if (value === '0.0.0.0') errs.push(`may not be unspecified (${value})`);
  if (value.startsWith('127.'))
    errs.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (value.startsWith('169.254.'))
    errs.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (value.startsWith('224.0.0.')) {
    errs.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  }
  return errs;
}
