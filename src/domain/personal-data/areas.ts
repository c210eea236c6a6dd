import { attachmentData } from '../attachments/personal-data.js';
import { contactData, holdPerson } from '../contacts/personal-data.js';
import { conversationData } from '../conversations/personal-data.js';
import { deviceData } from '../devices/personal-data.js';
import { emailData } from '../email/personal-data.js';
import { eventData } from '../events/personal-data.js';
import { helpData } from '../help/personal-data.js';
import { inAppData } from '../inapp/personal-data.js';
import { mailData } from '../mail/personal-data.js';
import { noticeData } from '../notices/personal-data.js';
import { preferenceData } from '../preferences/personal-data.js';
import { pushData } from '../push/personal-data.js';
import { surveyData } from '../surveys/personal-data.js';
import { ticketData } from '../tickets/personal-data.js';
import { webhookData } from '../webhooks/personal-data.js';
import { workflowData } from '../workflows/personal-data.js';
import type { Ctx, TxCtx } from '../context.js';
import { outboxData } from './outbox.js';
import { PagedArray } from '../../lib/json-stream.js';
import { concatListed, emptyExport, type ErasedPerson, type ExportContact, type Listed, type PersonalDataArea } from './registry.js';

/** Every area that keeps something about a person; erased in this order (the contact last). */
export const PERSONAL_DATA: PersonalDataArea[] = [
  eventData,
  outboxData,
  webhookData,
  mailData,
  emailData,
  ticketData,
  // Before the conversations: it finds the team's pictures by the conversations they were made for.
  attachmentData,
  conversationData,
  helpData,
  surveyData,
  inAppData,
  deviceData,
  noticeData,
  pushData,
  preferenceData,
  // Before the contact: its runs are found (and cancelled) by the person's contacts.
  workflowData,
  contactData,
];

/** Everything kept about the person in the app-mode, or undefined when nothing is. */
export async function exportPerson(ctx: Ctx, appModeId: string, externalId: string): Promise<ExportContact | undefined> {
  const person = { appModeId, externalId };
  const parts = (await Promise.all(PERSONAL_DATA.map((area) => area.exportOf?.(ctx, person)))).filter((p) => p !== undefined);
  if (!parts.length) return undefined;
  // A member two areas fill (receipts: in-app messages' and emails') holds both, in the areas' order.
  const merged = emptyExport() as unknown as Record<string, unknown>;
  for (const part of parts)
    for (const [member, value] of Object.entries(part)) {
      const held = merged[member];
      merged[member] =
        (Array.isArray(held) && held.length) || held instanceof PagedArray
          ? concatListed(held as Listed<unknown>, value as Listed<unknown>)
          : value;
    }
  return merged as unknown as ExportContact;
}

/** Removes the person from every area, in the caller's transaction, the person held first; how many rows, by kind. */
export async function erasePerson(tx: TxCtx, person: ErasedPerson): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  await holdPerson(tx, person);
  for (const area of PERSONAL_DATA) Object.assign(removed, await area.erase(tx, person));
  return removed;
}
