import { useEffect, useRef, useState } from 'preact/hooks';
import type { Consent, Preferences } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { focusFirst } from './focus.js';
import { Head } from './head.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';

const CHANNELS = ['email', 'push', 'in_app'] as const;

/** A switch (a checkbox read as one), its label beside it and what it means under it. */
function Switch(props: {
  id: string;
  label: string;
  hint?: string;
  checked: boolean;
  change: (on: boolean, input: HTMLInputElement) => void;
}) {
  return (
    <div class="switch-row">
      <input
        type="checkbox"
        role="switch"
        id={props.id}
        checked={props.checked}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(e) => props.change(e.currentTarget.checked, e.currentTarget)}
      />
      <label for={props.id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

/**
 * The person's preferences: each topic the app tells people about, with a switch for each channel it goes by, their
 * consent to offers by push (and whether they agreed to offers by email), and everything off. Each change is saved as
 * it is made (one at a time, in order), with the words they saw kept as its proof; what was saved is said, and a
 * refusal puts the switch back and says why in the service's words.
 */
export function PreferencesScreen({ context, back }: { context: MessengerContext; back: () => void }) {
  const { client } = context;
  const [prefs, setPrefs] = useState<Preferences | undefined>();
  const [consent, setConsent] = useState<Consent | undefined>();
  const [failed, setFailed] = useState('');
  const [said, setSaid] = useState('');
  const saving = useRef<Promise<void>>(Promise.resolve());
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    Promise.all([client.preferences(), client.consent()]).then(
      ([p, c]) => {
        setPrefs(p);
        setConsent(c);
      },
      (error: unknown) => setFailed(refusal(error, words().preferencesUnreadable)),
    );
    focusFirst(body.current?.parentElement ?? null);
  }, []);

  /** Saves one change after those before it; `what` names the switch as the person read it. */
  const save = (what: string, on: boolean, input: HTMLInputElement, act: () => Promise<void>) => {
    setSaid('');
    saving.current = saving.current.then(async () => {
      try {
        await act();
        setFailed('');
        setSaid(words().saved(what, on));
      } catch (error) {
        input.checked = !on;
        setFailed(refusal(error, words().notSaved));
      }
    });
  };
  const choose = (what: string, on: boolean, input: HTMLInputElement, choice: Parameters<typeof client.choose>[0]) =>
    save(what, on, input, async () => setPrefs(await client.choose({ ...choice, wording: what })));

  return (
    <>
      <Head title={words().preferences} back={back} close={context.close} />
      <div class="body preferences" ref={body}>
        <p class="reply-time">{words().preferencesIntro}</p>
        {prefs && !prefs.topics.length && <p>{words().noTopics}</p>}
        {prefs?.topics.map((topic) => (
          <fieldset class="card topic" key={topic.topic}>
            <legend>{topic.name}</legend>
            {topic.description && <p class="hint">{topic.description}</p>}
            {topic.channels.map((c) => {
              const channel = word(c.channel, CHANNELS, 'unknown');
              if (channel === 'unknown') return null;
              const label = words().channels[channel];
              return (
                <Switch
                  key={channel}
                  id={`crm-topic-${topic.topic}-${channel}`}
                  label={label}
                  hint={c.subscribed && c.needs_consent ? words().needsConsent : undefined}
                  checked={c.subscribed}
                  change={(on, input) =>
                    choose(`${topic.name} (${label})`, on, input, { choices: [{ topic: topic.topic, channel, subscribed: on }] })
                  }
                />
              );
            })}
          </fieldset>
        ))}
        {consent && (
          <fieldset class="card topic">
            <legend>{words().offers}</legend>
            <Switch
              id="crm-offers-by-push"
              label={words().offersByPush}
              checked={consent.offers_by_push}
              change={(on, input) =>
                save(words().offersByPush, on, input, async () => {
                  setConsent(await client.agree({ offers_by_push: on }));
                  // Whether an offers topic reaches them by push follows their consent.
                  setPrefs(await client.preferences());
                })
              }
            />
            <p class="hint">{words().offersByEmail(consent.offers_by_email)}</p>
          </fieldset>
        )}
        {prefs && (
          <div class="card">
            <Switch
              id="crm-everything-off"
              label={words().everythingOff}
              hint={words().everythingOffHint}
              checked={prefs.all_off}
              change={(on, input) => choose(words().everythingOff, on, input, { all_off: on })}
            />
          </div>
        )}
        <div class="saved-status">
          {failed && (
            <p class="error" role="alert">
              {failed}
            </p>
          )}
          <p class="status" role="status">
            {said}
          </p>
        </div>
      </div>
    </>
  );
}
