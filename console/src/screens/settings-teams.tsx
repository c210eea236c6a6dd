import { useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  ChangeTeamMembersDocument,
  CreateTeamDocument,
  RemoveTeamDocument,
  RenameTeamDocument,
  TeamsDocument,
  type TeamRowFragment,
} from '../generated/graphql';
import type { Place } from '../place';
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

// The workspace's teams (conversations are assigned to them): made with a name and members,
// renamed, members added and taken out, removed. Owners and admins change them.

interface Person {
  id: string;
  name: string;
}

export function SettingsTeams({ place }: { place: Place }) {
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
  usePageActions([{ id: 'make-team', label: 'Make a team', focus: 'team-name' }]);
  const { data, problem, reload } = useRead(() => request(TeamsDocument, { workspaceId: place.workspaceId }), [place.workspaceId]);
  const teams = data?.teams.edges.map((e) => e.node) ?? [];
  const people: Person[] = data?.members.edges.map((e) => e.node.staffUser) ?? [];
  return (
    <SettingsPage
      title="Teams"
      class="settings-teams"
      intro={`Teams of ${place.workspaceName}: a conversation assigned to a team waits for any of its members. At most 100, names unique.`}
    >
      <Reason why={role && refused} />
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {data && <NewTeam workspaceId={place.workspaceId} people={people} refused={refused} onMade={reload} />}
      {!data ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : teams.length === 0 ? (
        <p class="quiet-text">No team yet.</p>
      ) : (
        <ul class="teams" aria-label="Teams">
          {teams.map((t) => (
            <TeamCard key={t.id} team={t} workspaceId={place.workspaceId} people={people} refused={refused} onChanged={reload} />
          ))}
        </ul>
      )}
    </SettingsPage>
  );
}

function NewTeam(props: { workspaceId: string; people: Person[]; refused: string | undefined; onMade(): void }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState('');
  return (
    <form
      class="settings-form"
      aria-labelledby="new-team-title"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const { createTeam } = await request(CreateTeamDocument, {
            workspaceId: props.workspaceId,
            name: name.trim(),
            memberIds: chosen,
          });
          setSaid(`Team ${createTeam.name} made.`);
          setName('');
          setChosen([]);
          setProblem(undefined);
          props.onMade();
        } catch (err) {
          setProblem(problemOf(err));
        }
      }}
    >
      <h2 id="new-team-title">Make a team</h2>
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">Make a team</legend>
        <FormProblem problem={problem} fields={['name', 'memberIds']} />
        <div class="field">
          <label for="team-name">Name</label>
          <input {...invalid(problem, 'name', 'team-name')} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <FieldError problem={problem} field="name" id="team-name" />
        </div>
        <fieldset class="people">
          <legend>Members</legend>
          {props.people.map((p) => (
            <label key={p.id} class="check-label">
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, p.id] : chosen.filter((c) => c !== p.id))}
              />
              {p.name}
            </label>
          ))}
          <FieldError problem={problem} field="memberIds" id="team-members" />
        </fieldset>
        <div class="form-actions">
          <button type="submit">Make team</button>
          <span role="status">{said}</span>
        </div>
      </fieldset>
    </form>
  );
}

function TeamCard(props: { team: TeamRowFragment; workspaceId: string; people: Person[]; refused: string | undefined; onChanged(): void }) {
  const t = props.team;
  const [name, setName] = useState(t.name);
  const [adding, setAdding] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [removing, setRemoving] = useState(false);
  const members = t.members.edges.map((e) => e.node.staffUser).filter((p): p is Person => !!p);
  const others = props.people.filter((p) => !members.some((m) => m.id === p.id));
  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      setProblem(undefined);
      props.onChanged();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  const ids = { workspaceId: props.workspaceId, teamId: t.id };
  return (
    <li class="team" aria-labelledby={`team-${t.id}`}>
      <h2 id={`team-${t.id}`}>{t.name}</h2>
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">Change {t.name}</legend>
        <FormProblem problem={problem} fields={['name']} />
        <form
          class="inline-form"
          onSubmit={(e) => (e.preventDefault(), void act(() => request(RenameTeamDocument, { ...ids, name: name.trim() })))}
        >
          <label for={`rename-${t.id}`}>Team name</label>
          <input {...invalid(problem, 'name', `rename-${t.id}`)} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit" class="quiet" disabled={name.trim() === t.name}>
            Rename
          </button>
          <FieldError problem={problem} field="name" id={`rename-${t.id}`} />
        </form>
        <h3>Members</h3>
        {members.length === 0 ? (
          <p class="quiet-text">No member yet.</p>
        ) : (
          <ul class="plain-rows" aria-label={`Members of ${t.name}`}>
            {members.map((m) => (
              <li key={m.id}>
                <span>{m.name}</span>
                <button
                  type="button"
                  class="quiet"
                  aria-label={`Take out ${m.name} from ${t.name}`}
                  onClick={() => void act(() => request(ChangeTeamMembersDocument, { ...ids, remove: [m.id] }))}
                >
                  Take out
                </button>
              </li>
            ))}
          </ul>
        )}
        {others.length > 0 && (
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (adding) void act(() => request(ChangeTeamMembersDocument, { ...ids, add: [adding] })).then(() => setAdding(''));
            }}
          >
            <label for={`add-${t.id}`}>Add a member</label>
            <select id={`add-${t.id}`} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
              <option value="">Choose…</option>
              {others.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <button type="submit" class="quiet" disabled={!adding}>
              Add
            </button>
          </form>
        )}
        <button type="button" class="quiet danger-text" onClick={() => setRemoving(true)}>
          Remove team…
        </button>
      </fieldset>
      {removing && (
        <Confirm
          title={`Remove the team ${t.name}?`}
          action="Remove"
          onCancel={() => setRemoving(false)}
          onConfirm={async () => {
            await request(RemoveTeamDocument, ids);
            setRemoving(false);
            props.onChanged();
          }}
        >
          <p>Its conversations keep their assignee, without a team.</p>
        </Confirm>
      )}
    </li>
  );
}
