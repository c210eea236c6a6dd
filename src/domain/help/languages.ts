// Which of the app's languages a reader gets, and which PostgreSQL text-search configuration reads
// each language's words (stemming and stop words; `simple` where PostgreSQL has none).

/** A BCP 47 tag as the app's settings take it (language, then subtags). */
export const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** The text-search configurations PostgreSQL ships (13 and later), by ISO 639-1 code. */
const CONFIGS: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();

/** The text-search configuration of a language: its own where PostgreSQL has one, else `simple`. */
export const searchConfigOf = (language: string): string => CONFIGS[primary(language)] ?? 'simple';

export interface AppLanguages {
  languages: string[];
  defaultLanguage: string;
}

/** The app's language a tag asks for: the same tag, else one of the same language (de-AT finds de, de finds de-DE). */
export function matchLanguage(app: AppLanguages, tag: string): string | undefined {
  const lower = tag.toLowerCase();
  return (
    app.languages.find((l) => l.toLowerCase() === lower) ??
    (primary(app.defaultLanguage) === primary(tag) ? app.defaultLanguage : app.languages.find((l) => primary(l) === primary(tag)))
  );
}

/** The tags of an Accept-Language header, most wanted first (q=0 left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.q > 0 && LANGUAGE_TAG.test(t.tag))
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** The reader's language: `lang`, else Accept-Language, else the app's default; always one of the app's languages. */
export function readerLanguage(app: AppLanguages, asked: { lang?: string | undefined; acceptLanguage?: string | undefined }): string {
  if (asked.lang) return matchLanguage(app, asked.lang) ?? app.defaultLanguage;
  for (const tag of acceptedLanguages(asked.acceptLanguage)) {
    const found = matchLanguage(app, tag);
    if (found) return found;
  }
  return app.defaultLanguage;
}
