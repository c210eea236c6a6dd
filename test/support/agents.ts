import { randomUUID } from 'node:crypto';
import { randomToken, sha256 } from '../../src/lib/secrets.js';
import { unique } from './factories.js';
import type { TestServer } from './server.js';

/**
 * `n` agents of a workspace, each with a session token, made in the database in two statements
 * each (no password hashed, no sign-in): for tests about many members at once.
 */
export async function agents(t: TestServer, workspaceId: string, n: number): Promise<{ id: string; name: string; token: string }[]> {
  const made = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), name: `Agent ${i + 1}`, token: `crm_st_${randomToken(40)}` }));
  await t.svc.db.staffUser.createMany({
    data: made.map((a) => ({ id: a.id, email: `${unique('agent')}@example.com`, name: a.name, passwordHash: 'none' })),
  });
  await t.svc.db.membership.createMany({ data: made.map((a) => ({ workspaceId, staffUserId: a.id, role: 'agent' as const })) });
  const now = t.clock.now().getTime();
  await t.svc.db.staffSession.createMany({
    data: made.map((a) => ({
      id: randomUUID(),
      staffUserId: a.id,
      tokenHash: sha256(a.token),
      createdAt: new Date(now),
      expiresAt: new Date(now + 86_400_000),
    })),
  });
  return made;
}
