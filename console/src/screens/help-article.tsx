import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import { actionCommands } from '../commands';
import {
  HelpArticleDocument,
  PublishHelpArticleDocument,
  SaveHelpDraftDocument,
  UnpublishHelpArticleDocument,
  type HelpArticleQuery,
  type HelpModeFragment,
} from '../generated/graphql';
import type { Place } from '../place';
import { HELP_PATH, helpArticlePath, helpCollectionPath, navigate } from '../router';
import { ArticleSettings } from './help-article-settings';
import { HelpBlocks } from './help-blocks';
import { payloadOf, toBlocks, toEdit, type Edit } from './help-content';
import { languageName, languageState, publicArticlePath, STATE_WORDS, type LanguageState } from './help-model';
import { HelpPreview } from './help-preview';
import { useHelpMode } from './help';

// An article in one language: its title, summary and blocks, saved as the language's draft a
// moment after typing pauses (and by Ctrl/⌘-S), published or unpublished, previewed as the public
// site shows it. What is typed is kept in the tab's sessionStorage until the service has it, so a
// reload, a refusal or a lost connection never loses it. The app's other languages are a tab
// each; one not written yet starts from the default language's words.

const PAUSE_MS = 800;
type Article = HelpArticleQuery['helpArticle'];
const localKey = (id: string, language: string) => `crm.console.help.${id}.${language}`;

export function HelpArticleEditor({ place, id, language }: { place: Place; id: string; language?: string | undefined }) {
  const mode = useHelpMode(place);
  const [article, setArticle] = useState<Article | undefined>();
  const [error, setError] = useState<string | undefined>();

  const reload = useCallback(
    () =>
      request(HelpArticleDocument, { id })
        .then((d) => setArticle(d.helpArticle))
        .catch((err) => setError(messageOf(err))),
    [id],
  );
  useEffect(() => void reload(), [reload]);

  const lang = language ?? mode?.defaultLanguage;
  const back = (
    <a
      class="back-link"
      href={article?.collectionId ? helpCollectionPath(article.collectionId) : HELP_PATH}
      onClick={(e) => (e.preventDefault(), navigate(article?.collectionId ? helpCollectionPath(article.collectionId) : HELP_PATH))}
    >
      Back to the help center
    </a>
  );
  if (!article || !mode || !lang)
    return (
      <main class="help-article" id="main">
        {back}
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </main>
    );

  const drafts = article.drafts.edges.map((e) => e.node);
  const published = article.published.edges.map((e) => e.node);
  const stateOf = (l: string): LanguageState =>
    languageState(
      drafts.find((d) => d.language === l),
      published.find((p) => p.language === l),
    );
  const written = mode.languages.filter((l) => stateOf(l) !== 'none' || l === lang);
  const unwritten = mode.languages.filter((l) => !written.includes(l));

  return (
    <main class="help-article" id="main">
      {back}
      <nav class="help-language-tabs" aria-label="Languages">
        <ul>
          {written.map((l) => (
            <li key={l}>
              <a
                href={helpArticlePath(id, l)}
                aria-current={l === lang ? 'page' : undefined}
                onClick={(e) => (e.preventDefault(), navigate(helpArticlePath(id, l), { replace: true }))}
              >
                {languageName(l)} <span class={`help-state state-${stateOf(l)}`}>{STATE_WORDS[stateOf(l)]}</span>
              </a>
            </li>
          ))}
        </ul>
        {unwritten.length > 0 && (
          <label class="add-language">
            Add a language{' '}
            <select
              value=""
              onChange={(e) => {
                const l = e.currentTarget.value;
                if (l) navigate(helpArticlePath(id, l), { replace: true });
              }}
            >
              <option value="">Choose…</option>
              {unwritten.map((l) => (
                <option key={l} value={l}>
                  {languageName(l)}
                </option>
              ))}
            </select>
          </label>
        )}
      </nav>
      <ArticleSettings article={article} defaultLanguage={mode.defaultLanguage} onChanged={reload} />
      {!mode.languages.includes(lang) ? (
        <p class="error" role="alert">
          {languageName(lang)} is not one of this app’s languages.
        </p>
      ) : (
        <LanguageEditor key={lang} article={article} mode={mode} language={lang} state={stateOf(lang)} onChanged={reload} />
      )}
    </main>
  );
}

