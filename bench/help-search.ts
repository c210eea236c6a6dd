// Help-center search: `GET /guest/v1/articles?q=…` over 10,000 articles in three languages (English,
// German, French; 30,000 published versions), at a steady request rate through the real server in
// a process of its own, beside its floor: the same full-text statement the service runs, sent
// straight to PostgreSQL through pg at the same rate, in the same run. Latencies are measured per
// request (open loop: each request leaves at its time whether or not the one before answered).
// Alone: `npx tsx bench/help-search.ts`; with the others: `npm run bench`.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { updateSettings } from '../src/domain/apps/settings.js';
import { systemContext } from '../src/domain/context.js';
import { fullTextStatement, typed, wordsOf } from '../src/domain/help/search.js';
import { openServices } from '../src/services.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { paced, type Latencies } from './paced.js';
import { cpuMsOf, freePort, serverProcess, stop } from './processes.js';
import { rows } from '../src/db/sql.js';
import { guestToken } from './apps.js';

const ARTICLES = Number(process.env.BENCH_HELP_ARTICLES ?? 10_000);
const RATE = Number(process.env.BENCH_HELP_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_HELP_SECONDS ?? 10);
const LIMIT = 10;

// Words of each language's help texts: a few common ones and many rarer, drawn skewed (the first
// words of a list far more often than the last), as in real help centers.
const VOCABULARY: Record<string, string[]> = {
  en: (
    'account settings password email team project invoice billing plan payment card sign login security notification export import ' +
    'report dashboard profile user role permission invite workspace domain integration webhook api key token mobile app device browser ' +
    'calendar schedule reminder message conversation ticket customer support agent inbox label filter search archive delete restore ' +
    'backup download upload file attachment picture language timezone currency subscription trial upgrade downgrade cancel refund tax ' +
    'receipt address company contact phone verify confirm reset change update enable disable connect disconnect share link folder'
  ).split(' '),
  de: (
    'konto einstellungen passwort email team projekt rechnung abrechnung tarif zahlung karte anmeldung sicherheit benachrichtigung export ' +
    'import bericht übersicht profil benutzer rolle berechtigung einladung arbeitsbereich domäne integration schnittstelle schlüssel gerät ' +
    'browser kalender termin erinnerung nachricht unterhaltung anfrage kunde support postfach etikett filter suche archiv löschen ' +
    'wiederherstellen sicherung herunterladen hochladen datei anhang bild sprache zeitzone währung abonnement testphase kündigen ' +
    'erstattung steuer beleg adresse firma telefon bestätigen zurücksetzen ändern aktualisieren aktivieren deaktivieren verbinden teilen ordner'
  ).split(' '),
  fr: (
    'compte paramètres motdepasse courriel équipe projet facture facturation forfait paiement carte connexion sécurité notification ' +
    'exportation importation rapport tableau profil utilisateur rôle permission invitation espace domaine intégration clé jeton appareil ' +
    'navigateur calendrier rendezvous rappel message conversation demande client assistance boîte étiquette filtre recherche archive ' +
    'supprimer restaurer sauvegarde télécharger fichier pièce image langue fuseau devise abonnement essai résilier remboursement taxe ' +
    'reçu adresse entreprise téléphone vérifier confirmer réinitialiser modifier activer désactiver connecter partager dossier'
  ).split(' '),
};
const FILLER: Record<string, string> = {
  en: 'the to and you your in of for a on with can this is',
  de: 'der die das und sie ihr in zu mit für ein eine auf ist können',
  fr: 'le la les et vous votre dans de pour un une sur avec est pouvez',
};

/** Queries people type, in each language: two words, the last one half typed now and then. */
const QUERIES: [string, string][] = [
  ['en', 'reset password'],
  ['en', 'export invoice'],
  ['en', 'invite team'],
  ['en', 'webhook api'],
  ['en', 'cancel subscr'],
  ['en', 'timezone calendar'],
  ['en', 'refund'],
  ['en', 'two factor security'],
  ['en', 'download attach'],
  ['en', 'change plan'],
  ['de', 'passwort zurücksetzen'],
  ['de', 'rechnungen herunterladen'],
  ['de', 'team einladen'],
  ['de', 'abonnement kündigen'],
  ['de', 'zeitzone kal'],
  ['fr', 'réinitialiser motdepasse'],
  ['fr', 'facture télécharger'],
  ['fr', 'inviter équipe'],
  ['fr', 'résilier abonnement'],
  ['fr', 'fuseau calend'],
];

