import { SNOOZED } from '../../../src/domain/inbox/snooze.js';
import { wireProcess } from '../module.js';
import { conversationWakeActivities } from './activities.js';
import { conversationWakeProcess } from './decide.js';

/** What the snooze's row carries. */
type Snoozed = { run_id: string; conversation_id: string; until: string };

// Started by a snooze's row, one run per snooze (the row names the run).
export default wireProcess(conversationWakeProcess, {
  activities: conversationWakeActivities,
  startsOn: {
    topics: [SNOOZED],
    runId: (row) => (row.data as Snoozed).run_id,
    input: (row) => {
      const { conversation_id: conversationId, until } = row.data as Snoozed;
      return { appModeId: row.appModeId, conversationId, until };
    },
  },
});
