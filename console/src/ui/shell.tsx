import { useEffect, useState } from 'preact/hooks';
import { connection } from '../api/live';
import { request, messageOf } from '../api/request';
import { readSession } from '../api/session';
import { useStore } from '../api/store';
import { signOut } from '../auth';
import { commandMenuOpen, screenCommands } from '../commands';
import { WorkspacesDocument } from '../generated/graphql';
import { setInboxFilter } from '../inbox-filter';
import { commandMenuKey } from '../keys';
import { choosePlace, place, setPlace, switchMode } from '../place';
import {
  BASE,
  CONTACTS_PATH,
  emailsPath,
  HELP_PATH,
  INBOX_STATES,
  inboxPath,
  messagesPath,
  navigate,
  PUSHES_PATH,
  TICKET_TYPES_PATH,
  ticketsPath,
  type Route,
  workflowsPath,
} from '../router';
import { ContactPage } from '../screens/contact-page';
import { Contacts } from '../screens/contacts';
import { Emails } from '../screens/emails-lazy';
import { HelpArticleEditor, HelpCenter } from '../screens/help-lazy';
import { Inbox } from '../screens/inbox';
import { Messages } from '../screens/messages-lazy';
import { Pushes } from '../screens/messages-pushes';
import { Tickets } from '../screens/tickets';
import { TicketTypes } from '../screens/tickets-types';
import { Workflows } from '../screens/workflows-lazy';
import { Settings, settingsCommands, SettingsNav } from '../screens/settings';
import { CommandMenu } from './command-menu';
import { Invitations } from './invitations';
import { Switcher } from './switcher';

// Every signed-in screen: the test-mode bar, the header (app switcher, mode, who, sign out), the
// navigation, the connection's state, the screen, and the command menu.

const STATE_NAMES = { open: 'Open', snoozed: 'Snoozed', closed: 'Closed' } as const;
/** Whose conversations the inbox shows, as the command menu offers them (a team's: in the inbox's own choice). */
const WHOSE = [
  ['mine', 'my'],
  ['unassigned', 'unassigned'],
  ['all', "everyone's"],
] as const;

