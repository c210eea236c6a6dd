// The launcher's words, apart from the rest (messenger/src/words.ts takes them in) so that the first
// script carries only these.

const en = {
  openMessages: 'Open messages',
  /** `shown`: the count as the badge shows it (99+), so the label holds the badge's text. */
  openMessagesUnread: (n: number, shown: string) => `Open messages, ${shown} unread`,
  closeMessages: 'Close messages',
};

type LauncherWords = typeof en;

const de: LauncherWords = {
  openMessages: 'Nachrichten öffnen',
  openMessagesUnread: (_n, shown) => `Nachrichten öffnen, ${shown} ungelesen`,
  closeMessages: 'Nachrichten schließen',
};

const fr: LauncherWords = {
  openMessages: 'Ouvrir les messages',
  openMessagesUnread: (n, shown) => `Ouvrir les messages, ${shown} non lu${n > 1 ? 's' : ''}`,
  closeMessages: 'Fermer les messages',
};

const es: LauncherWords = {
  openMessages: 'Abrir mensajes',
  openMessagesUnread: (_n, shown) => `Abrir mensajes, ${shown} sin leer`,
  closeMessages: 'Cerrar mensajes',
};

export const LAUNCHER_WORDS = { en, de, fr, es };

/** A BCP 47 tag's language, lower case (`fr-CA` is `fr`). */
export const baseLanguage = (language: string | undefined): string => (language ?? 'en').split('-')[0]!.toLowerCase();

/** The launcher's words for a language, English for one the messenger does not know. */
export const launcherWordsFor = (language: string | undefined): LauncherWords =>
  LAUNCHER_WORDS[baseLanguage(language) as keyof typeof LAUNCHER_WORDS] ?? en;
