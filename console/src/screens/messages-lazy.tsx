import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { lazyScreen } from './help-lazy';

// The messages area, fetched the first time it opens (as the help center is): its screens, the
// preview, test phones and their operations stay out of the script every other screen loads first.
// A survey's results come in a chunk of their own when first opened, in the pane beside the list.

export const Messages = lazyScreen(() => import('./messages').then((m) => m.Messages));

let resultsLoaded: ComponentType<{ id: string }> | undefined;
export function SurveyResults(props: { id: string }) {
  const [Page, setPage] = useState(() => resultsLoaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (resultsLoaded) return;
    import('./messages-survey-results')
      .then((m) => ((resultsLoaded = m.SurveyResultsPage), setPage(() => m.SurveyResultsPage)))
      .catch(() => setFailed(true));
  }, []);
  if (Page) return <Page {...props} />;
  return (
    <section class="conversation-pane message-page" aria-label="Results">
      <p class="quiet-text" role={failed ? 'alert' : undefined}>
        {failed ? 'The results could not be loaded: reload the page to try again.' : 'Loading…'}
      </p>
    </section>
  );
}
