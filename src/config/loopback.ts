import { isIPv4, isIPv6 } from 'node:net';

/** `0.0.0.0` and `::`: every interface (and, as a destination, this machine). */
export function isWildcardHost(hostname: string): boolean {
  const h = bare(hostname);
  return h === '0.0.0.0' || h === '::' || h === '0:0:0:0:0:0:0:0';
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:7f00:1` → `127.0.0.1`), if it is one. */
function mappedIpv4(h: string): string | undefined {
  if (!isIPv6(h)) return undefined;
  const m = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?:?ffff:(.+)$/.exec(h) ?? /^::(.+)$/.exec(h);
  if (!m) return undefined;
  const rest = m[1] as string;
  if (isIPv4(rest)) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return undefined;
  const hi = parseInt(hex[1] as string, 16);
  const lo = parseInt(hex[2] as string, 16);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/**
 * Whether `hostname` (a URL's, with or without brackets) names this machine: `localhost` and
 * `*.localhost`, 127.0.0.0/8, `::1`, the wildcard addresses, and an IPv4-mapped or -compatible
 * IPv6 address of any of those (`[::ffff:7f00:1]`, `[::ffff:127.0.0.1]`).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = bare(hostname);
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || isWildcardHost(h)) return true;
  if (isIPv4(h)) return h.startsWith('127.') || h === '0.0.0.0';
  const v4 = mappedIpv4(h);
  return v4 !== undefined && (v4.startsWith('127.') || v4 === '0.0.0.0');
}
