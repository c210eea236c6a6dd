import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request, messageOf } from '../api/request';
import {
  ChangeHelpCollectionDocument,
  CreateHelpArticleDocument,
  CreateHelpCollectionDocument,
  HelpAppDocument,
  HelpArticlesDocument,
  HelpCollectionsDocument,
  OrderHelpArticlesDocument,
  OrderHelpCollectionsDocument,
  RemoveHelpArticleDocument,
  RemoveHelpCollectionDocument,
  SaveHelpDraftDocument,
  type HelpArticleRowFragment,
  type HelpCollectionRowFragment,
  type HelpCollectionTreeFragment,
  type HelpModeFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { HELP_PATH, helpArticlePath, helpCollectionPath, navigate } from '../router';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useRowKeys } from '../ui/row-keys';
import { articleLanguages, articleTitle, collectionName, languageName, slugOf, STATE_WORDS } from './help-model';
import { Confirm } from '../ui/confirm';

// The help center: the app-mode's collections (make, rename, reorder, remove), each with its
// sections under it (made in the chosen collection, renamed, reordered, moved to another
// collection, removed), and the articles of the one chosen (or all of them), each with its
// languages and their state; reorder and remove; a new article opens in the editor. Lists are read
// 50 at a time, "Show more" reads the next.

/** The app-mode's languages, app key, brand and whether its help center is on. */
export function useHelpMode(place: Place): HelpModeFragment | undefined {
  const [mode, setMode] = useState<HelpModeFragment | undefined>();
  useEffect(() => {
    request(HelpAppDocument, { appId: place.app.id })
      .then(({ app }) => setMode(place.mode === 'test' ? app.test : app.live))
      .catch(() => setMode(undefined));
  }, [place.app.id, place.mode]);
  return mode;
}

/** Moves the row at `from` one place up or down; the new order of ids. */
const moved = <T extends { id: string }>(rows: T[], from: number, by: -1 | 1): T[] | undefined => {
  const to = from + by;
  if (to < 0 || to >= rows.length) return undefined;
  const copy = [...rows];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
};

