import { call, userToken } from './http.js';
import { staffApi } from './graphql.js';
import { unique, type StaffApp } from './factories.js';
import type { TestServer } from './server.js';

// The help center as a test sets it up and reads it: staff write through the staff API, readers
// read through the guest and public routes.

export interface VersionText {
  title: string;
  summary?: string;
  /** Paragraphs of plain words, or blocks as given. */
  body?: string | unknown[];
}

export const paragraphs = (body: string) => body.split(/\n\n+/).map((p) => ({ type: 'paragraph', spans: [{ text: p }] }));

/** Staff authoring of one app's help center, as its owner. */
export function helpAuthor(t: TestServer, app: StaffApp) {
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  const modeId = app.modes.live;
  async function collection(input: {
    slug?: string;
    parentId?: string;
    names: Record<string, string>;
    appModeId?: string;
  }): Promise<{ id: string; slug: string }> {
    const slug = input.slug ?? unique('c').replaceAll('_', '-');
    const texts = Object.entries(input.names).map(([language, name]) => ({ language, name, description: `About ${name}` }));
    const data = await api.ok(
      'mutation($m: ID!, $s: String!, $p: ID, $t: [HelpCollectionTextInput!]!) { createHelpCollection(appModeId: $m, slug: $s, parentId: $p, texts: $t) { id slug } }',
      { m: input.appModeId ?? modeId, s: slug, p: input.parentId ?? null, t: texts },
    );
    return data.createHelpCollection;
  }
  async function draft(articleId: string, language: string, v: VersionText) {
    const blocks = typeof v.body === 'string' ? paragraphs(v.body) : (v.body ?? paragraphs(`${v.title}.`));
    return api.gql(
      'mutation($a: ID!, $l: String!, $t: String!, $s: String, $b: JSON!) { saveHelpDraft(articleId: $a, language: $l, title: $t, summary: $s, blocks: $b) { language } }',
      {
        a: articleId,
        l: language,
        t: v.title,
        s: v.summary ?? null,
        b: blocks,
      },
      app.owner,
    );
  }
  async function publish(articleId: string, language: string) {
    return api.ok('mutation($a: ID!, $l: String!) { publishHelpArticle(articleId: $a, language: $l) { language publishedAt } }', {
      a: articleId,
      l: language,
    });
  }
  /** An article with a published version per language given (and drafts for `drafts`). */
  async function article(input: {
    slug?: string;
    collectionId?: string;
    audience?: 'everyone' | 'signed_in';
    versions: Record<string, VersionText>;
    appModeId?: string;
  }): Promise<{ id: string; slug: string }> {
    const slug = input.slug ?? unique('a').replaceAll('_', '-');
    const made = (
      await api.ok(
        'mutation($m: ID!, $s: String!, $c: ID, $a: HelpAudience) { createHelpArticle(appModeId: $m, slug: $s, collectionId: $c, audience: $a) { id slug } }',
        {
          m: input.appModeId ?? modeId,
          s: slug,
          c: input.collectionId ?? null,
          a: input.audience ?? null,
        },
      )
    ).createHelpArticle;
    for (const [language, v] of Object.entries(input.versions)) {
      const saved = await draft(made.id, language, v);
      if (saved.errors) throw new Error(JSON.stringify(saved.errors));
      await publish(made.id, language);
    }
    return made;
  }
  /** The app-mode's languages and default. */
  const languages = (languages: string[], defaultLanguage = languages[0]!, appModeId = modeId) =>
    api.ok('mutation($m: ID!, $s: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $s) { languages } }', {
      m: appModeId,
      s: { languages, defaultLanguage },
    });
  return { api, collection, article, draft, publish, languages };
}

/** The guest routes as a signed-in user of the app's live mode calls them. */
export async function guestReader(t: TestServer, app: StaffApp, sub = unique('user')) {
  const token = await userToken(app.live.identity_secret, { sub });
  const headers = (extra: Record<string, string> = {}) => ({
    'X-CRM-App-Key': app.live.app_key,
    Authorization: `Bearer ${token}`,
    ...extra,
  });
  return {
    sub,
    get: (path: string, extra?: Record<string, string>) => call(t.url, 'GET', `/guest/v1${path}`, { headers: headers(extra) }),
    post: (path: string, json: unknown) => call(t.url, 'POST', `/guest/v1${path}`, { headers: headers(), json }),
  };
}

/** The public routes with the app key in the header. */
export function publicReader(t: TestServer, appKey: string) {
  return {
    get: (path: string, extra: Record<string, string> = {}) =>
      call(t.url, 'GET', `/public/v1/help${path}`, { headers: { 'X-CRM-App-Key': appKey, ...extra } }),
    post: (path: string, json: unknown) => call(t.url, 'POST', `/public/v1/help${path}`, { headers: { 'X-CRM-App-Key': appKey }, json }),
  };
}
