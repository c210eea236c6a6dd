import { one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { emailTokenKey, openEmailToken, type EmailTokenPurpose, type EmailTokenTerms } from './tokens.js';

// An email sent, as its link routes find it by their token: the send, what its version holds, and
// the person (gone when erased: the send went with them, and the token opens nothing).

export interface SentEmail {
  id: string;
  appModeId: string;
  messageId: string;
  versionId: string;
  contactId: string | null;
  externalId: string | null;
  test: boolean;
  address: string;
  createdAt: Date;
  /** The version's topic (null: transactional mail). */
  topicId: string | null;
  /** The link a click token names, exactly as written; null for other tokens or an index past the version's links. */
  link: string | null;
  /** The person's language, when known (their pages speak it). */
  language: string | null;
  /** The app's brand, for its pages. */
  brand: { name: string; color: string; logoUrl: string | null };
}

/** The same refusal whatever was wrong with the token: forged, altered, for another purpose, or its email gone. */
export const noSuchEmail = () => notFound('No email has this address.');

/** The email a token names, for its purpose; undefined when the token opens nothing or its email is gone. */
export async function sentEmailOf(
  ctx: Ctx,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<{ terms: EmailTokenTerms; email: SentEmail } | undefined> {
  const terms = openEmailToken(emailTokenKey(ctx.svc), token, purpose);
  if (!terms) return undefined;
  const email = await one<SentEmail>(
    ctx,
    sql`SELECT s.id, s.app_mode_id AS "appModeId", s.message_id AS "messageId", s.version_id AS "versionId",
          s.contact_id AS "contactId", c.external_id AS "externalId", s.test, s.address, s.created_at AS "createdAt",
          v.topic_id AS "topicId", v.links[${terms.link + 1}] AS link, c.language,
          json_build_object('name', m.brand_name, 'color', m.brand_color, 'logoUrl', m.brand_logo_url) AS brand
        FROM email_send s
        JOIN email_version v ON v.id = s.version_id
        JOIN app_mode m ON m.id = s.app_mode_id
        LEFT JOIN contact c ON c.id = s.contact_id
        WHERE s.id = ${terms.sendId}::uuid AND s.state = 'sent'`,
  );
  return email ? { terms, email } : undefined;
}
