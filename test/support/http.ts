import { contractProblem } from './contract.js';
import { SignJWT } from 'jose';

/** A user token as a customer's backend would make it. */
export async function userToken(
  identitySecret: string,
  claims: { sub?: string; exp?: number | string; iat?: number } = { sub: 'user-1' },
): Promise<string> {
  const jwt = new SignJWT(claims.sub === undefined ? {} : { sub: claims.sub }).setProtectedHeader({ alg: 'HS256' });
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  else jwt.setIssuedAt();
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  else jwt.setExpirationTime('1h');
  return jwt.sign(new TextEncoder().encode(identitySecret));
}

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; json?: unknown; body?: string } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const problem = contractProblem(method, path, res.status, res.headers.get('content-type'), json, text);
  if (problem) throw new Error(`the answer breaks the published contract: ${problem}`);
  return { status: res.status, headers: res.headers, json, text };
}
