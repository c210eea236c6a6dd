import { isIP } from 'node:net';

// The address a post goes to, read once: https only, no credentials, a host name or an IP literal.

export interface Target {
  /** Lower case, IPv6 without brackets; IPv4 in dotted form whatever way it was written (0x7f.1 is 127.0.0.1). */
  host: string;
  /** Any port; 443 when none is written. */
  port: number;
  /** Path and query, as sent in the request line. */
  path: string;
  /** The host is an IP literal: no lookup, no SNI. */
  literal: boolean;
}

export function parseTarget(text: string): Target | { refused: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:') return { refused: `only https is allowed, not ${url.protocol.replace(/:$/, '')}` };
  if (url.username || url.password) return { refused: 'credentials in the URL are not allowed' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!host) return { refused: 'no host' };
  return { host, port: url.port ? Number(url.port) : 443, path: `${url.pathname}${url.search}`, literal: isIP(host) !== 0 };
}

/** `host:port` as a URL writes it (`[::1]:8443`), for messages and for matching the test setting. */
export function hostPort(t: Pick<Target, 'host' | 'port'>): string {
  return `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;
}
