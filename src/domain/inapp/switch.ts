import type { AppCaller, Ctx } from '../context.js';
import { notFound } from '../errors.js';

/** Every in-app route is 404 while the app-mode's in-app messages are switched off. */
export function requireInApp(ctx: Ctx<AppCaller>): void {
  if (!ctx.caller.settings.inappOn) throw notFound('In-app messages are switched off for this app.');
}
