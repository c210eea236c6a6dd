import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request } from '../api/request';
import { readSession } from '../api/session';
import { useStore } from '../api/store';
import { ConversationsDocument, InboxChangedDocument, InboxTeamsDocument, type ConversationRowFragment } from '../generated/graphql';
import { filterArgs, filterOf, filterValue, inboxFilter, setInboxFilter, shows } from '../inbox-filter';
import { tellInboxChange } from '../inbox-events';
import { plainKey } from '../keys';
import { appModeId, type Place } from '../place';
import { learnReadMarks } from '../read-marks';
import { inboxPath, navigate, type InboxState } from '../router';
import { ConversationView } from './conversation';
import { ConversationList } from './conversation-list';
import { withChange, withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';

// The inbox: an app-mode's conversations in one state, everyone's or those of the member, of nobody
// or of a team, the latest activity first, paged as the list is scrolled, kept live by
// inboxChanged (resuming from the last version seen), beside the open conversation.

const PAGE = 30;
const TITLES = { open: 'Open conversations', snoozed: 'Snoozed conversations', closed: 'Closed conversations' } as const;

const newestFirst = (a: ConversationRowFragment, b: ConversationRowFragment) =>
  b.lastActivityAt.localeCompare(a.lastActivityAt) || b.id.localeCompare(a.id);

export function Inbox({ place, state, conversationId }: { place: Place; state: InboxState; conversationId?: string | undefined }) {
  const modeId = appModeId(place);
  const version = useRef<string | null>(null);
  const filter = useStore(inboxFilter);
  const me = readSession()?.viewerId ?? null;
  const [teams, setTeams] = useState<{ id: string; name: string }[]>([]);

  useEffect(() => {
    request(InboxTeamsDocument, { workspaceId: place.workspaceId })
      .then(({ teams: found }) => setTeams(found.edges.map((e) => e.node)))
      .catch(() => setTeams([]));
  }, [place.workspaceId]);

  const { rows, setRows, next, loading, error, reload, more, readings } = usePagedList<ConversationRowFragment>({
    read: async (after) => {
      const args = { appModeId: modeId, state, ...filterArgs(filter, me), after, first: PAGE };
      const page = pageOf((await request(ConversationsDocument, args)).conversations);
      learnReadMarks(page.rows.map((c) => c.id));
      return page;
    },
    merge: (old, page, isMore) => withPage(old, page, isMore, newestFirst),
    by: [modeId, state, filter, me],
    clear: true,
  });

  // Live: a conversation in this state goes to its place, one that left it goes away.
  useEffect(() => {
    version.current = null;
    return live(
      InboxChangedDocument,
      () => ({ appModeId: modeId, after: version.current }),
      ({ inboxChanged: change }) => {
        version.current = change.version;
        // The first answer, or a resume point older than the service keeps: read the list again
        // (at the start too: what changed between the first page and the subscription is in it).
        if (change.reload) return void reload();
        tellInboxChange(change);
        const c = change.conversation;
        if (!c) return;
        learnReadMarks([c.id]);
        setRows((old) => withChange(old, c, c.state === state && shows(filter, me, c), newestFirst));
      },
    );
  }, [modeId, state, reload, filter, me]);

  const open = (id: string) => navigate(inboxPath(state, id));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (plainKey(e, 'Escape') && conversationId) navigate(inboxPath(state));
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [state, conversationId]);

  return (
    <main class="inbox" id="main">
      <section class="list-pane" aria-labelledby="inbox-title">
        <div class="list-head">
          <h1 id="inbox-title">{TITLES[state]}</h1>
          <label class="inbox-filter">
            <span class="visually-hidden">Whose conversations</span>
            <select value={filterValue(filter)} onChange={(e) => setInboxFilter(filterOf(e.currentTarget.value))}>
              <option value="all">Everyone's</option>
              <option value="mine">Mine</option>
              <option value="unassigned">Unassigned</option>
              {teams.map((team) => (
                <option key={team.id} value={`team:${team.id}`}>
                  Team {team.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <ConversationList
          rows={rows}
          selectedId={conversationId}
          onOpen={open}
          loading={loading}
          more={next !== null}
          onMore={more}
          readings={readings}
          emptyText={filter.kind === 'all' ? `No ${state} conversations.` : `No ${state} conversations of these.`}
        />
      </section>
      {conversationId ? (
        <ConversationView
          key={conversationId}
          id={conversationId}
          modeId={modeId}
          workspaceId={place.workspaceId}
          onGone={() => navigate(inboxPath(state))}
        />
      ) : (
        <section class="conversation-pane empty" aria-label="Conversation">
          <p>Choose a conversation: j and k move, Enter opens.</p>
        </section>
      )}
    </main>
  );
}
