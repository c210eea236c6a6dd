import { useEffect, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import {
  ChangeHelpArticleDocument,
  HelpCollectionsDocument,
  type HelpAudience,
  type HelpCollectionTreeFragment,
} from '../generated/graphql';
import { collectionName } from './help-model';

// An article's address (its slug, the same in every language), its collection or section and who may read
// it (everyone, the public site too, or signed-in users only), changed with changeHelpArticle.

export function ArticleSettings(props: {
  article: { id: string; appModeId: string; slug: string; audience: HelpAudience; collectionId: string | null };
  defaultLanguage: string;
  onChanged(): Promise<void>;
}) {
  const { article } = props;
  const [collections, setCollections] = useState<HelpCollectionTreeFragment[]>([]);
  const [slug, setSlug] = useState(article.slug);
  const [collectionId, setCollectionId] = useState(article.collectionId ?? '');
  const [audience, setAudience] = useState<HelpAudience>(article.audience);
  const [said, setSaid] = useState<{ error?: string; fields?: string[]; done?: boolean }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    request(HelpCollectionsDocument, { appModeId: article.appModeId, after: null })
      .then(({ helpCollections }) => setCollections(helpCollections.edges.map((e) => e.node)))
      .catch(() => setCollections([]));
  }, [article.appModeId]);

  const changed = slug.trim() !== article.slug || collectionId !== (article.collectionId ?? '') || audience !== article.audience;
  return (
    <details class="article-settings">
      <summary>Address, collection and readers</summary>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!changed || busy) return;
          setBusy(true);
          try {
            await request(ChangeHelpArticleDocument, {
              id: article.id,
              input: {
                ...(slug.trim() !== article.slug ? { slug: slug.trim() } : {}),
                ...(collectionId !== (article.collectionId ?? '') ? { collectionId: collectionId || null } : {}),
                ...(audience !== article.audience ? { audience } : {}),
              },
            });
            setSaid({ done: true });
            await props.onChanged();
          } catch (err) {
            setSaid(err instanceof Refusal ? { error: err.message, fields: err.fields.map((f) => f.field) } : { error: String(err) });
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="article-slug">Address (the same in every language: lower-case letters, digits and hyphens)</label>
        <input
          id="article-slug"
          autocomplete="off"
          value={slug}
          aria-invalid={said.fields?.includes('slug') ? 'true' : undefined}
          onInput={(e) => (setSlug(e.currentTarget.value), setSaid({}))}
        />
        <label for="article-collection">Collection or section</label>
        <select id="article-collection" value={collectionId} onChange={(e) => (setCollectionId(e.currentTarget.value), setSaid({}))}>
          <option value="">None</option>
          {collections.flatMap((c) => [
            <option key={c.id} value={c.id}>
              {collectionName(c, props.defaultLanguage)}
            </option>,
            ...c.sections.edges.map(({ node: x }) => (
              <option key={x.id} value={x.id}>
                {collectionName(c, props.defaultLanguage)} › {collectionName(x, props.defaultLanguage)}
              </option>
            )),
          ])}
        </select>
        <label for="article-audience">Readers</label>
        <select id="article-audience" value={audience} onChange={(e) => (setAudience(e.currentTarget.value as HelpAudience), setSaid({}))}>
          <option value="everyone">Everyone: the public help site and the messenger</option>
          <option value="signed_in">Signed-in users only: the messenger</option>
        </select>
        <div>
          <button type="submit" class="quiet" disabled={!changed || busy}>
            Save these
          </button>
        </div>
        {said.error && (
          <p class="error" role="alert">
            {said.error}
          </p>
        )}
        {said.done && !changed && <p role="status">Saved.</p>}
      </form>
    </details>
  );
}