export interface HelpSearchResult {
  articles: number;
  versions: number;
  seedMs: number;
  rate: number;
  service: Latencies;
  floor: Latencies;
  /** Articles found per query, by the service (to show the queries match something). */
  meanHits: number;
  /** CPU time of the server process per search (user + system), in ms. */
  serverCpuMs: number;
}

/**
 * 10,000 articles in 30 collections, each published in en, de and fr, by bulk SQL (the trigger
 * weighs the words). Each article is about three words of its language's vocabulary: its title
 * holds them, and they are about one word in eight of its summary and 120-word body; the rest are
 * the language's small words and words of no query (`w<n>`, from 5,000). So a query's word is in a
 * few hundred articles per language, and "account" (a fourth topic of one article in three) in
 * thousands: a help center's spread, not every word in every article.
 */
async function seed(client: pg.Client, appModeId: string): Promise<void> {
  await client.query('SELECT setseed(0.42)');
  await client.query(
    `INSERT INTO help_collection (id, app_mode_id, slug, position, created_at, updated_at)
     SELECT 'bench-c-' || i, $1, 'collection-' || i, i, now(), now() FROM generate_series(1, 30) i`,
    [appModeId],
  );
  await client.query(
    `INSERT INTO help_collection_text (collection_id, language, name) SELECT 'bench-c-' || i, l, 'Collection ' || i || ' ' || l FROM generate_series(1, 30) i, unnest(ARRAY['en','de','fr']) l`,
  );
  await client.query(
    `INSERT INTO help_article (id, app_mode_id, slug, collection_id, position, audience, created_at, updated_at)
     SELECT 'bench-a-' || i, $1, 'article-' || i, 'bench-c-' || (1 + i % 30), i, 'everyone', now(), now() FROM generate_series(1, $2::int) i`,
    [appModeId, ARTICLES],
  );
  for (const [language, config] of [
    ['en', 'english'],
    ['de', 'german'],
    ['fr', 'french'],
  ] as const) {
    const words = VOCABULARY[language]!;
    const filler = FILLER[language]!.split(' ');
    const pick = (list: string, n: number, seedTerm: string) => `(${list})[1 + floor(random() * ${n} + 0 * ${seedTerm})::int]`;
    // One word: a topic of the article one time in eight, a small word one time in three, else a word of no query.
    const token = (seedTerm: string) =>
      `(SELECT CASE WHEN r < 0.125 THEN k.topics[1 + floor(random() * array_length(k.topics, 1))::int] WHEN r < 0.45 THEN ${pick('$3::text[]', filler.length, 'r')} ELSE 'w' || floor(random() * 5000)::int END FROM (SELECT random() + 0 * ${seedTerm} AS r) x)`;
    const phrase = (n: number) => `(SELECT string_agg(${token('g')}, ' ') FROM generate_series(1, ${n} + (i % 3)) g)`;
    await client.query(
      `INSERT INTO help_article_published (article_id, app_mode_id, language, title, summary, blocks, body_text, search_config, published_at)
       SELECT 'bench-a-' || i, $1, '${language}', initcap(array_to_string(k.topics[1:3], ' ')) || ' ' || i, s.summary,
              jsonb_build_array(jsonb_build_object('type', 'paragraph', 'spans', jsonb_build_array(jsonb_build_object('text', b.body)))), b.body, '${config}', now()
       FROM generate_series(1, $4::int) i
       CROSS JOIN LATERAL (SELECT ARRAY[${pick('$2::text[]', words.length, 'i')}, ${pick('$2::text[]', words.length, 'i')}, ${pick('$2::text[]', words.length, 'i')}]
                             || CASE WHEN random() + 0 * i < 0.33 THEN ARRAY[($2::text[])[1]] ELSE ARRAY[]::text[] END AS topics) k
       CROSS JOIN LATERAL (SELECT ${phrase(12)} AS summary) s
       CROSS JOIN LATERAL (SELECT ${phrase(120)} AS body) b`,
      [appModeId, words, filler, ARTICLES],
    );
  }
  // The published words, for correcting misspelt ones (the service adds them as it publishes).
  await client.query(
    `INSERT INTO help_word (app_mode_id, language, word)
     SELECT DISTINCT p.app_mode_id, p.language, w FROM help_article_published p, regexp_split_to_table(lower(p.title || ' ' || p.summary || ' ' || p.body_text), '\\s+') w
     WHERE p.app_mode_id = $1 AND length(w) BETWEEN 3 AND 40`,
    [appModeId],
  );
  await client.query('ANALYZE help_article, help_article_published, help_collection, help_collection_text, help_word');
}

