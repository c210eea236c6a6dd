import { lazyScreen } from './help-lazy';

// The emails area, fetched the first time it opens (as the messages area is): its screens, the
// block editor and their styles stay out of the script every other screen loads first.

export const Emails = lazyScreen(() => import('./emails').then((m) => m.Emails));
