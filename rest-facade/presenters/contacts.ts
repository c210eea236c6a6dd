import type { z } from 'zod';
import type { EraseRequest } from '../../src/generated/prisma/client.js';
import type { EraseAccepted } from '../server/contacts.schemas.js';

// A person's erasure as its request answers it: queued, or already queued or done.

export const presentEraseRequest = (externalId: string, request: EraseRequest): z.input<typeof EraseAccepted> => ({
  external_id: externalId,
  state: request.state as z.input<typeof EraseAccepted>['state'],
  requested_at: request.requestedAt.toISOString(),
  blocked_until: request.blockedUntil.toISOString(),
});
