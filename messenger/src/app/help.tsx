import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { Blocks } from './blocks.js';
import { focusFirst } from './focus.js';
import { Head } from './head.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';

type ArticleItem = components['schemas']['ArticleItem'];
type Article = components['schemas']['Article'];

/** Asked this long after typing stops. */
const SEARCH_PAUSE_MS = 200;

/** Articles as a list of buttons, each opening its article. */
export function ArticleList({ items, open, label }: { items: ArticleItem[]; open: (slug: string) => void; label: string }) {
  return (
    <ul class="list" aria-label={label}>
      {items.map((a) => (
        <li key={a.slug}>
          <button type="button" onClick={() => open(a.slug)}>
            <span class="preview">{a.title}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Search as you type: the best matches of the help center, in the person's language. */
export function HelpSearch({
  context,
  open,
  featured,
  browse,
}: {
  context: MessengerContext;
  open: (slug: string) => void;
  featured: ArticleItem[];
  /** Opens the help center's collections, when it has them to browse. */
  browse?: () => void;
}) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<ArticleItem[] | undefined>();
  useEffect(() => {
    const words = q.trim();
    if (!words) return setFound(undefined);
    const asking = new AbortController();
    const timer = setTimeout(() => {
      void context.client.api.GET('/guest/v1/articles', { params: { query: { q: words, limit: '8' } }, signal: asking.signal }).then(
        ({ data }) => data && setFound(data.items),
        () => undefined,
      );
    }, SEARCH_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      asking.abort();
    };
  }, [q]);
  const items = found ?? featured;
  return (
    <section class="card" aria-labelledby="crm-help">
      <h3 id="crm-help">{words().findAnAnswer}</h3>
      <input
        type="search"
        class="search"
        aria-label={words().searchForHelp}
        placeholder={words().searchForHelp}
        value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
      />
      {found && !found.length && <p class="reply-time">{words().noArticleMatches}</p>}
      {items.length > 0 && <ArticleList items={items} open={open} label={found ? words().articlesFound : words().popularArticles} />}
      {browse && (
        <button type="button" class="link-button browse" data-place="collections" onClick={browse}>
          {words().browseCollections}
        </button>
      )}
    </section>
  );
}

/** One article, with "Was this helpful?". */
export function ArticleScreen({ context, slug, back }: { context: MessengerContext; slug: string; back: () => void }) {
  const [article, setArticle] = useState<Article | undefined>();
  const [failed, setFailed] = useState('');
  const [voted, setVoted] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void context.client.api.GET('/guest/v1/articles/{slug}', { params: { path: { slug } } }).then(({ data, error }) => {
      if (data) setArticle(data);
      else setFailed(refusal(error, words().articleUnreadable));
    });
  }, [slug]);
  useEffect(() => focusFirst(body.current?.parentElement ?? null), []);
  const vote = (helpful: boolean) =>
    void context.client.api
      .POST('/guest/v1/articles/{slug}/rating', { params: { path: { slug } }, body: { helpful } })
      .then(() => setVoted(true));
  return (
    <>
      <Head title={words().help} back={back} close={context.close} />
      <div class="body article" ref={body} tabIndex={0} aria-label={words().article}>
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {article && (
          <>
            <h3 class="article-title">{article.title}</h3>
            <Blocks blocks={article.blocks} />
            <div class="helpful" role="group" aria-label={words().wasThisHelpful}>
              {voted ? (
                <p role="status">{words().thanksForTelling}</p>
              ) : (
                <>
                  <span>{words().wasThisHelpful}</span>
                  <button type="button" onClick={() => vote(true)}>
                    {words().yes}
                  </button>
                  <button type="button" onClick={() => vote(false)}>
                    {words().no}
                  </button>
                </>
              )}
            </div>
          </>
        )}
      </div>
    </>
  );
}
