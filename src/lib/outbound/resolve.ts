import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

// A host name is looked up once; the connection is then handed only the addresses that were
// checked, so a DNS answer that changes afterwards (rebinding) cannot move it elsewhere.

/** Every address (A and AAAA) of a host name. Tests pass their own; the default asks the system. */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** A `lookup` for https.request that answers with `addresses` and never asks DNS. */
export function fixedLookup(host: string, addresses: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = typeof options === 'number' ? options : options?.family;
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
    const answers = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => !wanted || a.family === wanted);
    const first = answers[0];
    if (hostname.toLowerCase() !== host || !first) {
      const err = Object.assign(new Error(`no checked address for ${hostname}`), { code: 'ENOTFOUND' });
      return callback(err, '', 0);
    }
    if (typeof options === 'object' && options?.all) return (callback as (e: null, a: typeof answers) => void)(null, answers);
    callback(null, first.address, first.family);
  };
}
