import { readFileSync } from 'node:fs';
import { hostPort, parseTarget, type Target } from './target.js';

// The one way a post reaches a private address: a test receiver named exactly (host and port)
// together with the certificate authority that signed its certificate. Both or nothing.

export interface TestTrust {
  /** Exact `host:port` targets (`127.0.0.1:4443`, `[::1]:4443`, `localhost:4443`) whose addresses are not checked. */
  allow: readonly string[];
  /** PEM of the certificate (authority) those targets' certificates chain to; the only one trusted for them. */
  ca: string;
}

/** The trust that applies to `target`, if any. Matching is exact after normalising like a URL. */
export function trustFor(trust: TestTrust | undefined, target: Target): TestTrust | undefined {
  if (!trust) return undefined;
  const here = hostPort(target);
  return trust.allow.some((entry) => normalise(entry) === here) ? trust : undefined;
}

function normalise(entry: string): string | undefined {
  const t = parseTarget(`https://${entry}/`);
  if ('refused' in t || !(t.literal || /^[a-z0-9.-]+$/.test(t.host))) return undefined;
  return hostPort(t);
}

/**
 * The OUTBOUND_TEST_TRUST setting, `allow=<host:port>[,<host:port>…];ca=<PEM file>`, read into a
 * TestTrust (the file read now). Anything else in it is an error: a typo must not widen what is allowed.
 */
export function readTestTrust(setting: string | undefined): TestTrust | undefined {
  if (setting === undefined || setting.trim() === '') return undefined;
  const fields = new Map<string, string>();
  for (const part of setting.split(';')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq < 1 || fields.has(key) || (key !== 'allow' && key !== 'ca'))
      throw new Error(`OUTBOUND_TEST_TRUST must be allow=<host:port>[,…];ca=<PEM file>, not "${setting}"`);
    fields.set(key, part.slice(eq + 1).trim());
  }
  const allow = (fields.get('allow') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const caFile = fields.get('ca');
  if (!allow.length || !caFile) throw new Error('OUTBOUND_TEST_TRUST needs both allow=<host:port> and ca=<PEM file>');
  for (const entry of allow) {
    if (!/:\d+$/.test(entry) || normalise(entry) === undefined)
      throw new Error(`OUTBOUND_TEST_TRUST: "${entry}" is not an exact host:port`);
  }
  const ca = readFileSync(caFile, 'utf8');
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`OUTBOUND_TEST_TRUST: ${caFile} holds no PEM certificate`);
  return { allow, ca };
}