export function HelpCenter({ place, collectionId }: { place: Place; collectionId?: string | undefined }) {
  const modeId = appModeId(place);
  const mode = useHelpMode(place);
  const language = mode?.defaultLanguage ?? 'en';
  const [removing, setRemoving] = useState<{ kind: 'collection' | 'section' | 'article'; id: string; name: string } | undefined>();

  // Writes go one after another, and a list is read again only after those before it are kept: a rename
  // made just after a reorder never reads the order from before it.
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  const inTurn = <T,>(write: () => Promise<T>): Promise<T> => {
    const done = writes.current.then(write, write);
    writes.current = done.catch(() => undefined);
    return done;
  };
  const collections = usePagedList<HelpCollectionTreeFragment>({
    read: async (after) => {
      await writes.current;
      return pageOf((await request(HelpCollectionsDocument, { appModeId: modeId, after })).helpCollections);
    },
    merge: withPage,
    by: [modeId],
  });
  const articles = usePagedList<HelpArticleRowFragment>({
    read: async (after) => {
      await writes.current;
      return pageOf((await request(HelpArticlesDocument, { appModeId: modeId, collectionId: collectionId ?? null, after })).helpArticles);
    },
    merge: withPage,
    by: [modeId, collectionId],
  });
  const sectionsOf = (c: HelpCollectionTreeFragment) => c.sections.edges.map((e) => e.node);
  const chosen: HelpCollectionRowFragment | undefined =
    collections.rows.find((c) => c.id === collectionId) ?? collections.rows.flatMap(sectionsOf).find((s) => s.id === collectionId);
  /** The collection new sections go in: the one chosen, or the one whose section is chosen. */
  const home = chosen && collections.rows.find((c) => c.id === (chosen.parentId ?? chosen.id));
  const chosenName =
    chosen && (home && home.id !== chosen.id ? `${collectionName(home, language)} › ` : '') + collectionName(chosen, language);
  const rename = async (c: HelpCollectionRowFragment, name: string) => {
    await inTurn(() =>
      request(ChangeHelpCollectionDocument, {
        id: c.id,
        input: { texts: [{ language, name, description: c.texts.find((t) => t.language === language)?.description ?? '' }] },
      }),
    );
    await collections.reload();
  };
  const reorderSections = async (parent: HelpCollectionTreeFragment, from: number, by: -1 | 1) => {
    const next = moved(sectionsOf(parent), from, by);
    if (!next) return;
    collections.setRows(
      collections.rows.map((c) => (c.id === parent.id ? { ...c, sections: { ...c.sections, edges: next.map((node) => ({ node })) } } : c)),
    );
    try {
      await inTurn(() => request(OrderHelpCollectionsDocument, { appModeId: modeId, parentId: parent.id, ids: next.map((x) => x.id) }));
    } catch (err) {
      collections.setError(messageOf(err));
      void collections.reload();
    }
  };
  const moveSection = async (section: HelpCollectionRowFragment, parentId: string) => {
    try {
      await inTurn(() => request(ChangeHelpCollectionDocument, { id: section.id, input: { parentId } }));
    } catch (err) {
      collections.setError(messageOf(err));
    }
    void collections.reload();
  };
  const articleList = useRef<HTMLUListElement>(null);
  useRowKeys(articleList, (id) => navigate(helpArticlePath(id)));

  const reorderCollections = async (from: number, by: -1 | 1) => {
    const next = moved(collections.rows, from, by);
    if (!next) return;
    collections.setRows(next);
    try {
      await inTurn(() => request(OrderHelpCollectionsDocument, { appModeId: modeId, ids: next.map((c) => c.id) }));
    } catch (err) {
      collections.setError(messageOf(err));
      void collections.reload();
    }
  };
  const reorderArticles = async (from: number, by: -1 | 1) => {
    const next = moved(articles.rows, from, by);
    if (!next || !collectionId) return;
    articles.setRows(next);
    try {
      await inTurn(() => request(OrderHelpArticlesDocument, { appModeId: modeId, collectionId, ids: next.map((a) => a.id) }));
    } catch (err) {
      articles.setError(messageOf(err));
      void articles.reload();
    }
  };

  return (
    <main class="help" id="main">
      <header class="help-head">
        <h1>Help center</h1>
        {mode && !mode.helpOn && <p class="help-off">The help center is switched off for this app: readers see nothing of it yet.</p>}
        {mode?.helpOn && (
          <a href={`/help/${mode.appKey}/${language}`} target="_blank" rel="noopener">
            Open the public help site
          </a>
        )}
      </header>
      <div class="help-columns">
        <section class="help-collections" aria-labelledby="help-collections-title">
          <h2 id="help-collections-title">Collections</h2>
          {collections.error && (
            <p class="error" role="alert">
              {collections.error}
            </p>
          )}
          <ul class="help-list">
            <li class={collectionId ? '' : 'chosen'}>
              <a
                href={HELP_PATH}
                aria-current={collectionId ? undefined : 'page'}
                onClick={(e) => (e.preventDefault(), navigate(HELP_PATH))}
              >
                All articles
              </a>
            </li>
            {collections.rows.map((c, i) => {
              const sections = sectionsOf(c);
              return (
                <CollectionRow
                  key={c.id}
                  collection={c}
                  name={collectionName(c, language)}
                  chosen={c.id === collectionId}
                  first={i === 0}
                  last={i === collections.rows.length - 1}
                  onMove={(by) => reorderCollections(i, by)}
                  onRemove={() => setRemoving({ kind: 'collection', id: c.id, name: collectionName(c, language) })}
                  onRename={(name) => rename(c, name)}
                >
                  {sections.length > 0 && (
                    <ul class="help-list help-sections" aria-label={`Sections of ${collectionName(c, language)}`}>
                      {sections.map((x, j) => (
                        <CollectionRow
                          key={x.id}
                          collection={x}
                          name={collectionName(x, language)}
                          chosen={x.id === collectionId}
                          first={j === 0}
                          last={j === sections.length - 1}
                          onMove={(by) => reorderSections(c, j, by)}
                          onRemove={() => setRemoving({ kind: 'section', id: x.id, name: collectionName(x, language) })}
                          onRename={(name) => rename(x, name)}
                          moveTo={{
                            choices: collections.rows
                              .filter((o) => o.id !== c.id)
                              .map((o) => ({ id: o.id, name: collectionName(o, language) })),
                            onMove: (parentId) => moveSection(x, parentId),
                          }}
                        />
                      ))}
                      {c.sections.pageInfo.hasNextPage && <li class="quiet-text">The first 20 sections are shown.</li>}
                    </ul>
                  )}
                </CollectionRow>
              );
            })}
          </ul>
          {collections.next && (
            <button type="button" class="quiet" onClick={() => void collections.more()}>
              Show more collections
            </button>
          )}
          <NameForm
            id="new-collection"
            label="New collection"
            button="Make collection"
            onSubmit={async (name) => {
              const { createHelpCollection } = await request(CreateHelpCollectionDocument, {
                appModeId: modeId,
                slug: slugOf(name),
                texts: [{ language, name, description: '' }],
              });
              collections.setRows([
                ...collections.rows,
                { ...createHelpCollection, sections: { edges: [], pageInfo: { hasNextPage: false } } },
              ]);
              navigate(helpCollectionPath(createHelpCollection.id));
            }}
          />
          {home && (
            <NameForm
              key={home.id}
              id="new-section"
              label={`New section in ${collectionName(home, language)}`}
              button="Make section"
              onSubmit={async (name) => {
                const id = await createSection(modeId, home.id, name, language);
                await collections.reload();
                navigate(helpCollectionPath(id));
              }}
            />
          )}
        </section>
        <section class="help-articles" aria-labelledby="help-articles-title">
          <h2 id="help-articles-title">{chosen ? `Articles in ${chosenName}` : 'All articles'}</h2>
          <NameForm
            id="new-article"
            label={chosen ? `New article in ${chosenName}` : 'New article (in no collection)'}
            button="Write article"
            onSubmit={async (title) => {
              const id = await createArticle(modeId, collectionId, title, language);
              navigate(helpArticlePath(id, language));
            }}
          />
          {articles.error && (
            <p class="error" role="alert">
              {articles.error}
            </p>
          )}
          {articles.loading && articles.rows.length === 0 ? (
            <p class="quiet-text">Loading…</p>
          ) : articles.rows.length === 0 ? (
            <p class="quiet-text">No article here yet.</p>
          ) : (
            <ul class="help-list help-article-rows" ref={articleList} aria-label="Articles">
              {articles.rows.map((a, i) => {
                const title = articleTitle(a, language);
                return (
                  <li key={a.id}>
                    <a
                      class="row"
                      href={helpArticlePath(a.id)}
                      data-id={a.id}
                      onClick={(e) => (e.preventDefault(), navigate(helpArticlePath(a.id)))}
                      onKeyDown={(e) => e.code === 'Enter' && (e.preventDefault(), navigate(helpArticlePath(a.id)))}
                    >
                      <strong>{title}</strong>
                      <span class="help-languages">
                        {articleLanguages(a, language).map((l) => (
                          <span key={l.language} class={`help-state state-${l.state}`}>
                            {languageName(l.language)}: {STATE_WORDS[l.state]}
                          </span>
                        ))}
                        {a.audience === 'signed_in' && <span class="help-state">Signed-in users only</span>}
                      </span>
                    </a>
                    <RowButtons
                      name={title}
                      canMove={!!collectionId}
                      first={i === 0}
                      last={i === articles.rows.length - 1}
                      onMove={(by) => reorderArticles(i, by)}
                      onRemove={() => setRemoving({ kind: 'article', id: a.id, name: title })}
                    />
                  </li>
                );
              })}
            </ul>
          )}
          {articles.next && (
            <button type="button" class="quiet" onClick={() => void articles.more()}>
              Show more articles
            </button>
          )}
          <p class="hint">j and k move among the articles, Enter opens one.</p>
        </section>
      </div>
      {removing && (
        <Confirm
          title={`Remove ${removing.name}?`}
          action="Remove"
          onCancel={() => setRemoving(undefined)}
          onConfirm={async () => {
            if (removing.kind === 'collection' || removing.kind === 'section') {
              await request(RemoveHelpCollectionDocument, { id: removing.id });
              const wasChosen = removing.id === collectionId || (removing.kind === 'collection' && home?.id === removing.id);
              await collections.reload();
              if (wasChosen) navigate(HELP_PATH);
              else void articles.reload();
            } else {
              await request(RemoveHelpArticleDocument, { id: removing.id });
              articles.setRows(articles.rows.filter((a) => a.id !== removing.id));
            }
            setRemoving(undefined);
          }}
        >
          {removing.kind === 'collection' ? (
            <p>The collection and its sections go; their articles stay, in no collection.</p>
          ) : removing.kind === 'section' ? (
            <p>The section goes; its articles stay, in no collection.</p>
          ) : (
            <p>The article goes in every language, with its views and votes. This cannot be undone.</p>
          )}
        </Confirm>
      )}
    </main>
  );
}

