import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { InboundEmailSettingsDocument, RollInboundSecretDocument } from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { fullTime } from '../ui/time';
import { OnceSecret, problemOf, Reason, useRead, type Problem } from './settings-common';

// Email in, on the Email settings page: the mode's inbox address, the domain of reply addresses, and
// its inbound secret rolled (the new one shown this once; the one before kept for a day, or ended at
// once when it leaked). Rolling is for who manages keys.

export function InboundEmail(props: { modeId: string; refused: string | undefined; reason: string | undefined }) {
  const { modeId, refused } = props;
  const { data, problem, reload } = useRead(() => request(InboundEmailSettingsDocument, { appModeId: modeId }), [modeId]);
  const [made, setMade] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const [keep, setKeep] = useState(true);
  const [failure, setFailure] = useState<Problem | undefined>();
  const settings = data?.inboundEmailSettings;

  const roll = async () => {
    try {
      const { rollInboundSecret: s } = await request(RollInboundSecretDocument, { appModeId: modeId, keepPreviousHours: keep ? 24 : 0 });
      setMade(s.inboundSecret);
      setFailure(undefined);
      reload();
    } catch (err) {
      setFailure(problemOf(err));
    }
    setAsking(false);
  };

  return (
    <section class="inbound-email" aria-labelledby="inbound-email-title">
      <h2 id="inbound-email-title">Email in</h2>
      <p class="intro">
        Your mail provider’s converter posts bounces, complaints and people’s replies here, signed with this mode’s inbound secret.
      </p>
      {(problem || failure) && (
        <p class="error" role="alert">
          {(failure ?? problem)!.message}
        </p>
      )}
      {settings && (
        <dl class="inbound-facts">
          <dt>Inbox address</dt>
          <dd>
            <code>{settings.inboxAddress}</code> (mail from a known person’s address starts a conversation)
          </dd>
          <dt>Reply addresses</dt>
          <dd>
            <code>reply+…@{settings.replyDomain}</code>, one per conversation
          </dd>
          <dt>Secret before the last roll</dt>
          <dd>
            {settings.previousSecretUntil ? (
              <>
                still verifies until <time dateTime={settings.previousSecretUntil}>{fullTime(settings.previousSecretUntil)}</time>
              </>
            ) : (
              'none verifies'
            )}
          </dd>
        </dl>
      )}
      {made && <OnceSecret id="inbound-secret-once" label="New inbound secret" secret={made} onDone={() => setMade(undefined)} />}
      <div class="form-actions">
        <button type="button" id="roll-inbound-secret" disabled={!settings || !!refused} onClick={() => setAsking(true)}>
          Roll the inbound secret…
        </button>
        <Reason why={props.reason} />
      </div>
      {asking && (
        <Confirm title="Roll the inbound secret?" action="Roll" onCancel={() => setAsking(false)} onConfirm={roll}>
          <p>A new secret is made and shown once; set it in your converter.</p>
          <label class="check-label">
            <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.currentTarget.checked)} /> Keep the current secret working for
            24 hours (untick when it leaked)
          </label>
        </Confirm>
      )}
    </section>
  );
}
