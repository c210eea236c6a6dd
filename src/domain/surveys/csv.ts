import { answerText, type KeptAnswer } from './answers.js';
import type { Survey } from './model.js';

// A survey's responses as CSV (RFC 4180: comma-separated, CRLF line ends, a cell quoted when it
// holds a comma, a quote or a line end, its quotes doubled), one row per response: when it was
// started and submitted (RFC 3339, UTC; empty when not submitted), its variant, then one column per
// question of the survey (every variant's questions, in the order of the first that has them), the
// answer as words as the export writes it (answers.ts). A spreadsheet runs a cell that starts with
// = + - @, a tab or a carriage return as a formula: such a cell is written with a ' before it, so
// words a person wrote are never run (CSV injection). Pure.

/** A cell a spreadsheet would take for a formula. */
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvRow = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

export interface CsvColumn {
  question: string;
  header: string;
}

/** The question columns of a survey's variants: each question once, titled (with its id when two share a title). */
export function questionColumns(variants: readonly Survey[]): CsvColumn[] {
  const titles = new Map<string, string>();
  for (const survey of variants)
    for (const step of survey.steps) for (const q of step.questions ?? []) if (!titles.has(q.id)) titles.set(q.id, q.title);
  const shared = new Set([...titles.values()].filter((title, i, all) => all.indexOf(title) !== i));
  return [...titles].map(([question, title]) => ({ question, header: shared.has(title) ? `${title} (${question})` : title }));
}

export const headerRow = (columns: readonly CsvColumn[]): string =>
  csvRow(['started_at', 'submitted_at', 'variant', ...columns.map((c) => c.header)]);

export interface CsvResponse {
  startedAt: Date;
  submittedAt: Date | null;
  variant: string;
  answers: readonly KeptAnswer[];
}

export function responseRow(columns: readonly CsvColumn[], r: CsvResponse): string {
  const given = new Map(r.answers.map((a) => [a.question, a]));
  return csvRow([
    r.startedAt.toISOString(),
    r.submittedAt?.toISOString() ?? '',
    r.variant,
    ...columns.map((c) => {
      const a = given.get(c.question);
      return a ? answerText(a) : '';
    }),
  ]);
}
