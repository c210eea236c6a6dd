import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// Staff passwords: scrypt, a memory-hard function (N=2^15, r=8: 32 MiB a hash).

const N = 2 ** 15;
const r = 8;
const p = 1;
const maxmem = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, { N: n, r: rr, p: pp, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(rr), Number(pp));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

let decoy: Promise<string> | undefined;
/** A hash of a random password: an unknown email then costs as much time as a wrong password. */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}
