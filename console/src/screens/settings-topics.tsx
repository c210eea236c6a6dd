import { useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  AddPreferenceTopicDocument,
  ArchivePreferenceTopicDocument,
  ChangePreferenceTopicDocument,
  PreferenceTopicsDocument,
  type PreferenceChannel,
  type TopicRowFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { fullTime } from '../ui/time';
import {
  FieldError,
  FormProblem,
  invalid,
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

// Preference topics of the mode the console is in: what people choose to hear of, and by which
// channels. Added (the key is fixed for ever), changed, archived (shown to no one, its key never
// reused; people's choices kept).

const CHANNELS: [PreferenceChannel, string][] = [
  ['email', 'Email'],
  ['push', 'Push'],
  ['in_app', 'In-app'],
];
const CHANNEL_NAMES = Object.fromEntries(CHANNELS) as Record<PreferenceChannel, string>;

export function SettingsTopics({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
  usePageActions([{ id: 'add-topic', label: 'Add a topic', focus: 'topic-new-key' }]);
  const { data, problem, reload } = useRead(() => request(PreferenceTopicsDocument, { appModeId: modeId }), [modeId]);
  const [changing, setChanging] = useState<string | undefined>();
  const [archiving, setArchiving] = useState<TopicRowFragment | undefined>();
  const inUse = data?.inUse.edges.map((e) => e.node) ?? [];
  const archived = data?.archived.edges.map((e) => e.node) ?? [];
  return (
    <SettingsPage
      title="Topics"
      class="settings-topics"
      intro="What people choose to hear of in their preferences, and by which channels; messages and pushes are sent under a topic. At most 100 in use."
    >
      <Reason why={role && refused} />
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {role && (
        <TopicForm
          title="Add a topic"
          disabled={!!refused}
          onSave={async (v) => {
            await request(AddPreferenceTopicDocument, { appModeId: modeId, ...v });
            reload();
          }}
        />
      )}
      {!data ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : (
        <>
          <h2>In use</h2>
          {inUse.length === 0 ? (
            <p class="quiet-text">No topic yet.</p>
          ) : (
            <ul class="topic-list" aria-label="Topics in use">
              {inUse.map((t) => (
                <li key={t.id} class="topic">
                  <TopicFacts topic={t} />
                  <div class="endpoint-actions">
                    <button
                      type="button"
                      class="quiet"
                      disabled={!!refused}
                      onClick={() => setChanging(t.id)}
                      aria-label={`Change ${t.name}`}
                    >
                      Change…
                    </button>
                    <button
                      type="button"
                      class="quiet"
                      disabled={!!refused}
                      onClick={() => setArchiving(t)}
                      aria-label={`Archive ${t.name}`}
                    >
                      Archive…
                    </button>
                  </div>
                  {changing === t.id && (
                    <TopicForm
                      title={`Change ${t.name}`}
                      initial={t}
                      onCancel={() => setChanging(undefined)}
                      onSave={async ({ key: _key, ...input }) => {
                        await request(ChangePreferenceTopicDocument, { id: t.id, input });
                        setChanging(undefined);
                        reload();
                      }}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
          {archived.length > 0 && (
            <>
              <h2>Archived</h2>
              <ul class="topic-list archived" aria-label="Archived topics">
                {archived.map((t) => (
                  <li key={t.id} class="topic">
                    <TopicFacts topic={t} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {archiving && (
        <Confirm
          title={`Archive ${archiving.name}?`}
          action="Archive"
          onCancel={() => setArchiving(undefined)}
          onConfirm={async () => {
            await request(ArchivePreferenceTopicDocument, { id: archiving.id });
            setArchiving(undefined);
            reload();
          }}
        >
          <p>
            It is shown to no one and reaches no one from now on; its key ({archiving.key}) is never used again. People’s choices are kept.
          </p>
        </Confirm>
      )}
    </SettingsPage>
  );
}

function TopicFacts({ topic: t }: { topic: TopicRowFragment }) {
  return (
    <div class="topic-facts">
      <h3>
        {t.name} <code>{t.key}</code>
      </h3>
      {t.description && <p>{t.description}</p>}
      <p class="quiet-note">
        By {t.channels.map((c) => CHANNEL_NAMES[c]).join(', ')} · {t.subscribedByDefault ? 'on' : 'off'} until chosen
        {t.offers && ' · offers (needs consent)'}
        {t.archivedAt && (
          <>
            {' '}
            · archived <time dateTime={t.archivedAt}>{fullTime(t.archivedAt)}</time>
          </>
        )}
      </p>
    </div>
  );
}

interface TopicValues {
  key: string;
  name: string;
  description: string;
  channels: PreferenceChannel[];
  offers: boolean;
  subscribedByDefault: boolean;
}

function TopicForm(props: {
  title: string;
  initial?: TopicRowFragment;
  disabled?: boolean;
  onCancel?(): void;
  onSave(v: TopicValues): Promise<void>;
}) {
  const empty: TopicValues = { key: '', name: '', description: '', channels: ['email'], offers: false, subscribedByDefault: true };
  const i = props.initial;
  const [v, setV] = useState<TopicValues>(
    i
      ? {
          key: i.key,
          name: i.name,
          description: i.description,
          channels: i.channels,
          offers: i.offers,
          subscribedByDefault: i.subscribedByDefault,
        }
      : empty,
  );
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState('');
  const id = props.initial ? `topic-${props.initial.id}` : 'topic-new';
  return (
    <form
      class="settings-form"
      aria-label={props.title}
      onKeyDown={(e) => props.onCancel && e.code === 'Escape' && (e.preventDefault(), props.onCancel())}
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await props.onSave({ ...v, key: v.key.trim(), name: v.name.trim(), description: v.description.trim() });
          setProblem(undefined);
          if (!props.initial) {
            setSaid(`Topic ${v.name.trim()} added.`);
            setV(empty);
          }
        } catch (err) {
          setProblem(problemOf(err));
        }
      }}
    >
      <h2 class="form-title">{props.title}</h2>
      <FormProblem problem={problem} fields={['key', 'name', 'description', 'channels']} />
      <fieldset class="plain-fieldset" disabled={props.disabled}>
        <legend class="visually-hidden">{props.title}</legend>
        <div class="field-row">
          <div class="field">
            <label for={`${id}-key`}>Key</label>
            <input
              {...invalid(problem, 'key', `${id}-key`)}
              value={v.key}
              disabled={!!props.initial}
              aria-describedby={`${id}-key-hint`}
              onInput={(e) => setV({ ...v, key: e.currentTarget.value })}
            />
            <p class="field-hint" id={`${id}-key-hint`}>
              What senders name it by; fixed for ever.
            </p>
            <FieldError problem={problem} field="key" id={`${id}-key`} />
          </div>
          <div class="field">
            <label for={`${id}-name`}>Name</label>
            <input
              {...invalid(problem, 'name', `${id}-name`)}
              value={v.name}
              onInput={(e) => setV({ ...v, name: e.currentTarget.value })}
            />
            <FieldError problem={problem} field="name" id={`${id}-name`} />
          </div>
        </div>
        <div class="field">
          <label for={`${id}-description`}>Description (people see it)</label>
          <input
            {...invalid(problem, 'description', `${id}-description`)}
            value={v.description}
            onInput={(e) => setV({ ...v, description: e.currentTarget.value })}
          />
          <FieldError problem={problem} field="description" id={`${id}-description`} />
        </div>
        <fieldset class="channels">
          <legend>Channels</legend>
          {CHANNELS.map(([c, words]) => (
            <label key={c} class="check-label">
              <input
                type="checkbox"
                checked={v.channels.includes(c)}
                onChange={(e) => setV({ ...v, channels: e.currentTarget.checked ? [...v.channels, c] : v.channels.filter((x) => x !== c) })}
              />
              {words}
            </label>
          ))}
          <FieldError problem={problem} field="channels" id={`${id}-channels`} />
        </fieldset>
        <label class="check-label">
          <input
            type="checkbox"
            checked={v.subscribedByDefault}
            onChange={(e) => setV({ ...v, subscribedByDefault: e.currentTarget.checked })}
          />
          On for people who never chose
        </label>
        <label class="check-label">
          <input type="checkbox" checked={v.offers} onChange={(e) => setV({ ...v, offers: e.currentTarget.checked })} />
          Offers (by email or push it also needs the person’s consent to offers)
        </label>
        <div class="form-actions">
          <button type="submit">{props.initial ? 'Save topic' : 'Add topic'}</button>
          {props.onCancel && (
            <button type="button" class="quiet" onClick={props.onCancel}>
              Cancel
            </button>
          )}
          <span role="status">{said}</span>
        </div>
      </fieldset>
    </form>
  );
}
