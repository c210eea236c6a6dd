import { lazyScreen } from './help-lazy';

// The messages area, fetched the first time it opens (as the help center is): its screens, the
// preview, test phones and their operations stay out of the script every other screen loads first.

export const Messages = lazyScreen(() => import('./messages').then((m) => m.Messages));
