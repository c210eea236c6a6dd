// The words of the unsubscribe page and the preference centre, in the languages the help site
// speaks; the person's own language (their contact's), else their browser's, else English. The
// unsubscribe title and the preference centre's link are the email's own words (the footer's link
// and the page it opens say the same).

import { EMAIL_LANGUAGES, emailWordsFor as own } from '../../src/domain/email/words.js';

const en = {
  unsubscribeTitle: own('en').unsubscribe,
  askLeave: (topic: string) => `Unsubscribe from ${topic}?`,
  youGet: (topic: string, address: string) => `You get emails about ${topic} at ${address}.`,
  leave: 'Unsubscribe',
  left: (topic: string) => `You have unsubscribed from ${topic}.`,
  leftDetail: (address: string) => `No more emails about it will go to ${address}. Other topics are as you chose them.`,
  gone: 'This topic has ended: no emails about it are sent any more.',
  manage: own('en').preferences,
  preferencesTitle: 'Your preferences',
  preferencesLead: (address: string) => `Choose what we send to ${address}, and how.`,
  channels: { email: 'By email', push: 'By push notification', in_app: 'In the app' } as Record<string, string>,
  allOff: 'Turn everything off',
  allOffHint: 'Nothing reaches you by any channel while this is on, whatever is chosen above.',
  save: 'Save my preferences',
  saved: 'Your preferences are saved.',
  none: 'There is nothing to choose yet.',
  testCopy: "This is a test copy sent to a team member: nothing done here changes anyone's preferences.",
  notFound: 'This link does not work',
  notFoundHint: 'It may be altered, or the email it came in is no longer kept.',
  tooMany: 'Too many requests: please try again in a minute.',
};

type Words = typeof en;

const de: Words = {
  unsubscribeTitle: own('de').unsubscribe,
  askLeave: (topic) => `Von ${topic} abmelden?`,
  youGet: (topic, address) => `Sie erhalten E-Mails zu ${topic} an ${address}.`,
  leave: 'Abmelden',
  left: (topic) => `Sie haben sich von ${topic} abgemeldet.`,
  leftDetail: (address) => `Es gehen keine E-Mails dazu mehr an ${address}. Andere Themen bleiben, wie Sie sie gewählt haben.`,
  gone: 'Dieses Thema gibt es nicht mehr: Dazu werden keine E-Mails mehr gesendet.',
  manage: own('de').preferences,
  preferencesTitle: 'Ihre Einstellungen',
  preferencesLead: (address) => `Wählen Sie, was wir an ${address} senden, und wie.`,
  channels: { email: 'Per E-Mail', push: 'Per Push-Nachricht', in_app: 'In der App' },
  allOff: 'Alles ausschalten',
  allOffHint: 'Solange dies an ist, erreicht Sie nichts über irgendeinen Weg, was oben auch gewählt ist.',
  save: 'Einstellungen speichern',
  saved: 'Ihre Einstellungen sind gespeichert.',
  none: 'Noch gibt es nichts zu wählen.',
  testCopy: 'Dies ist eine Testkopie für ein Teammitglied: Nichts hier ändert die Einstellungen einer Person.',
  notFound: 'Dieser Link funktioniert nicht',
  notFoundHint: 'Er wurde vielleicht verändert, oder die E-Mail, in der er kam, wird nicht mehr aufbewahrt.',
  tooMany: 'Zu viele Anfragen: Bitte versuchen Sie es in einer Minute noch einmal.',
};

const fr: Words = {
  unsubscribeTitle: own('fr').unsubscribe,
  askLeave: (topic) => `Vous désabonner de ${topic} ?`,
  youGet: (topic, address) => `Vous recevez des e-mails sur ${topic} à ${address}.`,
  leave: 'Me désabonner',
  left: (topic) => `Vous êtes désabonné de ${topic}.`,
  leftDetail: (address) =>
    `Plus aucun e-mail à ce sujet ne sera envoyé à ${address}. Les autres sujets restent comme vous les avez choisis.`,
  gone: "Ce sujet n'existe plus : aucun e-mail n'est plus envoyé à son propos.",
  manage: own('fr').preferences,
  preferencesTitle: 'Vos préférences',
  preferencesLead: (address) => `Choisissez ce que nous envoyons à ${address}, et comment.`,
  channels: { email: 'Par e-mail', push: 'Par notification push', in_app: "Dans l'application" },
  allOff: 'Tout désactiver',
  allOffHint: 'Tant que ceci est activé, rien ne vous parvient, quels que soient les choix ci-dessus.',
  save: 'Enregistrer mes préférences',
  saved: 'Vos préférences sont enregistrées.',
  none: "Il n'y a encore rien à choisir.",
  testCopy: "Ceci est une copie de test envoyée à un membre de l'équipe : rien ici ne change les préférences de quiconque.",
  notFound: 'Ce lien ne fonctionne pas',
  notFoundHint: "Il a peut-être été modifié, ou l'e-mail qui le contenait n'est plus conservé.",
  tooMany: 'Trop de requêtes : veuillez réessayer dans une minute.',
};

const es: Words = {
  unsubscribeTitle: own('es').unsubscribe,
  askLeave: (topic) => `¿Darse de baja de ${topic}?`,
  youGet: (topic, address) => `Recibe correos sobre ${topic} en ${address}.`,
  leave: 'Darme de baja',
  left: (topic) => `Se ha dado de baja de ${topic}.`,
  leftDetail: (address) => `No se enviarán más correos sobre esto a ${address}. Los demás temas siguen como los eligió.`,
  gone: 'Este tema ha terminado: ya no se envían correos sobre él.',
  manage: own('es').preferences,
  preferencesTitle: 'Sus preferencias',
  preferencesLead: (address) => `Elija qué enviamos a ${address}, y cómo.`,
  channels: { email: 'Por correo', push: 'Por notificación push', in_app: 'En la aplicación' },
  allOff: 'Desactivarlo todo',
  allOffHint: 'Mientras esté activado, nada le llega por ningún medio, sea cual sea la elección de arriba.',
  save: 'Guardar mis preferencias',
  saved: 'Sus preferencias están guardadas.',
  none: 'Todavía no hay nada que elegir.',
  testCopy: 'Esta es una copia de prueba enviada a un miembro del equipo: nada de lo que haga aquí cambia las preferencias de nadie.',
  notFound: 'Este enlace no funciona',
  notFoundHint: 'Puede que se haya alterado, o el correo en el que llegó ya no se conserva.',
  tooMany: 'Demasiadas solicitudes: inténtelo de nuevo en un minuto.',
};

const WORDS: Record<string, Words> = { en, de, fr, es };
export const EMAIL_PAGE_LANGUAGES = EMAIL_LANGUAGES;

export const emailWordsFor = (language: string): Words => WORDS[language.split('-')[0]!.toLowerCase()] ?? en;