/** A new article: its slug from the title (a number added when taken), then its first draft. */
async function createArticle(appModeId: string, collectionId: string | undefined, title: string, language: string): Promise<string> {
  const base = slugOf(title);
  for (let n = 1; ; n++) {
    try {
      const { createHelpArticle } = await request(CreateHelpArticleDocument, {
        appModeId,
        collectionId: collectionId ?? null,
        slug: n === 1 ? base : `${base}-${n}`,
      });
      await request(SaveHelpDraftDocument, { articleId: createHelpArticle.id, language, title, blocks: [] });
      return createHelpArticle.id;
    } catch (err) {
      if (!(err instanceof Refusal && err.code === 'slug_taken') || n >= 5) throw err;
    }
  }
}

/** A new section of a collection: its slug from the name (a number added when taken). */
async function createSection(appModeId: string, parentId: string, name: string, language: string): Promise<string> {
  const base = slugOf(name);
  for (let n = 1; ; n++) {
    try {
      const { createHelpCollection } = await request(CreateHelpCollectionDocument, {
        appModeId,
        parentId,
        slug: n === 1 ? base : `${base}-${n}`,
        texts: [{ language, name, description: '' }],
      });
      return createHelpCollection.id;
    } catch (err) {
      if (!(err instanceof Refusal && err.code === 'slug_taken') || n >= 5) throw err;
    }
  }
}

