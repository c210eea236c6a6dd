import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import { readSession } from '../api/session';
import { actionCommands } from '../commands';
import {
  AssignConversationDocument,
  CloseConversationDocument,
  ConversationDocument,
  SnoozeConversationDocument,
  type ConversationRowFragment,
  type PartFragment,
} from '../generated/graphql';
import { onInboxChange } from '../inbox-events';
import { plainKey } from '../keys';
import { markRead } from '../read-marks';
import { SNOOZES } from '../snoozes';
import { Chooser } from '../ui/chooser';
import { AssignChooser, type Assignment } from './assign-chooser';
import { Composer, type ComposerHandle } from './composer';
import { Parts } from './parts';
import { PersonPanel } from './person-panel';
import { PresenceLine, usePresence } from './presence';
import { ConversationTicket, makingTicket } from './tickets-make';

// One conversation: its parts (the latest page first, older pages as the reader scrolls up, newer
// parts live from the inbox's stream), who else
// has it open, the person beside it, and what a teammate does to it: reply, note, close (asking for
// a rating), snooze, assign.

const STATE_WORDS = { open: 'Open', snoozed: 'Snoozed', closed: 'Closed' } as const;
const ASK_RATING = 'crm.console.askRating';

export function ConversationView(props: { id: string; modeId: string; workspaceId: string; onGone(): void }) {
  const { id, onGone } = props;
  const [conversation, setConversation] = useState<ConversationRowFragment | undefined>();
  const [parts, setParts] = useState<PartFragment[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [choosing, setChoosing] = useState<'assign' | 'snooze' | undefined>();
  const [showPerson, setShowPerson] = useState(false);
  const [askRating, setAskRating] = useState(() => localStorage.getItem(ASK_RATING) !== 'no');
  const composer = useRef<ComposerHandle>(null);
  const paging = useRef(false);
  const presence = usePresence(id);

  const addParts = useCallback((more: PartFragment[]) => {
    setParts((old) => {
      const byId = new Map(old.map((p) => [p.id, p]));
      for (const p of more) byId.set(p.id, p);
      return [...byId.values()].sort((a, b) => a.seq - b.seq);
    });
  }, []);
  const known = useMemo(() => new Map(parts.map((p) => [p.id, p])), [parts]);

  const load = useCallback(
    async (after: string | null) => {
      if (paging.current) return;
      paging.current = true;
      try {
        const { conversation: c } = await request(ConversationDocument, { id, after });
        setConversation(c);
        addParts(c.latestParts.edges.map((e) => e.node));
        setNext(c.latestParts.pageInfo.hasNextPage ? (c.latestParts.pageInfo.endCursor ?? null) : null);
      } catch (err) {
        setError(messageOf(err));
      } finally {
        paging.current = false;
      }
    },
    [id, addParts],
  );

  useEffect(() => void load(null), [load]);

  // Live: what the inbox's stream says of this conversation (the pages read are the latest, so a
  // new part always follows them; one the first page brings too is kept once, by its id).
  useEffect(
    () =>
      onInboxChange((change) => {
        if (change.conversation?.id === id) setConversation(change.conversation);
        if (change.part?.conversationId === id) addParts([change.part]);
      }),
    [id, addParts],
  );

  // Read up to the newest part on screen (it opens at the end), while the tab is seen.
  const newestSeq = parts.at(-1)?.seq ?? 0;
  useEffect(() => {
    const seen = () => newestSeq > 0 && !document.hidden && markRead(id, newestSeq);
    seen();
    document.addEventListener('visibilitychange', seen);
    return () => document.removeEventListener('visibilitychange', seen);
  }, [id, newestSeq]);

  const act = async (work: () => Promise<ConversationRowFragment>) => {
    setError(undefined);
    try {
      setConversation(await work());
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const close = () => act(async () => (await request(CloseConversationDocument, { id, askRating })).closeConversation);
  const snooze = (choice: string) => {
    const until = (SNOOZES.find((s) => s.id === choice) ?? SNOOZES[0]!).until().toISOString();
    return act(async () => (await request(SnoozeConversationDocument, { id, until })).snoozeConversation);
  };
  const assign = (to: Assignment) => act(async () => (await request(AssignConversationDocument, { id, ...to })).assignConversation);
  const me = readSession()?.viewerId ?? null;

  // Keys and the command menu's entries for this conversation.
  const actions = useRef({ close, snooze, assign });
  actions.current = { close, snooze, assign };
  useEffect(() => {
    actionCommands.set([
      { id: 'reply', label: 'Reply', key: 'R', run: () => composer.current?.focus('reply') },
      { id: 'note', label: 'Add an internal note', key: 'N', run: () => composer.current?.focus('note') },
      { id: 'close', label: 'Close the conversation', key: 'E', run: () => void actions.current.close() },
      { id: 'assign', label: 'Assign to a teammate or team', key: 'A', run: () => setChoosing('assign') },
      { id: 'snooze', label: 'Snooze…', key: 'S', run: () => setChoosing('snooze') },
      ...SNOOZES.map((s) => ({
        id: `snooze-${s.id}`,
        label: `Snooze ${s.label.toLowerCase()}`,
        run: () => void actions.current.snooze(s.id),
      })),
      { id: 'assign-me', label: 'Assign to me', run: () => void actions.current.assign({ assigneeId: me }) },
      { id: 'unassign', label: 'Unassign', run: () => void actions.current.assign({ assigneeId: null }) },
      { id: 'ticket', label: 'Make a ticket (or open its ticket)', key: 'T', run: () => makingTicket.set(true) },
      { id: 'back', label: 'Back to the list', key: 'Esc', run: onGone },
    ]);
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('.overlay')) return;
      if (plainKey(e, 'KeyR')) (e.preventDefault(), composer.current?.focus('reply'));
      else if (plainKey(e, 'KeyN')) (e.preventDefault(), composer.current?.focus('note'));
      else if (plainKey(e, 'KeyE')) (e.preventDefault(), void actions.current.close());
      else if (plainKey(e, 'KeyA')) (e.preventDefault(), setChoosing('assign'));
      else if (plainKey(e, 'KeyS')) (e.preventDefault(), setChoosing('snooze'));
      else if (plainKey(e, 'KeyT')) (e.preventDefault(), makingTicket.set(true));
    };
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      actionCommands.set([]);
    };
  }, [id]);

  if (!conversation)
    return (
      <section class="conversation-pane" aria-label="Conversation">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </section>
    );

  const who = conversation.contact.displayName || conversation.contact.email || conversation.contact.externalId;
  const authorName = (p: PartFragment) => (p.author.kind === 'contact' ? who : p.author.name);
  const assigned = [conversation.assignee?.name, conversation.team?.name].filter(Boolean).join(', ');
  return (
    <>
      <section class="conversation-pane" aria-labelledby="conversation-title">
        <header class="conversation-head">
          <div>
            <button type="button" class="back quiet" onClick={onGone}>
              Back to the list
            </button>
            <h2 id="conversation-title">{who}</h2>
            <p class="meta">
              <span class={`state state-${conversation.state}`}>{STATE_WORDS[conversation.state]}</span>
              {assigned ? ` · Assigned to ${assigned}` : ' · Unassigned'}
              {conversation.contact.email && conversation.contact.email !== who ? ` · ${conversation.contact.email}` : ''}
            </p>
            <PresenceLine others={presence.others} />
          </div>
          <div class="actions" role="group" aria-label="Conversation actions">
            {conversation.state !== 'closed' && (
              <>
                <label class="ask-rating">
                  <input
                    type="checkbox"
                    checked={askRating}
                    onChange={(e) => {
                      setAskRating(e.currentTarget.checked);
                      localStorage.setItem(ASK_RATING, e.currentTarget.checked ? 'yes' : 'no');
                    }}
                  />
                  Ask for a rating
                </label>
                <button type="button" onClick={() => void close()} aria-keyshortcuts="E">
                  Close
                </button>
              </>
            )}
            <button type="button" onClick={() => setChoosing('snooze')} aria-keyshortcuts="S">
              Snooze…
            </button>
            {conversation.assignee?.id !== me && (
              <button type="button" onClick={() => void assign({ assigneeId: me })}>
                Assign to me
              </button>
            )}
            <button type="button" onClick={() => setChoosing('assign')} aria-keyshortcuts="A">
              Assign…
            </button>
            <ConversationTicket conversationId={id} modeId={props.modeId} />
            <button
              type="button"
              class="person-toggle"
              aria-expanded={showPerson}
              aria-controls="person-panel"
              onClick={() => setShowPerson(!showPerson)}
            >
              About the person
            </button>
          </div>
        </header>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <Parts parts={parts} older={next !== null} onOlder={() => next && void load(next)} authorName={authorName} />
        <Composer
          ref={composer}
          conversationId={id}
          lastShownSeq={parts.at(-1)?.seq ?? 0}
          known={known}
          authorName={authorName}
          onSent={(p) => addParts([p])}
          onTyping={presence.setTyping}
        />
      </section>
      <PersonPanel conversationId={id} open={showPerson} onClose={() => setShowPerson(false)} />
      {choosing === 'assign' && (
        <AssignChooser
          workspaceId={props.workspaceId}
          hasTeam={!!conversation.team}
          onAssign={(to) => void assign(to)}
          onClose={() => setChoosing(undefined)}
        />
      )}
      {choosing === 'snooze' && (
        <Chooser title="Snooze" choices={SNOOZES} onChoose={(c) => void snooze(c.id)} onClose={() => setChoosing(undefined)} />
      )}
    </>
  );
}
