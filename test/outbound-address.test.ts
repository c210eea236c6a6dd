import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTestTrust, refusalReason } from '../src/lib/outbound/index.js';
import { parseTarget } from '../src/lib/outbound/target.js';
import { trustFor } from '../src/lib/outbound/test-trust.js';

// Which addresses outbound posts may reach, decided on literals alone (the posts themselves, with
// real sockets, are in outbound.test.ts).

const refused: Record<string, string> = {
  // IPv4
  '0.0.0.0': 'unspecified',
  '0.1.2.3': 'this network',
  '127.0.0.1': 'loopback',
  '127.255.255.254': 'loopback',
  '10.0.0.1': 'private',
  '10.255.255.255': 'private',
  '172.16.0.1': 'private',
  '172.31.255.255': 'private',
  '192.168.1.1': 'private',
  '169.254.1.1': 'link-local',
  '169.254.169.254': 'cloud metadata',
  '169.254.170.2': 'cloud metadata',
  '100.100.100.200': 'cloud metadata',
  '168.63.129.16': 'cloud metadata',
  '100.64.0.1': 'shared address space (CGNAT)',
  '100.127.255.255': 'shared address space (CGNAT)',
  '224.0.0.1': 'multicast',
  '239.255.255.250': 'multicast',
  '255.255.255.255': 'broadcast',
  '240.0.0.1': 'reserved',
  '198.18.0.1': 'benchmarking',
  '198.19.255.255': 'benchmarking',
  '192.0.2.1': 'documentation',
  '198.51.100.7': 'documentation',
  '203.0.113.9': 'documentation',
  '192.0.0.8': 'IETF protocol assignments',
  '192.88.99.1': '6to4 relay anycast',
  // IPv6
  '::': 'unspecified',
  '::1': 'loopback',
  '0:0:0:0:0:0:0:1': 'loopback',
  '::ffff:127.0.0.1': 'IPv4-mapped 127.0.0.1: loopback',
  '::ffff:7f00:1': 'IPv4-mapped 127.0.0.1: loopback',
  '::ffff:10.0.0.1': 'IPv4-mapped 10.0.0.1: private',
  '::ffff:169.254.169.254': 'IPv4-mapped 169.254.169.254: cloud metadata',
  '::ffff:100.64.0.1': 'IPv4-mapped 100.64.0.1: shared address space (CGNAT)',
  '::127.0.0.1': 'IPv4-compatible (deprecated)',
  '::8.8.8.8': 'IPv4-compatible (deprecated)',
  '::ffff:0:127.0.0.1': 'not global unicast',
  '64:ff9b::127.0.0.1': 'NAT64 of 127.0.0.1: loopback',
  '64:ff9b::a00:1': 'NAT64 of 10.0.0.1: private',
  '64:ff9b::169.254.169.254': 'NAT64 of 169.254.169.254: cloud metadata',
  '64:ff9b:1::1': 'NAT64 local use',
  '2002:7f00:1::': '6to4 of 127.0.0.1: loopback',
  '2002:c0a8:101::1': '6to4 of 192.168.1.1: private',
  '2002:a9fe:a9fe::1': '6to4 of 169.254.169.254: cloud metadata',
  '2001::1': 'Teredo',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2': 'Teredo',
  '2001:2::1': 'IETF protocol assignments (benchmarking, ORCHID)',
  '2001:db8::1': 'documentation',
  '3fff::1': 'documentation',
  'fc00::1': 'unique local',
  'fd12:3456::1': 'unique local',
  'fd00:ec2::254': 'cloud metadata',
  'fe80::1': 'link-local',
  'febf:ffff::1': 'link-local',
  'fe80::1%lo': 'scoped (zone index)',
  'fec0::1': 'site-local (deprecated)',
  'ff02::1': 'multicast',
  'ff05::1:3': 'multicast',
  '100::1': 'discard only',
  '4000::1': 'not global unicast',
  // Not an address at all
  localhost: 'not an IP address',
  '127.1': 'not an IP address',
};

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '11.0.0.1',
  '93.184.215.14',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '3fff:1000::1',
];

describe('addresses', () => {
  it.each(Object.entries(refused))('%s is refused: %s', (address, reason) => {
    expect(refusalReason(address)).toBe(reason);
  });

  it.each(allowed)('%s is allowed', (address) => {
    expect(refusalReason(address)).toBeUndefined();
  });
});

describe('targets', () => {
  it('are https with a host, any port, no credentials; IPv4 however written reads as dotted', () => {
    expect(parseTarget('https://Hooks.Example.COM/in?a=1')).toEqual({
      host: 'hooks.example.com',
      port: 443,
      path: '/in?a=1',
      literal: false,
    });
    expect(parseTarget('https://[::1]:8443/')).toEqual({ host: '::1', port: 8443, path: '/', literal: true });
    expect(parseTarget('https://0x7f.1:9/')).toMatchObject({ host: '127.0.0.1', literal: true });
    expect(parseTarget('https://2130706433/')).toMatchObject({ host: '127.0.0.1', literal: true });
    expect(parseTarget('http://example.com/')).toEqual({ refused: 'only https is allowed, not http' });
    expect(parseTarget('ftp://example.com/')).toEqual({ refused: 'only https is allowed, not ftp' });
    expect(parseTarget('https://user:pw@example.com/')).toEqual({ refused: 'credentials in the URL are not allowed' });
    expect(parseTarget('https://user@example.com/')).toEqual({ refused: 'credentials in the URL are not allowed' });
    expect(parseTarget('/relative')).toEqual({ refused: 'not an absolute URL' });
  });
});

describe('the test setting', () => {
  async function caFile() {
    const dir = await mkdtemp(path.join(tmpdir(), 'outbound-trust-'));
    const file = path.join(dir, 'ca.pem');
    await writeFile(file, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    return file;
  }

  it('names the CA and exact host:port targets, and nothing else', async () => {
    const file = await caFile();
    const trust = readTestTrust(`allow=127.0.0.1:4443, [::1]:4443;ca=${file}`)!;
    expect(trust.allow).toEqual(['127.0.0.1:4443', '[::1]:4443']);
    expect(trust.ca).toContain('BEGIN CERTIFICATE');
    const at = (url: string) => trustFor(trust, parseTarget(url) as Exclude<ReturnType<typeof parseTarget>, { refused: string }>);
    expect(at('https://127.0.0.1:4443/x')).toBe(trust);
    expect(at('https://[::1]:4443/')).toBe(trust);
    expect(at('https://127.0.0.1:4444/')).toBeUndefined();
    expect(at('https://localhost:4443/')).toBeUndefined();
    expect(at('https://127.0.0.2:4443/')).toBeUndefined();
    expect(readTestTrust(undefined)).toBeUndefined();
    expect(readTestTrust('')).toBeUndefined();
  });

  it('refuses anything unclear', async () => {
    const file = await caFile();
    expect(() => readTestTrust('allow=127.0.0.1:4443')).toThrow(/both/);
    expect(() => readTestTrust(`ca=${file}`)).toThrow(/both/);
    expect(() => readTestTrust(`allow=127.0.0.1;ca=${file}`)).toThrow(/exact host:port/);
    expect(() => readTestTrust(`allow=*:4443;ca=${file}`)).toThrow(/exact host:port/);
    expect(() => readTestTrust(`allow=127.0.0.1:4443;ca=${file};private=all`)).toThrow(/must be/);
    expect(() => readTestTrust('true')).toThrow(/must be/);
    expect(() => readTestTrust(`allow=127.0.0.1:4443;ca=${path.dirname(file)}/missing.pem`)).toThrow(/ENOENT/);
  });
});
