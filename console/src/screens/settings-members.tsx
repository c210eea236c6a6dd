import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { readSession } from '../api/session';
import {
  CancelInvitationDocument,
  InvitationsDocument,
  InviteMemberDocument,
  MembersDocument,
  RemoveMemberDocument,
  SetMemberRoleDocument,
  type InvitationRowFragment,
  type MemberRowFragment,
  type StaffRole,
} from '../generated/graphql';
import type { Place } from '../place';
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

// The workspace's members and its pending invitations: invite an email with a role, cancel an
// invitation, change a member's role, remove a member. Only owners may; others see the members
// with the controls disabled and the reason said (and no invitations: only owners may read them).

export const ROLES: [StaffRole, string][] = [
  ['agent', 'Agent: answers and hands over conversations'],
  ['admin', 'Admin: also runs the apps, settings and keys'],
  ['owner', 'Owner: also decides who belongs'],
];
const ROLE_NAMES: Record<StaffRole, string> = { agent: 'Agent', admin: 'Admin', owner: 'Owner' };

export function SettingsMembers({ place }: { place: Place }) {
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_members');
  usePageActions([{ id: 'invite', label: 'Invite a member', focus: 'invite-email' }]);
  const members = useRead(() => request(MembersDocument, { workspaceId: place.workspaceId }), [place.workspaceId]);
  const rows = members.data?.members.edges.map((e) => e.node) ?? [];
  const [removing, setRemoving] = useState<MemberRowFragment | undefined>();
  const me = readSession()?.viewerId;
  return (
    <SettingsPage
      title="Members"
      class="settings-members"
      intro={`Who works in ${place.workspaceName}, and who is invited. Owners invite, change roles and remove; a workspace keeps at least one owner.`}
    >
      <Reason why={role && refused} />
      {members.problem && (
        <p class="error" role="alert">
          {members.problem.message}
        </p>
      )}
      {!members.data ? (
        !members.problem && <p class="quiet-text">Loading…</p>
      ) : (
        <table class="settings-table members" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.staffUser.id}>
                <td>
                  {m.staffUser.name}
                  {m.staffUser.id === me && <span class="quiet-note"> (you)</span>}
                </td>
                <td>{m.staffUser.email}</td>
                <td>
                  <RoleChanger member={m} workspaceId={place.workspaceId} refused={refused} onChanged={members.reload} />
                </td>
                <td>
                  <time dateTime={m.createdAt}>{fullTime(m.createdAt)}</time>
                </td>
                <td>
                  <button
                    type="button"
                    class="quiet"
                    disabled={!!refused}
                    aria-label={`Remove ${m.staffUser.name}`}
                    onClick={() => setRemoving(m)}
                  >
                    Remove…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {removing && (
        <Confirm
          title={`Remove ${removing.staffUser.name}?`}
          action="Remove"
          onCancel={() => setRemoving(undefined)}
          onConfirm={async () => {
            await request(RemoveMemberDocument, { workspaceId: place.workspaceId, staffUserId: removing.staffUser.id });
            setRemoving(undefined);
            members.reload();
          }}
        >
          <p>
            {removing.staffUser.email} no longer reaches {place.workspaceName}; their conversations keep them as assignee until reassigned.
          </p>
        </Confirm>
      )}
      {role === 'owner' ? (
        <Invitations workspaceId={place.workspaceId} />
      ) : (
        role && (
          <section aria-labelledby="invitations-title">
            <h2 id="invitations-title">Invitations</h2>
            <p class="reason">Only owners see and send invitations.</p>
          </section>
        )
      )}
    </SettingsPage>
  );
}

function RoleChanger(props: { member: MemberRowFragment; workspaceId: string; refused: string | undefined; onChanged(): void }) {
  const m = props.member;
  const [chosen, setChosen] = useState<StaffRole>(m.role);
  const [problem, setProblem] = useState<Problem | undefined>();
  const id = `role-${m.staffUser.id}`;
  if (props.refused) return <span>{ROLE_NAMES[m.role]}</span>;
  return (
    <form
      class="role-changer"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await request(SetMemberRoleDocument, { workspaceId: props.workspaceId, staffUserId: m.staffUser.id, role: chosen });
          setProblem(undefined);
          props.onChanged();
        } catch (err) {
          setProblem(problemOf(err));
        }
      }}
    >
      <label for={id} class="visually-hidden">
        Role of {m.staffUser.name}
      </label>
      <select
        {...invalid(problem ? { ...problem, fields: { role: problem.message } } : undefined, 'role', id)}
        value={chosen}
        onChange={(e) => setChosen(e.currentTarget.value as StaffRole)}
      >
        {ROLES.map(([r]) => (
          <option key={r} value={r}>
            {ROLE_NAMES[r]}
          </option>
        ))}
      </select>
      {chosen !== m.role && <button type="submit">Change role</button>}
      <FieldError problem={problem ? { ...problem, fields: { role: problem.message } } : undefined} field="role" id={id} />
    </form>
  );
}

function Invitations({ workspaceId }: { workspaceId: string }) {
  const { data, problem, reload } = useRead(() => request(InvitationsDocument, { workspaceId }), [workspaceId]);
  const rows = data?.invitations.edges.map((e) => e.node) ?? [];
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('agent');
  const [formProblem, setFormProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState('');
  const cancel = async (i: InvitationRowFragment) => {
    try {
      await request(CancelInvitationDocument, { id: i.id });
      setSaid(`Invitation to ${i.email} cancelled.`);
      reload();
    } catch (err) {
      setFormProblem(problemOf(err));
    }
  };
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <form
        class="settings-form inline-form invite"
        aria-label="Invite a member"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const { inviteMember } = await request(InviteMemberDocument, { workspaceId, email: email.trim(), role });
            setSaid(`Invited ${inviteMember.email} as ${ROLE_NAMES[inviteMember.role].toLowerCase()}.`);
            setEmail('');
            setFormProblem(undefined);
            reload();
          } catch (err) {
            setFormProblem(problemOf(err));
          }
        }}
      >
        <FormProblem problem={formProblem} fields={['email', 'role']} />
        <div class="field">
          <label for="invite-email">Email</label>
          <input
            {...invalid(formProblem, 'email', 'invite-email')}
            type="email"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <FieldError problem={formProblem} field="email" id="invite-email" />
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <select
            {...invalid(formProblem, 'role', 'invite-role')}
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as StaffRole)}
          >
            {ROLES.map(([r, words]) => (
              <option key={r} value={r}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Invite</button>
        <p role="status" class="said">
          {said}
        </p>
      </form>
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {data && rows.length === 0 ? (
        <p class="quiet-text">No invitation waiting.</p>
      ) : (
        <table class="settings-table" aria-label="Pending invitations">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{ROLE_NAMES[i.role]}</td>
                <td>
                  <time dateTime={i.expiresAt}>{fullTime(i.expiresAt)}</time>
                </td>
                <td>
                  <button type="button" class="quiet" aria-label={`Cancel invitation to ${i.email}`} onClick={() => void cancel(i)}>
                    Cancel invitation
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
