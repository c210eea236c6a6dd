import { createServerKey } from '../domain/apps/server-keys.js';
import { updateSettings } from '../domain/apps/settings.js';
import { identify } from '../domain/contacts/identify.js';
import {
  contextOf,
  scopeOf,
  systemContext,
  type Ctx,
  type GuestCaller,
  type ServerCaller,
  type Services,
  type StaffCaller,
} from '../domain/context.js';
import { closeConversation } from '../domain/conversations/close.js';
import { sendMessage } from '../domain/conversations/messages.js';
import { startConversation } from '../domain/conversations/start.js';
import { ingestServerEvents } from '../domain/events/server-events.js';
import { createHelpArticle } from '../domain/help/article-authoring.js';
import { createHelpCollection } from '../domain/help/collection-authoring.js';
import { publishHelpArticle, saveHelpDraft } from '../domain/help/drafts.js';
import { conversationById } from '../domain/inbox/conversation.js';
import { addNote, replyAsStaff } from '../domain/inbox/reply.js';
import { authorOf } from '../domain/inbox/staff-author.js';
import { createMessage, setMessageState } from '../domain/inapp/messages.js';
import { signIn, staffForToken } from '../domain/staff/sessions.js';
import { createTicket } from '../domain/tickets/create.js';
import { addTicketType } from '../domain/tickets/types.js';
import { DEMO_CONTACT } from './names.js';

// What the demo app holds on the first start, made through the domain functions as the APIs
// would make it: contacts with attributes and events, two conversations of one person (one
// answered by staff, then closed), a ticket of a ticket type (another person's), a help center in English and French
// with published articles, and a live in-app banner. A newcomer's first requests find something.

const CONTACTS = [
  { id: 'ada', displayName: 'Ada Lovelace', email: 'ada@example.com', plan: 'pro', seats: 12, language: 'en' },
  { id: 'grace', displayName: 'Grace Hopper', email: 'grace@example.com', plan: 'team', seats: 4, language: 'en' },
  { id: 'marie', displayName: 'Marie Curie', email: 'marie@example.com', plan: 'free', seats: 1, language: 'fr' },
];

const para = (text: string) => ({ type: 'paragraph', spans: [{ text }] });
const heading = (text: string) => ({ type: 'heading', level: 2, spans: [{ text }] });
const list = (...items: string[]) => ({ type: 'list', items: items.map((text) => ({ spans: [{ text }] })) });

const COLLECTIONS = [
  {
    slug: 'getting-started',
    en: { name: 'Getting started', description: 'Set up your account and invite your team.' },
    fr: { name: 'Premiers pas', description: 'Créez votre compte et invitez votre équipe.' },
    articles: [
      {
        slug: 'create-your-account',
        en: {
          title: 'Create your account',
          summary: 'Sign up in two minutes.',
          blocks: [
            para('Creating an account takes two minutes.'),
            heading('What you need'),
            list('An email address', 'A password of at least ten characters'),
          ],
        },
        fr: {
          title: 'Créer votre compte',
          summary: 'Inscrivez-vous en deux minutes.',
          blocks: [
            para('La création d’un compte prend deux minutes.'),
            heading('Ce qu’il vous faut'),
            list('Une adresse e-mail', 'Un mot de passe d’au moins dix caractères'),
          ],
        },
      },
      {
        slug: 'invite-your-team',
        en: { title: 'Invite your team', summary: 'Work together.', blocks: [para('Invite colleagues from Settings, then Team.')] },
        fr: {
          title: 'Inviter votre équipe',
          summary: 'Travaillez ensemble.',
          blocks: [para('Invitez vos collègues depuis Réglages, puis Équipe.')],
        },
      },
    ],
  },
  {
    slug: 'billing',
    en: { name: 'Billing', description: 'Plans, invoices and payments.' },
    fr: { name: 'Facturation', description: 'Offres, factures et paiements.' },
    articles: [
      {
        slug: 'change-your-plan',
        en: { title: 'Change your plan', summary: 'Move up or down at any time.', blocks: [para('Open Billing and pick another plan.')] },
        fr: {
          title: 'Changer d’offre',
          summary: 'Changez quand vous voulez.',
          blocks: [para('Ouvrez Facturation et choisissez une autre offre.')],
        },
      },
    ],
  },
];

