import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/request';
import { readSession } from '../api/session';
import { AssignChoicesDocument } from '../generated/graphql';
import { Chooser, type Choice } from '../ui/chooser';

// The a key: assign the conversation to a member of the workspace or to one of its teams, or to
// nobody; chosen by keyboard (type a name, arrows, Enter).

export type Assignment = { assigneeId: string | null } | { teamId: string | null };

export function AssignChooser(props: { workspaceId: string; hasTeam: boolean; onAssign(a: Assignment): void; onClose(): void }) {
  const [choices, setChoices] = useState<(Choice & { assignment: Assignment })[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const me = readSession()?.viewerId;
    void request(AssignChoicesDocument, { workspaceId: props.workspaceId })
      .then(({ members, teams }) => {
        const people = members.edges
          .map((e) => e.node.staffUser)
          .sort((a, b) => Number(b.id === me) - Number(a.id === me) || a.name.localeCompare(b.name));
        setChoices([
          ...people.map((p) => ({
            id: `member-${p.id}`,
            label: p.id === me ? `${p.name} (me)` : p.name,
            hint: p.email,
            assignment: { assigneeId: p.id },
          })),
          ...teams.edges.map(({ node: t }) => ({ id: `team-${t.id}`, label: t.name, hint: 'Team', assignment: { teamId: t.id } })),
          { id: 'nobody', label: 'Unassign', hint: 'No teammate', assignment: { assigneeId: null } },
          ...(props.hasTeam ? [{ id: 'no-team', label: 'No team', assignment: { teamId: null } }] : []),
        ]);
      })
      .catch(() => setChoices([{ id: 'nobody', label: 'Unassign', assignment: { assigneeId: null } }]))
      .finally(() => setLoading(false));
  }, [props.workspaceId, props.hasTeam]);

  return (
    <Chooser
      title="Assign to"
      choices={choices}
      loading={loading}
      onClose={props.onClose}
      onChoose={(c) => props.onAssign((c as (typeof choices)[number]).assignment)}
    />
  );
}
