import { scopeOf, type ServerCaller, type Services } from '../context.js';
import { unauthorized } from '../errors.js';
import { hashServerKey, modeOfServerKey } from '../apps/credentials.js';

/** A server key opens only its own app-mode. Revoked, mistyped, unknown, or an archived app: 401. */
export async function authenticateServer(svc: Services, authorization: string | undefined): Promise<ServerCaller> {
  if (!authorization) throw unauthorized('Send your server key as Authorization: Bearer crm_sk_….');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match || !modeOfServerKey(match[1]!)) throw unauthorized('The Authorization header must be "Bearer crm_sk_…" with a server key.');
  // Looked up by its SHA-256: the raw key is never stored nor compared byte by byte.
  const hash = hashServerKey(match[1]!);
  const key = await svc.credentials.serverKeyByHash(hash, () =>
    svc.db.serverKey.findUnique({ where: { keyHash: hash }, select: { id: true, revokedAt: true, appMode: true } }),
  );
  if (!key) throw unauthorized('This server key is not known.');
  if (key.revokedAt) throw unauthorized('This server key has been revoked.');
  if (key.appMode.archived) throw unauthorized('This app is archived.');
  return { kind: 'server', ...scopeOf(key.appMode), serverKeyId: key.id };
}
