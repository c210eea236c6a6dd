import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  ChangeEmailMessageDocument,
  CreateEmailMessageDocument,
  type EmailMessageInput,
  type EmailPageFragment,
} from '../generated/graphql';
import { when } from '../ui/time';
import { HelpBlocks } from './help-blocks';
import { emptyBlock, toBlocks, toEdit, type EditBlock } from './help-content';
import { Exact, FieldError, FormProblem, invalid, problemOf, Reason, type Problem } from './settings-common';

// Writing an email: its name, subject, preheader, body (the help center's block editor), topic (one
// that goes by email, or none: transactional mail, without unsubscribe), the sender's name and address
// and the reply-to. Saved whole (createEmailMessage, then changeEmailMessage) by Save or Ctrl/⌘-S; the
// service refuses naming each bad field, and its words are shown beside that field (a block's beside
// the body, by the block's number), the first field refused taking the focus.

interface Fields {
  name: string;
  subject: string;
  preheader: string;
  blocks: EditBlock[];
  topic: string;
  fromName: string;
  fromAddress: string;
  replyTo: string;
}

const fieldsOf = (m: EmailPageFragment | undefined): Fields => ({
  name: m?.name ?? '',
  subject: m?.subject ?? '',
  preheader: m?.preheader ?? '',
  blocks: m ? toEdit({ title: '', summary: '', blocks: m.blocks }).blocks : [emptyBlock('paragraph')],
  topic: m?.topic ?? '',
  fromName: m?.fromName ?? '',
  fromAddress: m?.fromAddress ?? '',
  replyTo: m?.replyTo ?? '',
});

/** What a save sends: empty optional fields cleared, an empty name left as it is (the subject's, when made). */
const inputOf = (f: Fields): EmailMessageInput => ({
  name: f.name.trim() || undefined,
  subject: f.subject,
  preheader: f.preheader,
  blocks: toBlocks(f.blocks),
  topic: f.topic || null,
  fromName: f.fromName.trim() || null,
  fromAddress: f.fromAddress.trim() || null,
  replyTo: f.replyTo.trim() || null,
});

const TEXT_FIELDS: { field: 'name' | 'subject' | 'preheader'; label: string; max: number }[] = [
  { field: 'subject', label: 'Subject', max: 300 },
  { field: 'preheader', label: 'Preheader (the preview text mail apps show after the subject; optional)', max: 300 },
  { field: 'name', label: 'Name (how your team finds it; the subject when left empty)', max: 200 },
];
const SENDER_FIELDS: { field: 'fromName' | 'fromAddress' | 'replyTo'; label: string; type: 'text' | 'email' }[] = [
  { field: 'fromName', label: 'Sender’s name (optional)', type: 'text' },
  { field: 'fromAddress', label: 'Sender’s address (optional: the service’s own when empty)', type: 'email' },
  { field: 'replyTo', label: 'Reply-to address (optional: replies go to the sender when empty)', type: 'email' },
];

