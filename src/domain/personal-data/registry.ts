import type { Ctx, TxCtx } from '../context.js';
import { PagedArray } from '../../lib/json-stream.js';

// What the service keeps about a person, area by area. Each area registers how to export its
// part (its members of ExportContact) and how to erase it; export and erase iterate the list, so a
// new area adds an entry to areas.ts and never edits them. A test reads the database schema and
// fails when a table that names a person is covered by no entry.

/**
 * A member that grows with what the person did (their conversations and each one's parts, notices,
 * tickets…): read EXPORT_PAGE rows at a time while the answer is written, never held whole, so an
 * export of any size costs one page of memory and holds the event loop for one page at a time.
 */
export type Listed<T> = T[] | PagedArray<T>;

/** Rows the export reads at a time for a Listed member. */
export const EXPORT_PAGE = 100;

/** Reads up to `take` rows after the one given (the first rows when none), in a member's order. */
export type ReadPage<R> = (after: NoInfer<R> | undefined, take: number) => Promise<R[]>;

/** A Listed member read wholly while the answer is written (from `first` when read already); `entries` makes each page of rows its entries. */
export const pagedEntries = <R, T>(read: ReadPage<R>, entries: (page: R[]) => T[], first?: R[]): PagedArray<T> =>
  new PagedArray(async function* () {
    for (let page = first ?? (await read(undefined, EXPORT_PAGE)); ; page = await read(page[page.length - 1], EXPORT_PAGE)) {
      yield entries(page);
      if (page.length < EXPORT_PAGE) return;
    }
  });

/** The same, one entry a row: `present` makes each row its entry. */
export const pagedRows = <R, T>(read: ReadPage<R>, present: (row: R) => T, first?: R[]): PagedArray<T> =>
  pagedEntries(read, (page) => page.map(present), first);

/** Two areas' entries of one member, one after the other (read page by page as the export is written). */
export function concatListed<T>(first: Listed<T>, second: Listed<T>): Listed<T> {
  if (Array.isArray(first) && Array.isArray(second)) return [...first, ...second];
  const pagesOf = (l: Listed<T>) =>
    Array.isArray(l)
      ? (async function* () {
          if (l.length) yield l;
        })()
      : l.pages();
  return new PagedArray(async function* () {
    yield* pagesOf(first);
    yield* pagesOf(second);
  });
}

/** A Listed member whose first page is read now: undefined when there is none (the person has nothing here). */
export async function pagedMember<R, T>(read: ReadPage<R>, present: (row: R) => T): Promise<PagedArray<T> | undefined> {
  const first = await read(undefined, EXPORT_PAGE);
  return first.length ? pagedRows(read, present, first) : undefined;
}

/** Prisma's arguments for the rows after one (by a unique key of it, with `skip`), or for the first rows. */
export const keyset = <K>(cursor: K | undefined, take: number): { cursor?: K; skip?: number; take: number } =>
  cursor === undefined ? { take } : { cursor, skip: 1, take };

/** The spec's ExportContact (model names as the wire spelling). */
export interface ExportContact {
  attributes: { name: string; value: string }[];
  tags: string[];
  notes: { body: string; createdAt: string }[];
  events: { name: string; occurredAt: string; props: Record<string, string> }[];
  eventsTruncated: boolean;
  conversations: Listed<unknown>;
  tickets: Listed<unknown>;
  articleRatings: Listed<unknown>;
  receipts: Listed<{
    message: string;
    kind: string;
    variant: string;
    sentAt: string | null;
    seenAt: string | null;
    clickedAt: string | null;
    dismissedAt: string | null;
    completedAt: string | null;
  }>;
  surveyResponses: Listed<{ question: string; answer: string }>;
  workflows: Listed<{ workflow: string; state: string; startedAt: string; outcome: unknown; endedAt: string | null }>;
  collected: Listed<{ conversationId: string; key: string; value: string }>;
  testPhone: boolean;
  testSends: Listed<unknown>;
  devices: unknown[];
  notices: Listed<unknown>;
  subscriptions: unknown[];
  consentHistory: Listed<{ channel: string; value: boolean; changedAt: string; source: string; recordedAt: string }>;
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
