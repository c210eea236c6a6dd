import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { CreateServerKeyDocument, RevokeServerKeyDocument, ServerKeysDocument, type ServerKeyRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { fullTime } from '../ui/time';
import { OnceSecret, problemOf, Reason, refusedFor, SettingsPage, useRead, usePageActions, useRole, type Problem } from './settings-common';
import { Confirm } from '../ui/confirm';

// Server keys of the mode the console is in: listed by their hint (the key itself is never read
// back), made (the key shown this once, then gone: it lives only in this page's state), revoked
// after a confirmation. To rotate: make a new key, deploy it, revoke the old one.

const MAX_KEYS = 20;

export function SettingsKeys({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_keys');
  usePageActions([{ id: 'make-key', label: 'Make a server key', press: 'make-key' }]);
  const { data, problem, reload } = useRead(async () => {
    const { app } = await request(ServerKeysDocument, { appId: place.app.id });
    return (place.mode === 'test' ? app.test : app.live).serverKeys.edges.map((e) => e.node);
  }, [modeId]);
  const [made, setMade] = useState<{ hint: string; serverKey: string } | undefined>();
  const [revoking, setRevoking] = useState<ServerKeyRowFragment | undefined>();
  const [failure, setFailure] = useState<Problem | undefined>();
  const active = (data ?? []).filter((k) => !k.revokedAt);

  const make = async () => {
    try {
      const { createServerKey } = await request(CreateServerKeyDocument, { appModeId: modeId });
      setMade(createServerKey);
      setFailure(undefined);
      reload();
    } catch (err) {
      setFailure(problemOf(err));
    }
  };

  return (
    <SettingsPage
      title="Server keys"
      class="settings-keys"
      intro={`Keys your backend calls the server API with, in ${place.mode} mode (crm_sk_${place.mode === 'test' ? 'test_' : ''}…). Each is shown once, when made. To rotate: make a new key, deploy it, then revoke the old one.`}
    >
      {(problem || failure) && (
        <p class="error" role="alert">
          {(failure ?? problem)!.message}
        </p>
      )}
      {made && <OnceSecret label={`New server key ${made.hint}`} secret={made.serverKey} onDone={() => setMade(undefined)} />}
      <div class="form-actions">
        <button type="button" id="make-key" disabled={!!refused || active.length >= MAX_KEYS} onClick={make}>
          Make a server key
        </button>
        <Reason
          why={role && (refused ?? (active.length >= MAX_KEYS ? `An app has at most ${MAX_KEYS} keys: revoke one first.` : undefined))}
        />
      </div>
      {!data ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : data.length === 0 ? (
        <p class="quiet-text">No key yet.</p>
      ) : (
        <table class="settings-table" aria-label="Server keys">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Made</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((k) => (
              <tr key={k.id} class={k.revokedAt ? 'revoked' : ''}>
                <td>
                  <code>{k.hint}</code>
                </td>
                <td>
                  <time dateTime={k.createdAt}>{fullTime(k.createdAt)}</time>
                </td>
                <td>
                  {k.revokedAt ? (
                    <>
                      Revoked <time dateTime={k.revokedAt}>{fullTime(k.revokedAt)}</time>
                    </>
                  ) : (
                    'In use'
                  )}
                </td>
                <td>
                  {!k.revokedAt && (
                    <button type="button" class="quiet" disabled={!!refused} aria-label={`Revoke ${k.hint}`} onClick={() => setRevoking(k)}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.hint}?`}
          action="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={async () => {
            await request(RevokeServerKeyDocument, { id: revoking.id });
            setRevoking(undefined);
            reload();
          }}
        >
          <p>Calls made with this key are refused from now on (401). This cannot be undone.</p>
        </Confirm>
      )}
    </SettingsPage>
  );
}
