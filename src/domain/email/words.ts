// The words an email itself carries beside what its author wrote: the footer of topic mail (why the
// person gets it, the unsubscribe link and the preference centre's), in the languages the email's
// pages speak (English, German, French, Spanish; English for any other). The unsubscribe page and
// the preference centre (rest-facade/pages/email-words.ts) reuse the two links' words, so the link
// a person follows and the page it opens say the same.

export interface EmailWords {
  /** The unsubscribe link's words, and the unsubscribe page's title. */
  unsubscribe: string;
  /** The preference centre's link. */
  preferences: string;
  /** Why the person gets this email: the topic's name and the brand's. */
  why: (topic: string, brand: string) => string;
}

const WORDS: Record<string, EmailWords> = {
  en: {
    unsubscribe: 'Unsubscribe',
    preferences: 'Manage all your email preferences',
    why: (topic, brand) => `You get this email because you are subscribed to ${topic} from ${brand}.`,
  },
  de: {
    unsubscribe: 'Abmelden',
    preferences: 'Alle E-Mail-Einstellungen verwalten',
    why: (topic, brand) => `Sie erhalten diese E-Mail, weil Sie ${topic} von ${brand} abonniert haben.`,
  },
  fr: {
    unsubscribe: 'Se désabonner',
    preferences: 'Gérer toutes vos préférences e-mail',
    why: (topic, brand) => `Vous recevez cet e-mail car vous êtes abonné à ${topic} de ${brand}.`,
  },
  es: {
    unsubscribe: 'Darse de baja',
    preferences: 'Gestionar todas sus preferencias de correo',
    why: (topic, brand) => `Recibe este correo porque está suscrito a ${topic} de ${brand}.`,
  },
};

/** The languages an email's own words and its pages are written in. */
export const EMAIL_LANGUAGES = Object.keys(WORDS);

/** The words for a language (`de`, `de-AT`), English for one not written. */
export const emailWordsFor = (language: string): EmailWords => WORDS[language.split('-')[0]!.toLowerCase()] ?? WORDS.en!;
