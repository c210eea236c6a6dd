import { isIPv4, isIPv6 } from 'node:net';

// Which IP addresses an outbound post may connect to. IPv4: everything but the special-purpose
// ranges below. IPv6: only global unicast (2000::/3) minus its special parts; IPv4 carried inside
// IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged as that IPv4 address.

type Range = readonly [prefix: readonly number[], bits: number, reason: string];

/** Cloud metadata and host services, refused by name even where their range is public. */
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '169.254.169.253', '100.100.100.200', '168.63.129.16', '192.0.0.192']);

/** Most specific first: the first match names the reason. */
const V4: readonly Range[] = [
  [[0, 0, 0, 0], 32, 'unspecified'],
  [[0], 8, 'this network'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared address space (CGNAT)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2], 24, 'documentation'],
  [[192, 88, 99], 24, '6to4 relay anycast'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'benchmarking'],
  [[198, 51, 100], 24, 'documentation'],
  [[203, 0, 113], 24, 'documentation'],
  [[224], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240], 4, 'reserved'],
];

const V6: readonly Range[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'cloud metadata'],
  [[0x20, 0x01, 0x00, 0x00], 32, 'Teredo'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
  [[0x20, 0x01, 0x00], 23, 'IETF protocol assignments (benchmarking, ORCHID)'],
  [[0x3f, 0xff, 0x00], 20, 'documentation'],
  // Outside 2000::/3, named only to say why.
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 'IPv4-compatible (deprecated)'],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'NAT64 local use'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'discard only'],
  [[0xfc], 7, 'unique local'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local (deprecated)'],
  [[0xff], 8, 'multicast'],
];

/** Why `address` (an IPv4 or IPv6 literal, no brackets) may not be posted to, or undefined when it may. */
export function refusalReason(address: string): string | undefined {
  if (isIPv4(address)) return reasonV4(parseV4(address));
  if (isIPv6(address)) {
    if (address.includes('%')) return 'scoped (zone index)';
    return reasonV6(parseV6(address));
  }
  return 'not an IP address';
}

function reasonV4(b: readonly number[]): string | undefined {
  if (METADATA_V4.has(b.join('.'))) return 'cloud metadata';
  return V4.find(([prefix, bits]) => matches(b, prefix, bits))?.[2];
}

function reasonV6(b: readonly number[]): string | undefined {
  const embedded = (label: string, v4: readonly number[]) => {
    const why = reasonV4(v4);
    return why === undefined ? undefined : `${label} ${v4.join('.')}: ${why}`;
  };
  if (matches(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return embedded('IPv4-mapped', b.slice(12));
  if (matches(b, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return embedded('NAT64 of', b.slice(12));
  if (matches(b, [0x20, 0x02], 16)) return embedded('6to4 of', b.slice(2, 6));
  const named = V6.find(([prefix, bits]) => matches(b, prefix, bits))?.[2];
  if (named) return named;
  if ((b[0]! & 0xe0) !== 0x20) return 'not global unicast';
  return undefined;
}

function matches(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function parseV4(text: string): number[] {
  return text.split('.').map((part) => Number.parseInt(part, 10));
}

/** 16 bytes of an address net.isIPv6 accepted (`::` shortening and a dotted IPv4 tail included). */
export function parseV6(text: string): number[] {
  let groups: number[] = [];
  const toGroups = (part: string) => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = parseV4(piece) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(Number.parseInt(piece, 16));
    }
    return out;
  };
  const gap = text.indexOf('::');
  if (gap === -1) groups = toGroups(text);
  else {
    const head = toGroups(text.slice(0, gap));
    const tail = toGroups(text.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}