type Saving =
  { kind: 'saved'; at: string } | { kind: 'saving' } | { kind: 'waiting' } | { kind: 'refused'; message: string } | { kind: 'clean' };

function LanguageEditor(props: {
  article: Article;
  mode: HelpModeFragment;
  language: string;
  state: LanguageState;
  onChanged(): Promise<void>;
}) {
  const { article, mode, language } = props;
  const draft = article.drafts.edges.find((e) => e.node.language === language)?.node;
  const fallback = article.drafts.edges.find((e) => e.node.language === mode.defaultLanguage)?.node ?? article.drafts.edges[0]?.node;
  const published = article.published.edges.find((e) => e.node.language === language)?.node;
  const key = localKey(article.id, language);

  // The service's draft, or what this tab typed and the service does not have yet.
  const [initial] = useState(() => {
    const server = draft ? toEdit(draft) : toEdit(fallback);
    let kept: Edit | undefined;
    try {
      kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') ?? undefined;
    } catch {}
    const restored = !!kept && payloadOf(kept) !== payloadOf(server);
    return { edit: restored ? kept! : server, saved: draft ? payloadOf(server) : '', restored };
  });
  const [edit, setEdit] = useState<Edit>(initial.edit);
  const [saving, setSaving] = useState<Saving>({ kind: 'clean' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [preview, setPreview] = useState(() => localStorage.getItem('crm.console.help.preview') !== 'off');
  const saved = useRef(initial.saved);
  const latest = useRef(edit);
  latest.current = edit;
  const inFlight = useRef<Promise<boolean> | undefined>(undefined);
  const dirty = payloadOf(edit) !== saved.current;

  /** Saves what is typed now, when it differs from what the service has; true once the service has it. */
  const save = useCallback(async (): Promise<boolean> => {
    while (inFlight.current) await inFlight.current;
    const now = latest.current;
    const payload = payloadOf(now);
    if (payload === saved.current) return true;
    if (!now.title.trim()) {
      setSaving({ kind: 'refused', message: 'Give the article a title to save it.' });
      return false;
    }
    setSaving({ kind: 'saving' });
    const run = (async () => {
      try {
        const d = await request(SaveHelpDraftDocument, {
          articleId: article.id,
          language,
          title: now.title.trim(),
          summary: now.summary.trim(),
          blocks: toBlocks(now.blocks),
        });
        saved.current = payload;
        if (payloadOf(latest.current) === payload) sessionStorage.removeItem(key);
        setSaving({ kind: 'saved', at: d.saveHelpDraft.updatedAt });
        return true;
      } catch (err) {
        setSaving({ kind: 'refused', message: messageOf(err) });
        return false;
      }
    })();
    inFlight.current = run;
    try {
      return await run;
    } finally {
      inFlight.current = undefined;
    }
  }, [article.id, language]);

  /** Saves, then reads the article again (its languages' states). */
  const saveNow = () =>
    void save().then((ok) => {
      if (ok) void props.onChanged();
    });

  // Typed text is kept in the tab at once, and saved once typing pauses.
  useEffect(() => {
    if (!dirty) return;
    sessionStorage.setItem(key, JSON.stringify(edit));
    setSaving((s) => (s.kind === 'saving' ? s : { kind: 'waiting' }));
    const timer = setTimeout(saveNow, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [edit]);

  // Leaving the language (another tab, another screen) saves what is left.
  useEffect(() => () => void save(), [save]);

  const publish = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      if (!(await save())) return;
      await request(PublishHelpArticleDocument, { articleId: article.id, language });
      await props.onChanged();
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const unpublish = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await request(UnpublishHelpArticleDocument, { articleId: article.id, language });
      await props.onChanged();
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const publishRef = useRef(publish);
  publishRef.current = publish;

  // Ctrl/⌘-S saves at once; the command menu lists save, publish and the preview.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.code === 'KeyS') {
        e.preventDefault();
        saveNow();
      }
    };
    addEventListener('keydown', onKey);
    actionCommands.set([
      { id: 'help-save', label: 'Save draft', key: 'Ctrl+S', run: saveNow },
      { id: 'help-publish', label: `Publish (${languageName(language)})`, run: () => void publishRef.current() },
      { id: 'help-preview', label: 'Show or hide the preview', run: () => setPreview((p) => !p) },
    ]);
    return () => {
      removeEventListener('keydown', onKey);
      actionCommands.set([]);
    };
  }, [save, language]);

  useEffect(() => localStorage.setItem('crm.console.help.preview', preview ? 'on' : 'off'), [preview]);

  // The state shown: what the service has, and whether what is typed differs from it.
  const shownState: LanguageState =
    dirty && props.state === 'published' ? 'changed' : props.state === 'none' && dirty ? 'draft' : props.state;
  const publicPath = published && article.audience === 'everyone' ? publicArticlePath(mode, language, article.slug) : undefined;

  return (
    <div class={`help-editor${preview ? ' with-preview' : ''}`}>
      <section class="help-edit" aria-label={`Edit the article in ${languageName(language)}`}>
        <div class="help-status-bar">
          <p class={`help-state big state-${shownState}`} aria-live="polite">
            {STATE_WORDS[shownState]}
            {published && (
              <span class="quiet">
                {' '}
                · published <time dateTime={published.publishedAt}>{new Date(published.publishedAt).toLocaleString()}</time>
              </span>
            )}
          </p>
          <p class={`save-state save-${saving.kind}`} role="status">
            {saving.kind === 'saving'
              ? 'Saving…'
              : saving.kind === 'waiting'
                ? 'Not saved yet'
                : saving.kind === 'saved'
                  ? `Draft saved ${new Date(saving.at).toLocaleTimeString()}`
                  : saving.kind === 'refused'
                    ? `Not saved: ${saving.message}`
                    : ''}
          </p>
          {initial.restored && dirty && <p class="help-restored">What you typed before and was not saved yet is kept here.</p>}
          <div class="help-actions">
            <button type="button" class="quiet" onClick={saveNow} disabled={!dirty || busy}>
              Save draft
            </button>
            <button type="button" onClick={() => void publish()} disabled={busy || (!dirty && shownState === 'published')}>
              {published ? 'Publish changes' : 'Publish'}
            </button>
            {published && (
              <button type="button" class="quiet" onClick={() => void unpublish()} disabled={busy}>
                Unpublish
              </button>
            )}
            <button type="button" class="quiet" aria-pressed={preview} onClick={() => setPreview(!preview)}>
              Preview
            </button>
          </div>
          {publicPath && (
            <p class="public-link">
              Readers see it at{' '}
              <a href={publicPath} target="_blank" rel="noopener">
                the public help site
              </a>
              {!mode.helpOn && ' (once the help center is switched on)'}.
            </p>
          )}
          {published && article.audience === 'signed_in' && <p class="public-link">Only signed-in users see it, in the messenger.</p>}
          {!draft && !initial.restored && fallback && language !== fallback.language && (
            <p class="quiet-text">Started from the {languageName(fallback.language)} version: translate it, then publish.</p>
          )}
          {problem && (
            <p class="error" role="alert">
              {problem}
            </p>
          )}
        </div>
        <label for="help-title">Title</label>
        <input
          id="help-title"
          class="help-title"
          lang={language}
          autocomplete="off"
          value={edit.title}
          onInput={(e) => setEdit({ ...latest.current, title: e.currentTarget.value })}
        />
        <label for="help-summary">Summary (shown under the title and in lists)</label>
        <input
          id="help-summary"
          lang={language}
          autocomplete="off"
          value={edit.summary}
          onInput={(e) => setEdit({ ...latest.current, summary: e.currentTarget.value })}
        />
        <HelpBlocks
          blocks={edit.blocks}
          language={language}
          appModeId={article.appModeId}
          onChange={(blocks) => setEdit({ ...latest.current, blocks })}
        />
      </section>
      {preview && (
        <section class="help-preview" aria-label="Preview as readers see it">
          <h2>Preview</h2>
          <HelpPreview
            title={edit.title}
            summary={edit.summary}
            blocks={toBlocks(edit.blocks)}
            language={language}
            brandName={mode.brandName}
            brandColor={mode.brandColor}
          />
        </section>
      )}
    </div>
  );
}
