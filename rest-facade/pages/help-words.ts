// The help site's own words, in the languages it knows; others read English.

const EN = {
  helpCenter: 'Help Center',
  howCanWeHelp: 'How can we help?',
  searchPlaceholder: 'Search for articles…',
  search: 'Search',
  articles: (n: number) => (n === 1 ? '1 article' : `${n} articles`),
  home: 'Help Center',
  resultsFor: (q: string) => `Results for “${q}”`,
  similarFor: (q: string) => `No article has every word of “${q}”. These have words like them:`,
  noResults: 'No articles found. Try other words.',
  browseAll: 'Browse all articles',
  noArticlesYet: 'No articles yet',
  noArticlesYetHint: 'Articles will appear here once the team publishes them.',
  popular: 'Popular articles',
  collections: 'Collections',
  related: 'Related articles',
  updated: 'Updated',
  wasHelpful: 'Was this article helpful?',
  yes: 'Yes',
  no: 'No',
  thanks: 'Thanks for letting us know!',
  notFound: 'We could not find that page.',
  notFoundHint: 'It may have moved, or the help center is not available.',
  tooMany: 'Too many requests. Please wait a moment and try again.',
  busy: 'The help center is busy. Please try again in a moment.',
  backHome: 'Back to the Help Center',
  language: 'Language',
  inOtherLanguage: 'This article is not available in your language yet; here it is in',
};

type Words = typeof EN;

const DE: Words = {
  helpCenter: 'Hilfe-Center',
  howCanWeHelp: 'Wie können wir helfen?',
  searchPlaceholder: 'Artikel durchsuchen…',
  search: 'Suchen',
  articles: (n) => (n === 1 ? '1 Artikel' : `${n} Artikel`),
  home: 'Hilfe-Center',
  resultsFor: (q) => `Ergebnisse für „${q}“`,
  similarFor: (q) => `Kein Artikel enthält alle Wörter von „${q}“. Diese enthalten ähnliche:`,
  noResults: 'Keine Artikel gefunden. Versuchen Sie andere Wörter.',
  browseAll: 'Alle Artikel ansehen',
  noArticlesYet: 'Noch keine Artikel',
  noArticlesYetHint: 'Artikel erscheinen hier, sobald das Team sie veröffentlicht.',
  popular: 'Beliebte Artikel',
  collections: 'Sammlungen',
  related: 'Verwandte Artikel',
  updated: 'Aktualisiert',
  wasHelpful: 'War dieser Artikel hilfreich?',
  yes: 'Ja',
  no: 'Nein',
  thanks: 'Danke für Ihre Rückmeldung!',
  notFound: 'Diese Seite wurde nicht gefunden.',
  notFoundHint: 'Sie wurde vielleicht verschoben, oder das Hilfe-Center ist nicht verfügbar.',
  tooMany: 'Zu viele Anfragen. Bitte versuchen Sie es gleich noch einmal.',
  busy: 'Das Hilfe-Center ist gerade ausgelastet. Bitte versuchen Sie es gleich noch einmal.',
  backHome: 'Zurück zum Hilfe-Center',
  language: 'Sprache',
  inOtherLanguage: 'Diesen Artikel gibt es noch nicht in Ihrer Sprache; hier ist er auf',
};

const FR: Words = {
  helpCenter: 'Centre d’aide',
  howCanWeHelp: 'Comment pouvons-nous vous aider ?',
  searchPlaceholder: 'Rechercher un article…',
  search: 'Rechercher',
  articles: (n) => (n <= 1 ? `${n} article` : `${n} articles`),
  home: 'Centre d’aide',
  resultsFor: (q) => `Résultats pour « ${q} »`,
  similarFor: (q) => `Aucun article ne contient tous les mots de « ${q} ». Ceux-ci contiennent des mots proches :`,
  noResults: 'Aucun article trouvé. Essayez d’autres mots.',
  browseAll: 'Voir tous les articles',
  noArticlesYet: 'Pas encore d’articles',
  noArticlesYetHint: 'Les articles apparaîtront ici dès que l’équipe les publiera.',
  popular: 'Articles populaires',
  collections: 'Collections',
  related: 'Articles liés',
  updated: 'Mis à jour',
  wasHelpful: 'Cet article vous a-t-il été utile ?',
  yes: 'Oui',
  no: 'Non',
  thanks: 'Merci pour votre retour !',
  notFound: 'Page introuvable.',
  notFoundHint: 'Elle a peut-être été déplacée, ou le centre d’aide n’est pas disponible.',
  tooMany: 'Trop de demandes. Veuillez réessayer dans un instant.',
  busy: 'Le centre d’aide est très sollicité. Veuillez réessayer dans un instant.',
  backHome: 'Retour au centre d’aide',
  language: 'Langue',
  inOtherLanguage: 'Cet article n’est pas encore disponible dans votre langue ; le voici en',
};

const ES: Words = {
  helpCenter: 'Centro de ayuda',
  howCanWeHelp: '¿Cómo podemos ayudarte?',
  searchPlaceholder: 'Buscar artículos…',
  search: 'Buscar',
  articles: (n) => (n === 1 ? '1 artículo' : `${n} artículos`),
  home: 'Centro de ayuda',
  resultsFor: (q) => `Resultados para «${q}»`,
  similarFor: (q) => `Ningún artículo tiene todas las palabras de «${q}». Estos tienen palabras parecidas:`,
  noResults: 'No se encontraron artículos. Prueba con otras palabras.',
  browseAll: 'Ver todos los artículos',
  noArticlesYet: 'Todavía no hay artículos',
  noArticlesYetHint: 'Los artículos aparecerán aquí cuando el equipo los publique.',
  popular: 'Artículos populares',
  collections: 'Colecciones',
  related: 'Artículos relacionados',
  updated: 'Actualizado',
  wasHelpful: '¿Te resultó útil este artículo?',
  yes: 'Sí',
  no: 'No',
  thanks: '¡Gracias por tu opinión!',
  notFound: 'No encontramos esa página.',
  notFoundHint: 'Puede que se haya movido o que el centro de ayuda no esté disponible.',
  tooMany: 'Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.',
  busy: 'El centro de ayuda está ocupado. Espera un momento y vuelve a intentarlo.',
  backHome: 'Volver al centro de ayuda',
  language: 'Idioma',
  inOtherLanguage: 'Este artículo aún no está disponible en tu idioma; aquí está en',
};

const WORDS: Record<string, Words> = { en: EN, de: DE, fr: FR, es: ES };

export const wordsFor = (language: string): Words => WORDS[language.split('-')[0]!.toLowerCase()] ?? EN;

/** A language's own name for itself (Deutsch, Français), from the runtime's ICU data. */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
    return name ? name.charAt(0).toLocaleUpperCase(language) + name.slice(1) : language;
  } catch {
    return language;
  }
}
