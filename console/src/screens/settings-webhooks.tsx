import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request } from '../api/request';
import {
  AddWebhookEndpointDocument,
  ChangeWebhookEndpointDocument,
  RemoveWebhookEndpointDocument,
  RenewWebhookSecretDocument,
  SendWebhookTestDocument,
  SwitchWebhookEndpointDocument,
  WebhookEndpointsDocument,
  WebhookTriesDocument,
  type WebhookEndpointRowFragment,
  type WebhookTryRowFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { fullTime } from '../ui/time';
import {
  FieldError,
  FormProblem,
  invalid,
  OnceSecret,
  problemOf,
  Reason,
  refusedFor,
  SettingsPage,
  useRead,
  usePageActions,
  useRole,
  type Problem,
} from './settings-common';
import { Confirm } from '../ui/confirm';
import { RENEW_WORKFLOW_SECRET, WorkflowSecret } from './settings-workflow-secret';

// Webhook endpoints of the mode the console is in: their topics, on or off, changed, removed, a
// new signing secret (shown once), "Send test", and each one's delivery log (its last 50 tries:
// time, topic, result, response code, duration), kept live by the webhookTries subscription, so a
// try logged by any server process shows within a second.

const MAX_ENDPOINTS = 20;
const LOG = 50;
const seconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
type Topic = { name: string; emitted: boolean };

export function SettingsWebhooks({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
  usePageActions([
    { id: 'add-endpoint', label: 'Add a webhook endpoint', press: 'add-endpoint' },
    { id: RENEW_WORKFLOW_SECRET, label: 'Renew the workflow webhook secret', press: RENEW_WORKFLOW_SECRET },
  ]);
  const { data, setData, problem } = useRead(() => request(WebhookEndpointsDocument, { appModeId: modeId }), [modeId]);
  const [secret, setSecret] = useState<{ label: string; secret: string } | undefined>();
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string | undefined>();
  const endpoints = data?.webhookEndpoints.edges.map((e) => e.node) ?? [];
  const put = (endpoint: WebhookEndpointRowFragment) =>
    data &&
    setData({
      ...data,
      webhookEndpoints: {
        edges: endpoints.some((e) => e.id === endpoint.id)
          ? data.webhookEndpoints.edges.map((e) => (e.node.id === endpoint.id ? { node: endpoint } : e))
          : [...data.webhookEndpoints.edges, { node: endpoint }],
      },
    });
  const drop = (id: string) =>
    data && setData({ ...data, webhookEndpoints: { edges: data.webhookEndpoints.edges.filter((e) => e.node.id !== id) } });

  return (
    <SettingsPage
      title="Webhooks"
      class="settings-webhooks"
      intro={`The service posts the topics each endpoint asks for to its https address, signed with its own secret (X-CRM-Signature). ${place.mode === 'test' ? 'Test' : 'Live'} mode's endpoints; at most ${MAX_ENDPOINTS} an app.`}
    >
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {secret && <OnceSecret label={secret.label} secret={secret.secret} onDone={() => setSecret(undefined)} />}
      <div class="form-actions">
        <button type="button" id="add-endpoint" disabled={!!refused || adding} onClick={() => setAdding(true)}>
          Add an endpoint
        </button>
        <Reason why={role && refused} />
      </div>
      {adding && data && (
        <EndpointForm
          title="New endpoint"
          topics={data.webhookTopics}
          onCancel={() => setAdding(false)}
          onSave={async (v) => {
            const { addWebhookEndpoint } = await request(AddWebhookEndpointDocument, { appModeId: modeId, ...v });
            put(addWebhookEndpoint.endpoint);
            setAdding(false);
            setOpen(addWebhookEndpoint.endpoint.id);
            setSecret({ label: `Signing secret of ${addWebhookEndpoint.endpoint.url}`, secret: addWebhookEndpoint.secret });
          }}
        />
      )}
      {!data ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : endpoints.length === 0 ? (
        <p class="quiet-text">No endpoint yet.</p>
      ) : (
        <ul class="endpoints" aria-label="Endpoints">
          {endpoints.map((e) => (
            <Endpoint
              key={e.id}
              endpoint={e}
              topics={data.webhookTopics}
              refused={refused}
              logOpen={open === e.id}
              onLog={() => setOpen(open === e.id ? undefined : e.id)}
              onChanged={put}
              onRemoved={() => drop(e.id)}
              onSecret={(s) => setSecret({ label: `New signing secret of ${e.url}`, secret: s })}
            />
          ))}
        </ul>
      )}
      <WorkflowSecret modeId={modeId} refused={refused} reason={role && refused} />
    </SettingsPage>
  );
}

function Endpoint(props: {
  endpoint: WebhookEndpointRowFragment;
  topics: Topic[];
  refused: string | undefined;
  logOpen: boolean;
  onLog(): void;
  onChanged(e: WebhookEndpointRowFragment): void;
  onRemoved(): void;
  onSecret(secret: string): void;
}) {
  const e = props.endpoint;
  const [changing, setChanging] = useState(false);
  const [asking, setAsking] = useState<'remove' | 'renew' | undefined>();
  const [said, setSaid] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const act = async (f: () => Promise<void>) => {
    try {
      await f();
      setProblem(undefined);
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  const titleId = `endpoint-${e.id}`;
  return (
    <li class="endpoint" aria-labelledby={titleId}>
      <div class="endpoint-head">
        <h2 id={titleId}>
          <code>{e.url}</code>
        </h2>
        <span class={`pill ${e.enabled ? 'on' : 'off'}`}>{e.enabled ? 'On' : e.switchedOffAt ? 'Switched off by the service' : 'Off'}</span>
      </div>
      {e.description && <p class="endpoint-description">{e.description}</p>}
      <p class="endpoint-topics">
        Topics: {e.topics.join(', ')} · Secret <code>{e.secretHint}</code>
        {e.failures > 0 && (
          <>
            {' '}
            · <strong>{e.failures} failed</strong>
            {e.failingSince && (
              <>
                {' '}
                since <time dateTime={e.failingSince}>{fullTime(e.failingSince)}</time>
              </>
            )}
          </>
        )}
      </p>
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      <div class="endpoint-actions" role="group" aria-label={`Actions on ${e.url}`}>
        <button
          type="button"
          class="quiet"
          disabled={!!props.refused}
          onClick={() =>
            act(async () => {
              const { sendWebhookTest } = await request(SendWebhookTestDocument, { id: e.id });
              setSaid(`Test sent: ${tryResult(sendWebhookTest)}.`);
            })
          }
        >
          Send test
        </button>
        <button type="button" class="quiet" aria-expanded={props.logOpen} aria-controls={`log-${e.id}`} onClick={props.onLog}>
          {props.logOpen ? 'Hide delivery log' : 'Delivery log'}
        </button>
        <button
          type="button"
          class="quiet"
          disabled={!!props.refused}
          onClick={() =>
            act(async () =>
              props.onChanged((await request(SwitchWebhookEndpointDocument, { id: e.id, on: !e.enabled })).switchWebhookEndpoint),
            )
          }
        >
          {e.enabled ? 'Switch off' : 'Switch on'}
        </button>
        <button type="button" class="quiet" disabled={!!props.refused || changing} onClick={() => setChanging(true)}>
          Change…
        </button>
        <button type="button" class="quiet" disabled={!!props.refused} onClick={() => setAsking('renew')}>
          New secret…
        </button>
        <button type="button" class="quiet danger-text" disabled={!!props.refused} onClick={() => setAsking('remove')}>
          Remove…
        </button>
        <span role="status" class="said">
          {said}
        </span>
      </div>
      {changing && (
        <EndpointForm
          title={`Change ${e.url}`}
          topics={props.topics}
          initial={e}
          onCancel={() => setChanging(false)}
          onSave={async (v) => {
            props.onChanged((await request(ChangeWebhookEndpointDocument, { id: e.id, input: v })).changeWebhookEndpoint);
            setChanging(false);
          }}
        />
      )}
      {props.logOpen && <DeliveryLog endpointId={e.id} />}
      {asking === 'remove' && (
        <Confirm
          title={`Remove ${e.url}?`}
          action="Remove"
          onCancel={() => setAsking(undefined)}
          onConfirm={async () => {
            await request(RemoveWebhookEndpointDocument, { id: e.id });
            props.onRemoved();
          }}
        >
          <p>Nothing more is posted to it, and its delivery log goes with it.</p>
        </Confirm>
      )}
      {asking === 'renew' && (
        <Confirm
          title={`A new secret for ${e.url}?`}
          action="Make a new secret"
          onCancel={() => setAsking(undefined)}
          onConfirm={async () => {
            const { renewWebhookSecret } = await request(RenewWebhookSecretDocument, { id: e.id });
            setAsking(undefined);
            props.onChanged(renewWebhookSecret.endpoint);
            props.onSecret(renewWebhookSecret.secret);
          }}
        >
          <p>The old secret signs nothing from now on: the receiver must check posts with the new one at once.</p>
        </Confirm>
      )}
    </li>
  );
}

const tryResult = (t: WebhookTryRowFragment) =>
  `${t.delivered ? 'delivered' : 'failed'}${t.statusCode ? `, answered ${t.statusCode}` : ''}${t.failure ? ` (${t.failure})` : ''} in ${t.durationMs} ms`;

/** The endpoint's last tries, newest first: the log as read, then each try as it is logged. */
function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [tries, setTries] = useState<WebhookTryRowFragment[] | undefined>();
  const version = useRef<string | null>(null);
  useEffect(
    () =>
      live(
        WebhookTriesDocument,
        () => ({ endpointId, after: version.current }),
        ({ webhookTries: change }) => {
          version.current = change.version;
          if (change.reload) setTries(change.log?.edges.map((e) => e.node) ?? []);
          else if (change.try) {
            const t = change.try;
            setTries((old) => [t, ...(old ?? []).filter((o) => o.id !== t.id)].slice(0, LOG));
          }
        },
      ),
    [endpointId],
  );
  return (
    <section class="delivery-log" id={`log-${endpointId}`} aria-label="Delivery log">
      <h3>Delivery log</h3>
      {!tries ? (
        <p class="quiet-text">Loading…</p>
      ) : tries.length === 0 ? (
        <p class="quiet-text">Nothing posted yet. “Send test” posts a ping now.</p>
      ) : (
        <table class="settings-table" aria-label="Tries, newest first">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Topic</th>
              <th scope="col">Result</th>
              <th scope="col">Response</th>
              <th scope="col">Took</th>
              <th scope="col">Try</th>
            </tr>
          </thead>
          <tbody>
            {tries.map((t) => (
              <tr key={t.id} class={t.delivered ? 'delivered' : 'failed'}>
                <td>
                  <time dateTime={t.at}>{seconds.format(new Date(t.at))}</time>
                </td>
                <td>{t.topic}</td>
                <td>{t.delivered ? 'Delivered' : `Failed${t.failure ? `: ${t.failure}` : ''}`}</td>
                <td>{t.statusCode ?? '—'}</td>
                <td>{t.durationMs} ms</td>
                <td>{t.attempt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

interface EndpointValues {
  url: string;
  description: string | null;
  topics: string[];
}

function EndpointForm(props: {
  title: string;
  topics: Topic[];
  initial?: WebhookEndpointRowFragment;
  onCancel(): void;
  onSave(v: EndpointValues): Promise<void>;
}) {
  const [url, setUrl] = useState(props.initial?.url ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [topics, setTopics] = useState<string[]>(props.initial?.topics ?? []);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const id = props.initial ? `change-${props.initial.id}` : 'new-endpoint';
  return (
    <form
      class="settings-form endpoint-form"
      aria-label={props.title}
      onKeyDown={(e) => e.code === 'Escape' && (e.preventDefault(), props.onCancel())}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await props.onSave({ url: url.trim(), description: description.trim() || null, topics });
        } catch (err) {
          setProblem(problemOf(err));
          setBusy(false);
        }
      }}
    >
      <h3>{props.title}</h3>
      <FormProblem problem={problem} fields={['url', 'topics', 'description']} />
      <div class="field">
        <label for={`${id}-url`}>Address</label>
        <input
          {...invalid(problem, 'url', `${id}-url`)}
          ref={first}
          type="url"
          placeholder="https://example.com/hooks/crm"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="url" id={`${id}-url`} />
      </div>
      <div class="field">
        <label for={`${id}-description`}>Description (for you)</label>
        <input
          {...invalid(problem, 'description', `${id}-description`)}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="description" id={`${id}-description`} />
      </div>
      <fieldset class="topics" aria-describedby={problem?.fields.topics ? `${id}-topics-error` : undefined}>
        <legend>Topics</legend>
        {props.topics.map((t) => (
          <label key={t.name} class="check-label">
            <input
              type="checkbox"
              checked={topics.includes(t.name)}
              onChange={(e) => setTopics(e.currentTarget.checked ? [...topics, t.name] : topics.filter((x) => x !== t.name))}
            />
            {t.name}
            {!t.emitted && <span class="quiet-note"> (not posted yet)</span>}
          </label>
        ))}
        <FieldError problem={problem} field="topics" id={`${id}-topics`} />
      </fieldset>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {props.initial ? 'Save endpoint' : 'Add endpoint'}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