export async function benchHelpSearch(url: string): Promise<HelpSearchResult> {
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey: BENCH_SECRET_KEY });
  const ctx = systemContext(svc, 'bench');
  const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Help bench' } });
  const app = await createApp(ctx, { workspaceId: ws.id, name: 'Help bench app' });
  const mode = await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  const settings = await updateSettings(ctx, mode.id, { languages: ['en', 'de', 'fr'], defaultLanguage: 'en' });
  await svc.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seeding = performance.now();
  try {
    await seed(client, mode.id);
  } finally {
    await client.end();
  }
  const seedMs = performance.now() - seeding;

  const token = await guestToken(app.live.identity_secret, 'bench-reader');
  const headers = { 'x-crm-app-key': app.live.app_key, authorization: `Bearer ${token}` };
  const port = await freePort();
  // One load generator on one address: the limits are taken on every request, never reached.
  const server = await serverProcess(url, BENCH_SECRET_KEY, port, {
    RATE_GUEST_ADDRESS_PER_MINUTE: '100000000',
    RATE_GUEST_APP_PER_MINUTE: '100000000',
  });
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    const search = async (i: number) => {
      const [lang, q] = QUERIES[i % QUERIES.length]!;
      const res = await fetch(`http://127.0.0.1:${port}/guest/v1/articles?q=${encodeURIComponent(q)}&lang=${lang}&limit=${LIMIT}`, {
        headers,
      });
      const body = (await res.json()) as { items: unknown[] };
      if (res.status !== 200) throw new Error(`the search answered ${res.status}: ${JSON.stringify(body)}`);
      hits += body.items.length;
    };
    let hits = 0;
    // The floor: the same statement the service sends for the search, straight through pg.
    const statements = QUERIES.map(([lang, q]) =>
      fullTextStatement({ appModeId: mode.id, app: settings, signedIn: true, language: lang }, typed(wordsOf(q)), LIMIT),
    );
    const floorSearch = async (i: number) => {
      const statement = statements[i % statements.length]!;
      await rows({ pool }, statement);
    };
    // Warm up both: caches, plans, pools, JIT.
    for (let i = 0; i < 200; i++) await Promise.all([search(i), floorSearch(i)]);
    hits = 0;
    const cpuBefore = cpuMsOf(server);
    const service = await paced(RATE, SECONDS, search);
    const serverCpuMs = (cpuMsOf(server) - cpuBefore) / service.requests;
    const meanHits = hits / service.requests;
    const floor = await paced(RATE, SECONDS, floorSearch);
    return { articles: ARTICLES, versions: ARTICLES * 3, seedMs, rate: RATE, service, floor, meanHits, serverCpuMs };
  } finally {
    await pool.end();
    await stop(server);
  }
}

export function printHelpSearch(r: HelpSearchResult): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(8);
  const line = (l: Latencies) => `p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, p99 ${ms(l.p99)} (${l.requests.toLocaleString('en')} requests)`;
  console.log(
    `help search: GET /guest/v1/articles?q=… over ${r.articles.toLocaleString('en')} articles in en, de, fr (${r.versions.toLocaleString('en')} published versions, seeded in ${(r.seedMs / 1000).toFixed(1)} s), ${r.rate} requests/s steady, ${QUERIES.length} queries in turn`,
  );
  console.log(
    `  service  ${line(r.service)}, ${r.meanHits.toFixed(1)} articles a search, server CPU ${r.serverCpuMs.toFixed(2)} ms a search`,
  );
  console.log(`  floor    ${line(r.floor)} (the same full-text statement through pg)`);
  console.log(
    `  p95 ${r.service.p95 <= 15 ? 'within' : 'beyond'} the aim of 15 ms; ${(r.service.p95 - r.floor.p95).toFixed(1)} ms above the floor's p95`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(await withBenchDatabase('crm_bench_help', async ({ url }) => printHelpSearch(await benchHelpSearch(url))));
}
