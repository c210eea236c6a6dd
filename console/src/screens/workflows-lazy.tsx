import { lazyScreen } from './help-lazy';

// The workflows area, fetched the first time it opens (as the emails area is): its screens, the step
// editor and their styles stay out of the script every other screen loads first.

export const Workflows = lazyScreen(() => import('./workflows').then((m) => m.Workflows));
