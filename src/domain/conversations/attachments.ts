import type { ConversationPart } from '../../generated/prisma/client.js';
import type { Ctx, TxCtx } from '../context.js';
import { DomainError } from '../errors.js';

// Pictures named in `attachment_ids` of a start or a message. Until the attachments area lands
// (src/domain/attachments), no id names a picture, so any is refused.

export const MAX_PICTURES = 4;

export interface PartPicture {
  id: string;
  url: string;
  contentType: string;
  width: number | null;
  height: number | null;
}

/** Makes the pictures the part's, in the caller's transaction (each used once, only by its maker). */
export async function attachPictures(_tx: TxCtx, _part: Pick<ConversationPart, 'id' | 'appModeId'>, _externalId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  throw new DomainError(422, 'attachment_invalid', 'A picture cannot be used', 'No such picture: upload it first with POST /guest/v1/attachments.', ids.map((_, i) => ({ field: `attachment_ids.${i}`, message: 'is not a picture of yours that is uploaded and unused' })));
}

/** The parts' pictures with short-lived read addresses, by part id. */
export async function picturesOf(_ctx: Ctx, _parts: Pick<ConversationPart, 'id' | 'appModeId' | 'attachmentIds'>[]): Promise<Map<string, PartPicture[]>> {
  return new Map();
}