function CollectionRow(props: {
  collection: HelpCollectionRowFragment;
  name: string;
  chosen: boolean;
  first: boolean;
  last: boolean;
  onMove(by: -1 | 1): void;
  onRemove(): void;
  onRename(name: string): Promise<void>;
  /** A section's other collections, to move it to. */
  moveTo?: { choices: { id: string; name: string }[]; onMove(parentId: string): void };
  /** Its sections, under it. */
  children?: ComponentChildren;
}) {
  const [renaming, setRenaming] = useState(false);
  const { collection: c, name } = props;
  if (renaming)
    return (
      <li class="renaming">
        <NameForm
          id={`rename-${c.id}`}
          label={`New name for ${name}`}
          button="Rename"
          initial={name}
          autoFocus
          onCancel={() => setRenaming(false)}
          onSubmit={async (next) => {
            await props.onRename(next);
            setRenaming(false);
          }}
        />
      </li>
    );
  return (
    <li class={props.chosen ? 'chosen' : ''}>
      <a
        href={helpCollectionPath(c.id)}
        aria-current={props.chosen ? 'page' : undefined}
        onClick={(e) => (e.preventDefault(), navigate(helpCollectionPath(c.id)))}
      >
        {name}
      </a>
      <RowButtons name={name} canMove first={props.first} last={props.last} onMove={props.onMove} onRemove={props.onRemove}>
        <button type="button" class="quiet small" aria-label={`Rename ${name}`} onClick={() => setRenaming(true)}>
          Rename
        </button>
        {props.moveTo && props.moveTo.choices.length > 0 && (
          <select
            class="small"
            aria-label={`Move ${name} to another collection`}
            value=""
            onChange={(e) => e.currentTarget.value && props.moveTo!.onMove(e.currentTarget.value)}
          >
            <option value="">Move to…</option>
            {props.moveTo.choices.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        )}
      </RowButtons>
      {props.children}
    </li>
  );
}

function RowButtons(props: {
  name: string;
  canMove: boolean;
  first: boolean;
  last: boolean;
  onMove(by: -1 | 1): void;
  onRemove(): void;
  children?: ComponentChildren;
}) {
  return (
    <span class="row-buttons">
      {props.children}
      {props.canMove && (
        <>
          <button
            type="button"
            class="quiet small"
            aria-label={`Move ${props.name} up`}
            disabled={props.first}
            onClick={() => props.onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            class="quiet small"
            aria-label={`Move ${props.name} down`}
            disabled={props.last}
            onClick={() => props.onMove(1)}
          >
            ↓
          </button>
        </>
      )}
      <button type="button" class="quiet small" aria-label={`Remove ${props.name}`} onClick={props.onRemove}>
        Remove
      </button>
    </span>
  );
}

/** A one-field form (a name, a title): refusals shown in the service's words under it. */
export function NameForm(props: {
  id: string;
  label: string;
  button: string;
  initial?: string;
  autoFocus?: boolean;
  onSubmit(value: string): Promise<void>;
  onCancel?(): void;
}) {
  const [value, setValue] = useState(props.initial ?? '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => void (props.autoFocus && input.current?.select()), []);
  return (
    <form
      class="name-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!value.trim() || busy) return;
        setBusy(true);
        try {
          await props.onSubmit(value.trim());
          setValue('');
          setError(undefined);
        } catch (err) {
          setError(messageOf(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label for={props.id}>{props.label}</label>
      <span class="name-form-row">
        <input
          id={props.id}
          ref={input}
          autocomplete="off"
          value={value}
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => e.code === 'Escape' && props.onCancel?.()}
        />
        <button type="submit" disabled={busy || !value.trim()}>
          {props.button}
        </button>
        {props.onCancel && (
          <button type="button" class="quiet" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </span>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
