import type { AppMode } from '../../generated/prisma/client.js';
import { findAppModeByKey } from '../access/app-modes.js';
import type { Ctx, GuestCaller, VisitorCaller } from '../context.js';
import { notFound } from '../errors.js';
import { readerLanguage } from './languages.js';

// Who reads the help center and in which language: a signed-in user of an app (guest routes)
// reads every published article, anyone else (public routes, the help site) those meant for
// everyone. Every help route answers 404 while the help center is switched off for the app.

export interface HelpReader {
  appModeId: string;
  app: AppMode;
  /** Signed in: also the articles meant for signed-in users. */
  signedIn: boolean;
  /** The app's language the reader asked for (lang, else Accept-Language, else the default). */
  language: string;
}

/** What a reader asked for: `lang` and the Accept-Language header. */
export interface AskedLanguage {
  lang?: string | undefined;
  acceptLanguage?: string | undefined;
}

export type HelpCtx = Ctx<GuestCaller | VisitorCaller>;

export const helpSwitchedOff = () => notFound('The help center is switched off for this app.');

const readerOf = (app: AppMode, signedIn: boolean, asked: AskedLanguage): HelpReader => ({
  appModeId: app.id,
  app,
  signedIn,
  language: readerLanguage(app, asked),
});

/** A signed-in user of the caller's app-mode. */
export function guestReader(ctx: Ctx<GuestCaller>, asked: AskedLanguage): HelpReader {
  if (!ctx.caller.settings.helpOn) throw helpSwitchedOff();
  return readerOf(ctx.caller.settings, true, asked);
}

/** Anyone, of the app-mode an app key names: 404 for no such key, an archived or switched-off app, or the help center off. */
export async function publicReader(ctx: Ctx<VisitorCaller>, appKey: string | undefined, asked: AskedLanguage): Promise<HelpReader> {
  const app = await findAppModeByKey(ctx.svc, appKey);
  if (!app || app.archived) throw notFound('No app has this key.');
  if (app.switchedOff || !app.helpOn) throw helpSwitchedOff();
  return readerOf(app, false, asked);
}

/** The audiences a reader may read. */
export const audiencesOf = (reader: HelpReader): ('everyone' | 'signed_in')[] =>
  reader.signedIn ? ['everyone', 'signed_in'] : ['everyone'];
