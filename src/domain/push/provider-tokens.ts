import type { ProviderToken, ProviderTokenStore } from '../../lib/push/apns.js';
import type { Services } from '../context.js';
import { throughCuts } from '../../db/lost-connection.js';
import { exec, sql } from '../../db/sql.js';

// The APNs provider tokens in the database, one per signing key, so every server process (and one
// started again) sends with the same token and renews it once: APNs refuses a key's token renewed
// more often than every 20 minutes. A token is a bearer credential for an hour: kept sealed.

export function providerTokenStore(svc: Pick<Services, 'db' | 'pool' | 'secrets'>): ProviderTokenStore {
  const open = (row: { sealed: string; madeAt: Date }): ProviderToken => ({
    jwt: svc.secrets.open(row.sealed),
    madeAt: row.madeAt.getTime(),
  });
  return {
    async load(keyName) {
      const row = await throughCuts(() => svc.db.apnsProviderToken.findUnique({ where: { keyName } }));
      return row ? open(row) : undefined;
    },
    async save(keyName, token, replacing) {
      const madeAt = new Date(token.madeAt);
      const sealed = svc.secrets.seal(token.jwt);
      // Kept only in place of the token this process saw (none, or the one made at `replacing`): a process that renewed first wins.
      // Done again after a cut: a first try that was kept makes the next keep nothing and read it back.
      const kept = await throughCuts(() =>
        exec(
          svc,
          sql`
        INSERT INTO apns_provider_token (key_name, sealed, made_at) VALUES (${keyName}, ${sealed}, ${madeAt})
        ON CONFLICT (key_name) DO UPDATE SET sealed = EXCLUDED.sealed, made_at = EXCLUDED.made_at
        WHERE apns_provider_token.made_at = ${replacing === undefined ? null : new Date(replacing)}`,
        ),
      );
      if (kept) return token;
      return open(await throughCuts(() => svc.db.apnsProviderToken.findUniqueOrThrow({ where: { keyName } })));
    },
  };
}
