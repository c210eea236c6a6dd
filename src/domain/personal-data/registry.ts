import type { Ctx, TxCtx } from '../context.js';

// What the service keeps about a person, area by area. Each area registers how to export its
// part (its members of ExportContact) and how to erase it; export and erase iterate the list, so a
// new area adds an entry to areas.ts and never edits them. A test reads the database schema and
// fails when a table that names a person is covered by no entry.

/** The spec's ExportContact (model names as the wire spelling). */
export interface ExportContact {
  attributes: { name: string; value: string }[];
  tags: string[];
  notes: { body: string; createdAt: string }[];
  events: { name: string; occurredAt: string; props: Record<string, string> }[];
  eventsTruncated: boolean;
  conversations: unknown[];
  tickets: unknown[];
  articleRatings: unknown[];
  receipts: {
    message: string;
    kind: string;
    variant: string;
    sentAt: string | null;
    seenAt: string | null;
    clickedAt: string | null;
    dismissedAt: string | null;
    completedAt: string | null;
  }[];
  surveyResponses: { question: string; answer: string }[];
  workflows: { workflow: string; state: string; startedAt: string; outcome: unknown; endedAt: string | null }[];
  collected: { conversationId: string; key: string; value: string }[];
  testPhone: boolean;
  testSends: unknown[];
  devices: unknown[];
  notices: unknown[];
  subscriptions: unknown[];
  consentHistory: { channel: string; value: boolean; changedAt: string; source: string; recordedAt: string }[];
}

/** Every member present and empty: the members of areas not built yet stay so. */
export const emptyExport = (): ExportContact => ({
  attributes: [],
  tags: [],
  notes: [],
  events: [],
  eventsTruncated: false,
  conversations: [],
  tickets: [],
  articleRatings: [],
  receipts: [],
  surveyResponses: [],
  workflows: [],
  collected: [],
  testPhone: false,
  testSends: [],
  devices: [],
  notices: [],
  subscriptions: [],
  consentHistory: [],
});

/** Whom an export is about: one external id, in one app-mode. */
export interface ExportedPerson {
  externalId: string;
  appModeId: string;
}

/** Whom an erase is about: one external id, in every mode of its app. */
export interface ErasedPerson {
  externalId: string;
  appModeIds: string[];
}

export interface PersonalDataArea {
  name: string;
  /** The tables of this area that name a person (an external id, a contact reference, an email). */
  tables: string[];
  /** This area's members of the export in one app-mode, or undefined when it keeps nothing of the person. */
  exportOf?(ctx: Ctx, person: ExportedPerson): Promise<Partial<ExportContact> | undefined>;
  /** Removes the person's rows; answers how many, by kind. Idempotent: a second run removes nothing more. */
  erase(tx: TxCtx, person: ErasedPerson): Promise<Record<string, number>>;
}
