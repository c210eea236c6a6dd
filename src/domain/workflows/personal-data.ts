import { emitMany } from '../outbox.js';
import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';
import { exportedRun, RUN_DETAIL, RUNS_ORDER, type RunWithSteps } from './person-runs.js';
import { uncountWaiting } from './run-record.js';

// A person's workflow runs in the export's `workflows`, newest first, read a page at a time while
// the export is written. An erase cancels their runs under way (the outbox row, written with the
// erase, reaches the engine: the runs end at once, whatever step they are at) and removes their
// runs, their steps, their entries and whether they are in the workflows' audiences.

/** The outbox topic that cancels runs: its rows carry run ids only, nothing of the person. */
export const RUNS_CANCELLED = 'workflow.runs_cancelled';
/** Run ids a cancel row carries. */
const CANCELS_PER_ROW = 500;

export const workflowData: PersonalDataArea = {
  name: 'workflows',
  tables: ['person_run', 'person_run_step', 'workflow_entry', 'workflow_audience'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contact = await db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } });
    if (!contact) return undefined;
    const workflows = await pagedMember(
      (last: RunWithSteps | undefined, take) =>
        db.personRun.findMany({
          where: { appModeId, contactId: contact.id },
          orderBy: RUNS_ORDER,
          include: RUN_DETAIL,
          ...keyset(last && { id: last.id }, take),
        }),
      exportedRun,
    );
    return workflows && { workflows };
  },
  async erase(tx, { externalId, appModeIds }) {
    const contacts = await tx.db.contact.findMany({ where: { appModeId: { in: appModeIds }, externalId }, select: { id: true } });
    const contactIds = contacts.map((c) => c.id);
    if (!contactIds.length) return { workflowRuns: 0, workflowEntries: 0 };
    const going = await tx.db.personRun.findMany({
      where: { contactId: { in: contactIds }, state: { not: 'ended' } },
      select: { id: true, appModeId: true, workflowId: true, atStep: true, state: true },
    });
    await uncountWaiting(
      tx,
      going.filter((r) => r.state === 'waiting' || r.state === 'parked'),
    );
    for (const appModeId of new Set(going.map((r) => r.appModeId))) {
      const ids = going.filter((r) => r.appModeId === appModeId).map((r) => r.id);
      const rows = [];
      for (let i = 0; i < ids.length; i += CANCELS_PER_ROW) rows.push({ appModeId, data: { run_ids: ids.slice(i, i + CANCELS_PER_ROW) } });
      await emitMany(tx, RUNS_CANCELLED, rows);
    }
    const { count: workflowRuns } = await tx.db.personRun.deleteMany({ where: { contactId: { in: contactIds } } });
    const { count: workflowEntries } = await tx.db.workflowEntry.deleteMany({ where: { contactId: { in: contactIds } } });
    await tx.db.workflowAudience.deleteMany({ where: { contactId: { in: contactIds } } });
    return { workflowRuns, workflowEntries };
  },
};
