import { invalidField } from '../errors.js';

// What a person's message must hold: words, pictures, or (to start) the button they tapped.

/** Characters a message's text may have. */
export const MAX_TEXT = 10_000;

/** Refuses a message with nothing in it (blank text and no picture), naming `text`. */
export function requireContent(text: string, attachmentIds: string[]): void {
  if (!text.trim() && !attachmentIds.length) throw invalidField('text', 'must not be blank unless attachment_ids names a picture');
}
