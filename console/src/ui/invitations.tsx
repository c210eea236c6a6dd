import { useEffect, useState } from 'preact/hooks';
import { messageOf, Refusal, request } from '../api/request';
import { useStore } from '../api/store';
import { noticeCommands } from '../commands';
import {
  AcceptInvitationDocument,
  DeclineInvitationDocument,
  ViewerInvitationsDocument,
  WorkspacesDocument,
  type ViewerInvitationRowFragment,
} from '../generated/graphql';
import { choosePlace, place, setPlace, switchApp, workspaces } from '../place';
import { Confirm } from './confirm';
import { fullTime } from './time';

// Invitations to the member's own email, above every screen while any is pending: accept (the
// workspace's apps join the app switcher at once, no reload) or decline (asked first); the command
// menu has both for each. Read as the console opens and again whenever its tab comes back into
// view (the service has no live stream of a member's invitations).

const ROLE_WORDS = { owner: 'an owner', admin: 'an admin', agent: 'an agent' } as const;

/** Reads the workspaces again: a joined one's apps come into the switcher; with no app chosen yet, one is. */
async function rereadWorkspaces() {
  const { workspaces: list } = await request(WorkspacesDocument, {});
  const nodes = list.edges.map((e) => e.node);
  if (place.get()) workspaces.set(nodes);
  else setPlace(choosePlace(nodes));
}

export function Invitations() {
  const [pending, setPending] = useState<ViewerInvitationRowFragment[]>([]);
  const [joined, setJoined] = useState<{ name: string; role: keyof typeof ROLE_WORDS; workspaceId: string } | undefined>();
  const [declining, setDeclining] = useState<ViewerInvitationRowFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  const list = useStore(workspaces);

  useEffect(() => {
    let current = true;
    const read = () =>
      request(ViewerInvitationsDocument, {})
        .then(({ viewer }) => current && setPending(viewer.invitations.edges.map((e) => e.node)))
        .catch(() => {});
    void read();
    const onShow = () => document.visibilityState === 'visible' && void read();
    document.addEventListener('visibilitychange', onShow);
    return () => {
      current = false;
      document.removeEventListener('visibilitychange', onShow);
    };
  }, []);

  const accept = async (inv: ViewerInvitationRowFragment) => {
    try {
      const { acceptInvitation } = await request(AcceptInvitationDocument, { id: inv.id });
      setPending((old) => old.filter((i) => i.id !== inv.id));
      await rereadWorkspaces();
      setJoined({ name: acceptInvitation.workspace.name, role: acceptInvitation.role, workspaceId: acceptInvitation.workspace.id });
      setError(undefined);
    } catch (err) {
      setError(messageOf(err));
      // Answered elsewhere (another tab) or expired: it is no longer pending.
      if (err instanceof Refusal && err.code === 'not_found') setPending((old) => old.filter((i) => i.id !== inv.id));
    }
  };

  useEffect(() => {
    noticeCommands.set(
      pending.flatMap((inv) => [
        { id: `invitation-accept-${inv.id}`, label: `Accept the invitation to ${inv.workspace.name}`, run: () => void accept(inv) },
        { id: `invitation-decline-${inv.id}`, label: `Decline the invitation to ${inv.workspace.name}`, run: () => setDeclining(inv) },
      ]),
    );
  }, [pending]);
  useEffect(() => () => noticeCommands.set([]), []);

  if (!pending.length && !joined && !error) return null;
  const firstApp = joined && list.find((w) => w.id === joined.workspaceId)?.apps.edges[0]?.node;
  return (
    <section class="invitations" aria-label="Invitations">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {pending.map((inv) => (
        <p key={inv.id} class="invitation">
          <span>
            You are invited to join <strong>{inv.workspace.name}</strong> as {ROLE_WORDS[inv.role]} (until{' '}
            <time dateTime={inv.expiresAt}>{fullTime(inv.expiresAt)}</time>).
          </span>
          <button type="button" aria-label={`Accept the invitation to ${inv.workspace.name}`} onClick={() => void accept(inv)}>
            Accept
          </button>
          <button
            type="button"
            class="quiet"
            aria-label={`Decline the invitation to ${inv.workspace.name}`}
            onClick={() => setDeclining(inv)}
          >
            Decline…
          </button>
        </p>
      ))}
      <p role="status" class="invitation-joined">
        {joined && (
          <>
            <span>
              You joined <strong>{joined.name}</strong> as {ROLE_WORDS[joined.role]}: its apps are in the app switcher.
            </span>
            {firstApp && (
              <button type="button" class="quiet" onClick={() => (switchApp(firstApp.id), setJoined(undefined))}>
                Open {firstApp.name}
              </button>
            )}
            <button type="button" class="quiet" onClick={() => setJoined(undefined)}>
              Dismiss
            </button>
          </>
        )}
      </p>
      {declining && (
        <Confirm
          title={`Decline the invitation to ${declining.workspace.name}?`}
          action="Decline"
          onCancel={() => setDeclining(undefined)}
          onConfirm={async () => {
            await request(DeclineInvitationDocument, { id: declining.id });
            setPending((old) => old.filter((i) => i.id !== declining.id));
            setDeclining(undefined);
          }}
        >
          <p>The invitation is removed; an owner of {declining.workspace.name} can invite you again.</p>
        </Confirm>
      )}
    </section>
  );
}
