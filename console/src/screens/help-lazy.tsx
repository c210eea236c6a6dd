import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// The help center's screens, fetched the first time one opens: the editor, its preview (the help
// site's renderer, stylesheet and words) and their operations stay out of the script every
// other screen loads first.

export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function Lazy(props: P) {
    const [Screen, setScreen] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      load()
        .then((c) => ((loaded = c), setScreen(() => c)))
        .catch(() => setFailed(true));
    }, []);
    if (Screen) return <Screen {...props} />;
    return (
      <main class="empty" id="main">
        <p role={failed ? 'alert' : undefined}>{failed ? 'This screen could not be loaded: reload the page to try again.' : 'Loading…'}</p>
      </main>
    );
  };
}

export const HelpCenter = lazyScreen(() => import('./help').then((m) => m.HelpCenter));
export const HelpArticleEditor = lazyScreen(() => import('./help-article').then((m) => m.HelpArticleEditor));
