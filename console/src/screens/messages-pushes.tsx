import { useCallback, useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import { PushSendsDocument, SendPushToDocument, type PushSendRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { Confirm } from '../ui/confirm';
import { when } from '../ui/time';
import { FieldError, FormProblem, invalid, problemOf, type Problem } from './settings-common';
import { attributesWords, useAudienceChoices } from './messages-push-audience';
import { audienceInput, FIRST_AUDIENCE, SendAudiencePicker, type AudienceChoice } from './send-audience';

// Pushes: the app-mode's sends, the latest first (30, "Show more" reads on), each with its state
// and counts, read again every 2 s while one is sending; "Send a push" to one person (by user id),
// the people whose attributes hold every condition, or everyone (asked first), with a title, body,
// a link it opens and a topic. A refusal is said in the service's words, beside the field it names.

const PAGE = 30;
const STATES = { sending: 'Sending', done: 'Done', stopped: 'Stopped' } as Record<string, string>;

function audienceWords(a: unknown): string {
  const x = (a ?? {}) as { everyone?: boolean; externalId?: string; erased?: boolean; attributes?: unknown };
  if (x.everyone) return 'Everyone';
  if (x.externalId) return `User ${x.externalId}`;
  if (x.erased) return 'An erased person';
  if (x.attributes && typeof x.attributes === 'object') return `People with ${attributesWords(x.attributes as Record<string, unknown>)}`;
  return 'People by attributes';
}

export function Pushes({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const [rows, setRows] = useState<PushSendRowFragment[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();

  const load = useCallback(
    async (after: string | null) => {
      try {
        const { pushSends } = await request(PushSendsDocument, { appModeId: modeId, after, first: PAGE });
        const page = pushSends.edges.map((e) => e.node);
        setRows((old) => (after ? [...(old ?? []), ...page] : page));
        setNext(pushSends.pageInfo.hasNextPage ? (pushSends.pageInfo.endCursor ?? null) : null);
        setError(undefined);
      } catch (err) {
        setError(messageOf(err));
      }
    },
    [modeId],
  );
  useEffect(() => void load(null), [load]);

  // While a send is going out, its counts are read again every 2 s.
  const sending = rows?.some((r) => r.state === 'sending');
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void load(null), 2000);
    return () => clearInterval(timer);
  }, [sending, load]);

  return (
    <main class="pushes" id="main">
      <h1>Pushes</h1>
      <SendPush modeId={modeId} onSent={(p) => setRows((old) => [p, ...(old ?? [])])} />
      <h2>Sent</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!rows ? (
        <p class="quiet-text">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="quiet-text">No pushes yet.</p>
      ) : (
        <table class="push-rows">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">To</th>
              <th scope="col">State</th>
              <th scope="col">People</th>
              <th scope="col">Devices</th>
              <th scope="col">Sent</th>
              <th scope="col">Failed</th>
              <th scope="col">Skipped</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>{p.title}</td>
                <td>{audienceWords(p.audience)}</td>
                <td>
                  {STATES[p.state] ?? p.state}
                  {p.stopReason ? `: ${p.stopReason}` : ''}
                </td>
                <td>{p.people}</td>
                <td>{p.devices}</td>
                <td>{p.sent}</td>
                <td>{p.failed}</td>
                <td>{p.skipped}</td>
                <td>
                  <time dateTime={p.createdAt}>{when(p.createdAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button type="button" class="quiet" onClick={() => void load(next)}>
          Show more
        </button>
      )}
    </main>
  );
}

function SendPush({ modeId, onSent }: { modeId: string; onSent(p: PushSendRowFragment): void }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [audience, setAudience] = useState<AudienceChoice>(FIRST_AUDIENCE);
  const [link, setLink] = useState('');
  const [topic, setTopic] = useState('');
  const choices = useAudienceChoices(modeId);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    if (audience.to === 'everyone') setAsking(true);
    else void send();
  };
  const send = async () => {
    setAsking(false);
    setBusy(true);
    try {
      const { sendPush } = await request(SendPushToDocument, {
        appModeId: modeId,
        title,
        body: body || null,
        link: link.trim() || null,
        topic: topic || null,
        audience: audienceInput(audience, choices),
      });
      setProblem(undefined);
      setSaid('Push sent: it goes out in batches.');
      setTitle('');
      setBody('');
      setLink('');
      onSent(sendPush);
    } catch (err) {
      setSaid(undefined);
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="send-push" aria-labelledby="send-push-title" onSubmit={submit}>
      <h2 id="send-push-title">Send a push</h2>
      <FormProblem problem={problem} fields={['title', 'body', 'link', 'topic', 'audience']} />
      <label>
        Title
        <input
          required
          maxLength={200}
          value={title}
          onInput={(e) => setTitle(e.currentTarget.value)}
          {...invalid(problem, 'title', 'push-title')}
        />
      </label>
      <FieldError problem={problem} field="title" id="push-title" />
      <label>
        Body
        <textarea
          rows={3}
          maxLength={2000}
          value={body}
          onInput={(e) => setBody(e.currentTarget.value)}
          {...invalid(problem, 'body', 'push-body')}
        />
      </label>
      <FieldError problem={problem} field="body" id="push-body" />
      <label>
        Link it opens (optional: a path in the app, /orders/12, or an https address)
        <input value={link} onInput={(e) => setLink(e.currentTarget.value)} {...invalid(problem, 'link', 'push-link')} />
      </label>
      <FieldError problem={problem} field="link" id="push-link" />
      <label>
        Topic (optional: people who turned it off by push get nothing)
        <select value={topic} onChange={(e) => setTopic(e.currentTarget.value)} {...invalid(problem, 'topic', 'push-topic')}>
          <option value="">None</option>
          {choices?.topics.map((t) => (
            <option key={t.key} value={t.key}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <FieldError problem={problem} field="topic" id="push-topic" />
      <SendAudiencePicker name="push-to" value={audience} choices={choices} problem={problem} onChange={setAudience} />
      <button type="submit" disabled={busy}>
        Send the push
      </button>
      {said && <p role="status">{said}</p>}
      {asking && (
        <Confirm title="Send to everyone?" action="Send to everyone" onCancel={() => setAsking(false)} onConfirm={send}>
          <p>Every person of this app with a device gets this push.</p>
        </Confirm>
      )}
    </form>
  );
}
