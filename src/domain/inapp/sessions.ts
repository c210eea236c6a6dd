import { raw } from '../../db/sql.js';

// The sessions a message was answered in, kept with the person's receipt of it: a message is
// answered at most once a session, and a session has at most one large message. A person's devices
// each have sessions of their own, going on side by side, so the receipt keeps the last
// MAX_RECENT_SESSIONS sessions it was answered in rather than the last one alone: the phone's
// session that had a survey does not get it again because the tablet was answered it since. The
// check-in reads them (facts.ts), its writes and an open by a link keep them (record.ts, open.ts).

export const MAX_RECENT_SESSIONS = 8;

/** In an upsert of a receipt (`r`, the new row EXCLUDED, its last_session the session answering now): the message is new to this session. */
export const NEW_SESSION = raw(`NOT (EXCLUDED.last_session = ANY(coalesce(r.recent_sessions, '{}')))`);

/** In the same upsert's DO UPDATE: the receipt's sessions with this one added, the last MAX_RECENT_SESSIONS kept. */
export const RECENT_SESSIONS = raw(
  `(coalesce(r.recent_sessions, '{}') || EXCLUDED.last_session)[greatest(1, cardinality(coalesce(r.recent_sessions, '{}')) + 2 - ${MAX_RECENT_SESSIONS}):]`,
);
