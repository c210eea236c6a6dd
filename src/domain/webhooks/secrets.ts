import { randomToken } from '../../lib/secrets.js';

// An endpoint's signing secret: `whsec_` and 32 random base62 characters, shown once when made;
// kept sealed with the deployment's key, as the identity secret is.

export const newWebhookSecret = () => `whsec_${randomToken(32)}`;

/** What staff see of a secret: its prefix and last four characters. */
export const webhookSecretHint = (secret: string) => `whsec_…${secret.slice(-4)}`;