export function EmailCompose(props: {
  m: EmailPageFragment | undefined;
  modeId: string;
  /** The app-mode's topics that go by email (undefined while read). */
  topics: { key: string; name: string }[] | undefined;
  /** Why the member may not save (their role), or undefined. */
  refused?: string | undefined;
  onSaved(m: EmailPageFragment): void;
  /** Told whether what is typed differs from what is saved (a test and a sending go as saved). */
  onUnsaved?(unsaved: boolean): void;
}) {
  const { m } = props;
  const [f, setF] = useState<Fields>(() => fieldsOf(m));
  const [problem, setProblem] = useState<Problem | undefined>();
  /** The keys of the blocks the last save sent, in order: a refusal's `blocks.2` is the block with the third. */
  const [sentKeys, setSentKeys] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [savedAt, setSavedAt] = useState<string | undefined>();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => void (!m && first.current?.focus()), []);

  /** What the service holds, as a save sends it: as read, then as each save that went through sent it. */
  const [saved, setSaved] = useState(() => (m ? JSON.stringify(inputOf(fieldsOf(m))) : undefined));
  const unsaved = JSON.stringify(inputOf(f)) !== saved;
  useEffect(() => props.onUnsaved?.(unsaved), [unsaved]);
  const set = (patch: Partial<Fields>) => setF((old) => ({ ...old, ...patch }));

  const save = async (e?: Event) => {
    e?.preventDefault();
    if (busy) return;
    setBusy(true);
    const input = inputOf(f);
    setSentKeys(f.blocks.filter((b) => toBlocks([b]).length > 0).map((b) => b.key));
    try {
      const done = m
        ? (await request(ChangeEmailMessageDocument, { id: m.id, input })).changeEmailMessage
        : (await request(CreateEmailMessageDocument, { appModeId: props.modeId, input })).createEmailMessage;
      setProblem(undefined);
      setSaved(JSON.stringify(input));
      setSavedAt(done.updatedAt);
      props.onSaved(done);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };

  /** The refusal's words for each block, by its number in the editor now. */
  const blockErrors = Object.entries(problem?.fields ?? {}).flatMap(([field, words]) => {
    const at = /^blocks\.(\d+)\b/.exec(field);
    if (!at) return [];
    const n = f.blocks.findIndex((b) => b.key === sentKeys[Number(at[1])]);
    return [`Block ${n >= 0 ? n + 1 : Number(at[1]) + 1}: ${words}`];
  });
  const topicKnown = !f.topic || props.topics?.some((t) => t.key === f.topic);

  return (
    <form
      class="email-compose"
      aria-label={m ? 'The email' : 'Write an email'}
      noValidate
      onSubmit={save}
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && !e.altKey && e.code === 'KeyS') (e.preventDefault(), void save());
      }}
    >
      <FormProblem problem={problem} fields={['name', 'subject', 'preheader', 'blocks', 'topic', 'fromName', 'fromAddress', 'replyTo']} />
      {TEXT_FIELDS.map(({ field, label, max }, i) => (
        <div class="email-field" key={field}>
          <label for={`email-${field}`}>{label}</label>
          <input
            ref={i === 0 ? first : undefined}
            {...invalid(problem, field, `email-${field}`)}
            value={f[field]}
            maxLength={max}
            onInput={(e) => set({ [field]: e.currentTarget.value })}
          />
          <FieldError problem={problem} field={field} id={`email-${field}`} />
        </div>
      ))}
      <HelpBlocks
        blocks={f.blocks}
        language="en"
        appModeId={props.modeId}
        prefix="email"
        title="Body"
        onChange={(blocks) => set({ blocks })}
      />
      <Exact problem={problem} field="blocks" />
      {blockErrors.length > 0 && (
        <ul class="field-error email-block-errors" aria-label="Refused in the body">
          {blockErrors.map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      )}
      <div class="email-field">
        <label for="email-topic">Topic</label>
        <select {...invalid(problem, 'topic', 'email-topic')} value={f.topic} onChange={(e) => set({ topic: e.currentTarget.value })}>
          <option value="">None: transactional mail (a receipt, a password reset), without an unsubscribe</option>
          {props.topics?.map((t) => (
            <option key={t.key} value={t.key}>
              {t.name}: people who left it by email get nothing
            </option>
          ))}
          {!topicKnown && <option value={f.topic}>{f.topic} (no longer goes by email)</option>}
        </select>
        <FieldError problem={problem} field="topic" id="email-topic" />
      </div>
      <fieldset class="email-sender">
        <legend>Sender</legend>
        {SENDER_FIELDS.map(({ field, label, type }) => (
          <div class="email-field" key={field}>
            <label for={`email-${field}`}>{label}</label>
            <input
              {...invalid(problem, field, `email-${field}`)}
              inputMode={type}
              value={f[field]}
              onInput={(e) => set({ [field]: e.currentTarget.value })}
            />
            <FieldError problem={problem} field={field} id={`email-${field}`} />
          </div>
        ))}
      </fieldset>
      <div class="actions">
        <button type="submit" disabled={busy || !!props.refused}>
          {m ? 'Save' : 'Save the email'}
        </button>
        <span role="status" class="quiet-text">
          {busy ? 'Saving…' : unsaved ? (m ? 'Changes not saved yet.' : '') : savedAt ? `Saved ${when(savedAt)}.` : 'Saved.'}
        </span>
      </div>
      <Reason why={props.refused} />
    </form>
  );
}