export function Shell({ route }: { route: Exclude<Route, { screen: 'sign-in' }> }) {
  const here = useStore(place);
  const live = useStore(connection);
  const [problem, setProblem] = useState<string | undefined>();
  const session = readSession();

  useEffect(() => {
    request(WorkspacesDocument, {})
      .then(({ workspaces }) => {
        const chosen = choosePlace(workspaces.edges.map((e) => e.node));
        setPlace(chosen);
        if (!chosen) setProblem('You have no app yet: a workspace owner can make one.');
      })
      .catch((err) => setProblem(messageOf(err)));
  }, []);

  useEffect(() => {
    screenCommands.set([
      ...INBOX_STATES.map((s) => ({ id: `inbox-${s}`, label: `Go to ${STATE_NAMES[s]} conversations`, run: () => navigate(inboxPath(s)) })),
      ...WHOSE.map(([kind, words]) => ({
        id: `whose-${kind}`,
        label: `Show ${words} conversations`,
        run: () => (setInboxFilter({ kind }), !location.pathname.startsWith(`${BASE}/inbox`) && navigate(inboxPath('open'))),
      })),
      { id: 'contacts', label: 'Go to contacts', run: () => navigate(CONTACTS_PATH) },
      { id: 'help', label: 'Go to help center', run: () => navigate(HELP_PATH) },
      { id: 'messages', label: 'Go to messages', run: () => navigate(messagesPath()) },
      { id: 'pushes', label: 'Go to pushes', run: () => navigate(PUSHES_PATH) },
      { id: 'emails', label: 'Go to emails', run: () => navigate(emailsPath()) },
      { id: 'workflows', label: 'Go to workflows', run: () => navigate(workflowsPath()) },
      { id: 'tickets', label: 'Go to tickets', run: () => navigate(ticketsPath()) },
      { id: 'ticket-types', label: 'Go to ticket types', run: () => navigate(TICKET_TYPES_PATH) },
      ...settingsCommands(),
      { id: 'mode-live', label: 'Switch to live mode', run: () => switchMode('live') },
      { id: 'mode-test', label: 'Switch to test mode', run: () => switchMode('test') },
      { id: 'sign-out', label: 'Sign out', run: () => void signOut() },
    ]);
    const onKey = (e: KeyboardEvent) => {
      if (!commandMenuKey(e)) return;
      e.preventDefault();
      commandMenuOpen.set(!commandMenuOpen.get());
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  const testMode = here?.mode === 'test';
  return (
    <div class={`shell${testMode ? ' is-test' : ''}`}>
      {testMode && (
        <div class="test-bar" role="note" aria-label="Test mode">
          <strong>Test mode</strong>: you see and change this app's test data; live users see none of it.
        </div>
      )}
      <header class="top">
        <a class="brand" href="/console/inbox/open" onClick={(e) => (e.preventDefault(), navigate(inboxPath('open')))}>
          Staff console
        </a>
        <Switcher />
        <div class="who">
          <span>{session?.name}</span>
          <button type="button" class="quiet" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav class="side" aria-label="Screens">
        <h2 class="side-title">Inbox</h2>
        <ul>
          {INBOX_STATES.map((s) => {
            const current = route.screen === 'inbox' && route.state === s;
            return (
              <li key={s}>
                <a
                  href={inboxPath(s)}
                  aria-current={current ? 'page' : undefined}
                  onClick={(e) => (e.preventDefault(), navigate(inboxPath(s)))}
                >
                  {STATE_NAMES[s]}
                </a>
              </li>
            );
          })}
        </ul>
        <h2 class="side-title">People</h2>
        <ul>
          <li>
            <a
              href={CONTACTS_PATH}
              aria-current={route.screen === 'contacts' || route.screen === 'contact' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(CONTACTS_PATH))}
            >
              Contacts
            </a>
          </li>
        </ul>
        <h2 class="side-title">Content</h2>
        <ul>
          <li>
            <a
              href={HELP_PATH}
              aria-current={route.screen === 'help' || route.screen === 'help-article' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(HELP_PATH))}
            >
              Help center
            </a>
          </li>
          <li>
            <a
              href={messagesPath()}
              aria-current={route.screen === 'messages' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(messagesPath()))}
            >
              Messages
            </a>
          </li>
          <li>
            <a
              href={PUSHES_PATH}
              aria-current={route.screen === 'pushes' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(PUSHES_PATH))}
            >
              Pushes
            </a>
          </li>
          <li>
            <a
              href={emailsPath()}
              aria-current={route.screen === 'emails' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(emailsPath()))}
            >
              Emails
            </a>
          </li>
        </ul>
        <h2 class="side-title">Automation</h2>
        <ul>
          <li>
            <a
              href={workflowsPath()}
              aria-current={route.screen === 'workflows' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(workflowsPath()))}
            >
              Workflows
            </a>
          </li>
        </ul>
        <h2 class="side-title">Support</h2>
        <ul>
          <li>
            <a
              href={ticketsPath()}
              aria-current={route.screen === 'tickets' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(ticketsPath()))}
            >
              Tickets
            </a>
          </li>
          <li>
            <a
              href={TICKET_TYPES_PATH}
              aria-current={route.screen === 'ticket-types' ? 'page' : undefined}
              onClick={(e) => (e.preventDefault(), navigate(TICKET_TYPES_PATH))}
            >
              Ticket types
            </a>
          </li>
        </ul>
        <SettingsNav route={route} />
        <p class="hint">
          <kbd>Ctrl</kbd>+<kbd>K</kbd> for every command
        </p>
      </nav>
      <div class="body">
        {live === 'lost' && (
          <p class="connection-lost" role="status">
            Connection lost: reconnecting. New messages will show once it is back.
          </p>
        )}
        <Invitations />
        {problem && !here && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        {route.screen === 'not-found' ? (
          <main class="empty" id="main">
            <h1>Nothing here</h1>
            <p>
              This address is not a screen of the console. <a href={inboxPath('open')}>Go to the inbox</a>.
            </p>
          </main>
        ) : here && route.screen === 'contacts' ? (
          <Contacts key={`${here.app.id}-${here.mode}`} place={here} />
        ) : here && route.screen === 'contact' ? (
          <ContactPage key={`${here.app.id}-${here.mode}-${route.id}`} place={here} id={route.id} />
        ) : here && route.screen === 'help' ? (
          <HelpCenter key={`${here.app.id}-${here.mode}`} place={here} collectionId={route.collectionId} />
        ) : here && route.screen === 'help-article' ? (
          <HelpArticleEditor key={`${here.app.id}-${here.mode}-${route.id}`} place={here} id={route.id} language={route.language} />
        ) : here && route.screen === 'tickets' ? (
          <Tickets key={`${here.app.id}-${here.mode}`} place={here} state={route.state} ticketId={route.ticketId} />
        ) : here && route.screen === 'messages' ? (
          <Messages key={`${here.app.id}-${here.mode}`} place={here} messageId={route.messageId} results={route.results} />
        ) : here && route.screen === 'pushes' ? (
          <Pushes key={`${here.app.id}-${here.mode}`} place={here} />
        ) : here && route.screen === 'emails' ? (
          <Emails key={`${here.app.id}-${here.mode}`} place={here} emailId={route.emailId} />
        ) : here && route.screen === 'workflows' ? (
          <Workflows key={`${here.app.id}-${here.mode}`} place={here} workflowId={route.workflowId} />
        ) : here && route.screen === 'ticket-types' ? (
          <TicketTypes key={`${here.app.id}-${here.mode}`} place={here} />
        ) : here && route.screen === 'settings' ? (
          <Settings key={`${here.app.id}-${here.mode}-${route.page}`} place={here} page={route.page} />
        ) : here && route.screen === 'inbox' ? (
          <Inbox key={`${here.app.id}-${here.mode}`} place={here} state={route.state} conversationId={route.conversationId} />
        ) : (
          <main class="empty" id="main">
            <p>Loading…</p>
          </main>
        )}
      </div>
      <CommandMenu />
    </div>
  );
}