/** Fills the demo app's live mode. `owner` signs in with the demo password to act as staff. */
export async function seedDemoContent(svc: Services, input: { appId: string; ownerEmail: string; ownerPassword: string }): Promise<void> {
  const system = systemContext(svc, 'demo');
  const mode = await svc.db.appMode.findFirstOrThrow({ where: { appId: input.appId, mode: 'live' } });
  // A help center in two languages.
  const settled = await updateSettings(system, mode.id, { languages: ['en', 'fr'] });

  // Staff: the demo owner, signed in as anyone would be.
  const { token } = await signIn(contextOf(svc, { kind: 'visitor', address: '127.0.0.1' }), input.ownerEmail, input.ownerPassword);
  const viewer = (await staffForToken(svc, token))!;
  const staff: Ctx<StaffCaller> = contextOf(svc, { kind: 'staff', staffUser: viewer.staffUser, sessionId: viewer.sessionId });

  // Contacts with attributes, identified as a backend does, and their events.
  const { id: serverKeyId } = await createServerKey(system, mode.id);
  const server: Ctx<ServerCaller> = contextOf(svc, { ...scopeOf(settled), kind: 'server', serverKeyId });
  for (const c of CONTACTS)
    await identify(server, c.id, {
      displayName: c.displayName,
      email: c.email,
      language: c.language,
      attributes: { plan: c.plan, seats: c.seats },
    });
  const now = svc.clock.now().getTime();
  const events = CONTACTS.flatMap((c, i): { externalId: string; name: string; props: Record<string, string>; ago: number }[] => [
    { externalId: c.id, name: 'signed_in', props: { platform: 'web' }, ago: 3 * 86_400_000 + i * 60_000 },
    { externalId: c.id, name: 'viewed_pricing', props: { plan: c.plan }, ago: 86_400_000 + i * 60_000 },
  ]).map((e, index) => ({
    index,
    id: `demo-${e.externalId}-${e.name}`,
    externalId: e.externalId,
    name: e.name,
    occurredAt: new Date(now - e.ago),
    props: e.props,
  }));
  await ingestServerEvents(server, { size: events.length, read: () => ({ events, rejected: [] }) });

  // Two conversations of Ada: the first answered by staff and closed, the second open.
  const ada: Ctx<GuestCaller> = contextOf(svc, { ...scopeOf(settled), kind: 'guest', externalId: DEMO_CONTACT, sdk: undefined });
  const first = await startConversation(ada, {
    text: 'Hi! How do I invite my team?',
    attachmentIds: [],
    button: null,
    opening: null,
  });
  await replyAsStaff(staff, first.conversation.id, { text: 'Hello Ada, open Settings, then Team, and add their emails. Anything else?' });
  await closeConversation(staff, await conversationById(staff, first.conversation.id), authorOf(staff));
  await startConversation(ada, { text: 'Can I get an invoice for last month?', attachmentIds: [], button: null, opening: null });

  // Conversations waiting in the console's inbox: Marie's in French, unanswered; Grace's with a
  // reply, a note for the team and her answer to it.
  const as = (externalId: string): Ctx<GuestCaller> => contextOf(svc, { ...scopeOf(settled), kind: 'guest', externalId, sdk: undefined });
  const ask = (externalId: string, text: string) =>
    startConversation(as(externalId), { text, attachmentIds: [], button: null, opening: null });
  await ask('marie', 'Bonjour ! Puis-je payer par virement bancaire ?');
  const grace = await ask('grace', 'Our webhook stopped receiving events this morning.');
  await replyAsStaff(staff, grace.conversation.id, { text: 'Sorry about that, Grace. Do you see failed tries in the delivery log?' });
  await addNote(staff, grace.conversation.id, { text: 'Her endpoint answered 500 since 8:02; probably their deploy.' });
  await sendMessage(as('grace'), grace.conversation.id, { text: 'Yes, all 500s since 8:02. We deployed then.', attachmentIds: [] });

  // A ticket type and a ticket of Grace's (a ticket has a conversation of its own: Ada keeps two).
  const type = await addTicketType(staff, mode.id, {
    name: 'Bug report',
    description: 'Something does not work as it should.',
    states: [
      { key: 'submitted', label: 'Submitted', final: false },
      { key: 'in_progress', label: 'In progress', final: false },
      { key: 'resolved', label: 'Resolved', final: true },
    ],
  });
  const contact = await svc.db.contact.findFirstOrThrow({ where: { appModeId: mode.id, externalId: 'grace' } });
  await createTicket(staff, contact.id, {
    typeId: type.id,
    title: 'Export to CSV stops at 1,000 rows',
    description: 'The export of my contacts has only the first 1,000 rows.',
  });

  // The help center: collections and articles, published in English and French.
  for (const c of COLLECTIONS) {
    const collection = await createHelpCollection(staff, mode.id, {
      slug: c.slug,
      texts: [
        { language: 'en', ...c.en },
        { language: 'fr', ...c.fr },
      ],
    });
    for (const a of c.articles) {
      const article = await createHelpArticle(staff, mode.id, { slug: a.slug, collectionId: collection.id });
      for (const language of ['en', 'fr'] as const) {
        await saveHelpDraft(staff, article.id, language, a[language]);
        await publishHelpArticle(staff, article.id, language);
      }
    }
  }

  // A live in-app banner.
  const banner = await createMessage(staff, mode.id, 'banner', {
    name: 'Welcome banner',
    content: { blocks: [para('Welcome to the demo app: the help center has answers in English and French.')] },
  });
  await setMessageState(staff, banner.id, 'live');
}
