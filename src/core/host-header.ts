import { isIP } from 'node:net';

/**
 * The `Host` header's allow-list, against DNS rebinding: a page on `evil.example` whose name is made
 * to resolve to 127.0.0.1 reaches a loopback listener with `Host: evil.example`. A listener on this
 * machine answers only the loopback names, loopback addresses and the names it is configured for.
 */

/** The host name of a `Host` header, lower case, without its port or an IPv6 address's brackets. */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const h = header.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(h);
  if (v6) return v6[1];
  const m = /^([^:\s[\]/]+)(?::\d+)?$/.exec(h);
  return m ? m[1] : undefined;
}

/** Whether `name` (a host name as {@link hostName} gives it) is this machine by its loopback name or address. */
function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

/**
 * Whether a request's `Host` header names this listener: a loopback name or address, or one of
 * `names` (the configured LAN names: the LAN host, its certificate's names). A request without
 * a Host header is refused too.
 */
export function isAllowedHost(header: string | undefined, names: ReadonlySet<string> = new Set()): boolean {
  const name = hostName(header);
  if (name === undefined) return false;
  return isLoopbackName(name) || names.has(name);
}
