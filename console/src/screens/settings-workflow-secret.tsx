import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { AppWebhookSecretDocument, RenewAppWebhookSecretDocument } from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { fullTime } from '../ui/time';
import { OnceSecret, problemOf, Reason, useRead, type Problem } from './settings-common';

// The app-mode's own webhook secret, on the Webhooks page: what its workflows' webhook steps sign
// their posts with. Whether it is set, its hint and since when (never its value); made, or renewed
// after asking, and the new secret shown this once (it lives only in this page's state).

export const RENEW_WORKFLOW_SECRET = 'renew-workflow-secret';

/** `refused`: why the viewer may not renew it (while their role is read too); `reason`: the same once the role is known. */
export function WorkflowSecret(props: { modeId: string; refused: string | undefined; reason: string | undefined }) {
  const { modeId, refused } = props;
  const { data, setData, problem } = useRead(() => request(AppWebhookSecretDocument, { appModeId: modeId }), [modeId]);
  const [made, setMade] = useState<{ hint: string; secret: string } | undefined>();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<Problem | undefined>();
  const state = data?.appWebhookSecret;

  const renew = async () => {
    const { renewAppWebhookSecret: s } = await request(RenewAppWebhookSecretDocument, { appModeId: modeId });
    setMade({ hint: s.secretHint, secret: s.secret });
    setData({ appWebhookSecret: { appModeId: s.appModeId, set: true, secretHint: s.secretHint, createdAt: s.createdAt } });
    setAsking(false);
    setFailure(undefined);
  };

  return (
    <section class="workflow-secret" aria-labelledby="workflow-secret-title">
      <h2 id="workflow-secret-title">Workflow webhook secret</h2>
      <p class="intro">
        Your workflows’ webhook steps sign their posts with this mode’s own secret (X-CRM-Signature, checked as an endpoint’s posts are).
        Renewing replaces it at once: the old one signs nothing from then on.
      </p>
      {(problem || failure) && (
        <p class="error" role="alert">
          {(failure ?? problem)!.message}
        </p>
      )}
      {made && (
        <OnceSecret
          id="workflow-secret-once"
          label={`New workflow webhook secret ${made.hint}`}
          secret={made.secret}
          onDone={() => setMade(undefined)}
        />
      )}
      {state && (
        <p class="workflow-secret-state">
          {state.set ? (
            <>
              Set: <code>{state.secretHint}</code>, made{' '}
              {state.createdAt && <time dateTime={state.createdAt}>{fullTime(state.createdAt)}</time>}.
            </>
          ) : (
            'Not set: a workflow’s webhook step is refused until a secret is made.'
          )}
        </p>
      )}
      <div class="form-actions">
        <button
          type="button"
          id={RENEW_WORKFLOW_SECRET}
          disabled={!state || !!refused}
          onClick={() => (state?.set ? setAsking(true) : renew().catch((err) => setFailure(problemOf(err))))}
        >
          {state?.set ? 'Renew…' : 'Make a secret'}
        </button>
        <Reason why={props.reason} />
      </div>
      {asking && (
        <Confirm title="Renew the workflow webhook secret?" action="Renew" onCancel={() => setAsking(false)} onConfirm={renew}>
          <p>
            The secret <code>{state?.secretHint}</code> signs nothing from now on: your servers must check the workflows’ posts with the new
            one, which is shown once.
          </p>
        </Confirm>
      )}
    </section>
  );
}
