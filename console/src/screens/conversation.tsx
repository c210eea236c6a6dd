import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
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
import { Composer, type ComposerHandle } from './composer';
import { Parts } from './parts';

// One conversation: its parts (paged by `parts`, newer ones live from the inbox's stream), and what
// a teammate does to it: reply, note, close, snooze, assign.

const SNOOZES = [
  { id: 'hour', label: 'For an hour', until: () => new Date(Date.now() + 3600_000) },
  {
    id: 'tomorrow',
    label: 'Until tomorrow 9:00',
    until: () => {
      const d = new Date();
      d.setDate(d.getDate() + 1);
      d.setHours(9, 0, 0, 0);
      return d;
    },
  },
  { id: 'week', label: 'For a week', until: () => new Date(Date.now() + 7 * 86400_000) },
];

const STATE_WORDS = { open: 'Open', snoozed: 'Snoozed', closed: 'Closed' } as const;

export function ConversationView({ id, modeId, onGone }: { id: string; modeId: string; onGone(): void }) {
  const [conversation, setConversation] = useState<ConversationRowFragment | undefined>();
  const [parts, setParts] = useState<PartFragment[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [snoozeChoice, setSnoozeChoice] = useState('hour');
  const composer = useRef<ComposerHandle>(null);
  const paging = useRef(false);

  const addParts = useCallback((more: PartFragment[]) => {
    setParts((old) => {
      const byId = new Map(old.map((p) => [p.id, p]));
      for (const p of more) byId.set(p.id, p);
      return [...byId.values()].sort((a, b) => a.seq - b.seq);
    });
  }, []);

  const load = useCallback(
    async (after: string | null) => {
      if (paging.current) return;
      paging.current = true;
      try {
        const { conversation: c } = await request(ConversationDocument, { id, after });
        setConversation(c);
        addParts(c.parts.edges.map((e) => e.node));
        setNext(c.parts.pageInfo.hasNextPage ? (c.parts.pageInfo.endCursor ?? null) : null);
      } catch (err) {
        setError(err instanceof Refusal ? err.message : String(err));
      } finally {
        paging.current = false;
      }
    },
    [id, addParts],
  );

  useEffect(() => void load(null), [load]);

  // Live: what the inbox's stream says of this conversation. A part past the pages not read yet
  // comes with them instead.
  const nextRef = useRef(next);
  nextRef.current = next;
  useEffect(
    () =>
      onInboxChange((change) => {
        if (change.conversation?.id === id) setConversation(change.conversation);
        if (change.part?.conversationId === id && nextRef.current === null) addParts([change.part]);
      }),
    [id, addParts],
  );

  const act = async (work: () => Promise<ConversationRowFragment>) => {
    setError(undefined);
    try {
      setConversation(await work());
    } catch (err) {
      setError(err instanceof Refusal ? err.message : String(err));
    }
  };
  const close = () => act(async () => (await request(CloseConversationDocument, { id })).closeConversation);
  const snooze = (choice = snoozeChoice) => {
    const until = (SNOOZES.find((s) => s.id === choice) ?? SNOOZES[0]!).until().toISOString();
    return act(async () => (await request(SnoozeConversationDocument, { id, until })).snoozeConversation);
  };
  const assign = (assigneeId: string | null) =>
    act(async () => (await request(AssignConversationDocument, { id, assigneeId })).assignConversation);
  const me = readSession()?.viewerId ?? null;

  // Keys and the command menu's entries for this conversation.
  const actions = useRef({ close, snooze, assign });
  actions.current = { close, snooze, assign };
  useEffect(() => {
    actionCommands.set([
      { id: 'reply', label: 'Reply', key: 'R', run: () => composer.current?.focus('reply') },
      { id: 'note', label: 'Add an internal note', key: 'N', run: () => composer.current?.focus('note') },
      { id: 'close', label: 'Close the conversation', key: 'E', run: () => void actions.current.close() },
      ...SNOOZES.map((s) => ({
        id: `snooze-${s.id}`,
        label: `Snooze ${s.label.toLowerCase()}`,
        run: () => void actions.current.snooze(s.id),
      })),
      { id: 'assign-me', label: 'Assign to me', run: () => void actions.current.assign(me) },
      { id: 'unassign', label: 'Unassign', run: () => void actions.current.assign(null) },
      { id: 'back', label: 'Back to the list', key: 'Esc', run: onGone },
    ]);
    const onKey = (e: KeyboardEvent) => {
      if (plainKey(e, 'KeyR')) (e.preventDefault(), composer.current?.focus('reply'));
      else if (plainKey(e, 'KeyN')) (e.preventDefault(), composer.current?.focus('note'));
      else if (plainKey(e, 'KeyE')) (e.preventDefault(), void actions.current.close());
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
  return (
    <section class="conversation-pane" aria-labelledby="conversation-title">
      <header class="conversation-head">
        <div>
          <button type="button" class="back quiet" onClick={onGone}>
            Back to the list
          </button>
          <h2 id="conversation-title">{who}</h2>
          <p class="meta">
            <span class={`state state-${conversation.state}`}>{STATE_WORDS[conversation.state]}</span>
            {conversation.assignee ? ` · Assigned to ${conversation.assignee.name}` : ' · Unassigned'}
            {conversation.contact.email && conversation.contact.email !== who ? ` · ${conversation.contact.email}` : ''}
          </p>
        </div>
        <div class="actions" role="group" aria-label="Conversation actions">
          {conversation.state !== 'closed' && (
            <button type="button" onClick={() => void close()} aria-keyshortcuts="E">
              Close
            </button>
          )}
          <label for="snooze-choice" class="visually-hidden">
            Snooze for
          </label>
          <select id="snooze-choice" value={snoozeChoice} onChange={(e) => setSnoozeChoice(e.currentTarget.value)}>
            {SNOOZES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => void snooze()}>
            Snooze
          </button>
          {conversation.assignee?.id === me ? (
            <button type="button" onClick={() => void assign(null)}>
              Unassign
            </button>
          ) : (
            <button type="button" onClick={() => void assign(me)}>
              Assign to me
            </button>
          )}
        </div>
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Parts parts={parts} more={next !== null} onMore={() => next && void load(next)} />
      <Composer ref={composer} conversationId={id} modeId={modeId} onSent={(p) => addParts([p])} />
    </section>
  );
}
