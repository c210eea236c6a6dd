import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { focusFirst } from './focus.js';
import { Head } from './head.js';
import { ArticleList } from './help.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';

type Collections = components['schemas']['Collections'];
type CollectionArticles = components['schemas']['CollectionArticles'];

/** Focuses the control named `data-slug={from}` (the one the person came back from), else the screen's first. */
function giveFocusBack(body: HTMLElement | null, from: string | undefined) {
  const to = from ? body?.querySelector<HTMLElement>(`[data-slug="${CSS.escape(from)}"]`) : null;
  if (to) to.focus();
  else focusFirst(body?.parentElement ?? null);
}

/** The help center's collections in order, each with what it holds; opening one lists its articles. */
export function CollectionsScreen(props: { context: MessengerContext; back: () => void; open: (slug: string) => void; from?: string }) {
  const [collections, setCollections] = useState<Collections | undefined>();
  const [failed, setFailed] = useState('');
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    props.context.client.collections().then(setCollections, (error: unknown) => setFailed(refusal(error, words().collectionUnreadable)));
  }, []);
  useEffect(() => giveFocusBack(body.current, props.from), [collections]);
  return (
    <>
      <Head title={words().collections} back={props.back} close={props.context.close} />
      <div class="body" ref={body}>
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {collections && !collections.items.length && <p class="reply-time">{words().nothingYet}</p>}
        {collections && (
          <ul class="list collections" aria-label={words().collections}>
            {collections.items.map((c) => (
              <li key={c.slug}>
                <button type="button" data-slug={c.slug} onClick={() => props.open(c.slug)}>
                  <span class="collection-text">
                    <strong>{c.name}</strong>
                    {c.description && <span class="hint">{c.description}</span>}
                    <span class="hint">{words().articleCount(c.article_count)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/** One collection (or section): its own articles, then each section's under its name. */
export function CollectionScreen(props: {
  context: MessengerContext;
  slug: string;
  back: () => void;
  read: (slug: string) => void;
  from?: string;
}) {
  const [collection, setCollection] = useState<CollectionArticles | undefined>();
  const [failed, setFailed] = useState('');
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    props.context.client
      .collection(props.slug)
      .then(setCollection, (error: unknown) => setFailed(refusal(error, words().collectionUnreadable)));
  }, [props.slug]);
  useEffect(() => {
    // The article lists' buttons carry no slug of their own: the one read is found by its place in the lists.
    const read =
      collection && [...collection.items, ...collection.sections.flatMap((s) => s.items)].findIndex((a) => a.slug === props.from);
    const buttons = body.current?.querySelectorAll<HTMLElement>('.list button');
    if (read !== undefined && read >= 0 && buttons?.[read]) buttons[read]!.focus();
    else focusFirst(body.current?.parentElement ?? null);
  }, [collection]);
  return (
    <>
      <Head title={collection?.name ?? words().collections} back={props.back} close={props.context.close} />
      <div class="body" ref={body}>
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {collection && (
          <>
            {collection.description && <p class="reply-time">{collection.description}</p>}
            {collection.items.length > 0 && <ArticleList items={collection.items} open={props.read} label={collection.name} />}
            {collection.sections.map((s) => (
              <section key={s.slug} aria-labelledby={`crm-section-${s.slug}`}>
                <h3 class="section-name" id={`crm-section-${s.slug}`}>
                  {s.name}
                </h3>
                <ArticleList items={s.items} open={props.read} label={s.name} />
              </section>
            ))}
            {!collection.items.length && !collection.sections.length && <p class="reply-time">{words().nothingYet}</p>}
          </>
        )}
      </div>
    </>
  );
}
