import type { z } from 'zod';
import type { Consent } from '../../src/domain/contacts/consent.js';
import type { ConsentAnswer } from '../guest/consent.schemas.js';

export const presentConsent = (c: Consent): z.input<typeof ConsentAnswer> => ({
  offers_by_email: c.offersByEmail,
  offers_by_push: c.offersByPush,
  changed_at: c.changedAt?.toISOString() ?? null,
});
