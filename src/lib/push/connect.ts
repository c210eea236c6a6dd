import { refusalReason } from '../outbound/address.js';
import { systemResolver, type Resolver } from '../outbound/resolve.js';
import { parseTarget, type Target } from '../outbound/target.js';
import { trustFor, type TestTrust } from '../outbound/test-trust.js';

// Where a push connection may go, checked as outbound posts are (src/lib/outbound): https only, the
// host looked up once and every address public, unless the test setting names the exact host:port,
// and then only its certificate authority is trusted. A Web Push endpoint is an address a browser
// handed in, so it is checked like a customer's webhook address; the providers' own addresses are
// configuration, and checked the same way so that a test's stand-ins are reached only by the test setting.

export interface PushTransportOptions {
  /** Tests only: the stand-ins a push may reach though their addresses are private (OUTBOUND_TEST_TRUST). */
  testTrust?: TestTrust;
  /** How host names are looked up (default: the system's). */
  resolve?: Resolver;
}

export interface CheckedTarget {
  target: Target;
  /** Addresses the connection may use, each checked. */
  addresses: string[];
  /** The test trust that applies to this exact target, if any: then its CA is the only one trusted. */
  trust: TestTrust | undefined;
}

/** The target of `url` with its checked addresses, or why no connection may be made. */
export async function checkTarget(url: string, opts: PushTransportOptions): Promise<CheckedTarget | { refused: string }> {
  const target = parseTarget(url);
  if ('refused' in target) return target;
  const trust = trustFor(opts.testTrust, target);
  let addresses: string[];
  if (target.literal) addresses = [target.host];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(target.host);
    } catch (err) {
      return { refused: `${target.host}: ${(err as { code?: string }).code ?? (err as Error).message}` };
    }
    if (!addresses.length) return { refused: `${target.host}: no address` };
  }
  if (!trust) {
    for (const address of addresses) {
      const why = refusalReason(address);
      if (why) return { refused: target.literal ? `${address} is ${why}` : `${target.host} resolves to ${address} (${why})` };
    }
  }
  return { target, addresses, trust };
}

/** The TLS options of a connection to a checked target: its first address, the host's name for SNI and identity, and the test CA alone when one applies. */
export function tlsOptionsOf({ target, addresses, trust }: CheckedTarget) {
  return {
    host: addresses[0]!,
    port: target.port,
    ...(target.literal ? {} : { servername: target.host }),
    ...(trust ? { ca: trust.ca } : {}),
  };
}
