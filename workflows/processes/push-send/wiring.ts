import { PUSH_REQUESTED } from '../../../src/domain/push/send.js';
import { wireProcess } from '../module.js';
import { pushSendActivities } from './activities.js';
import { pushSendProcess } from './decide.js';

// Started by a send's row, one run per send.
export default wireProcess(pushSendProcess, {
  activities: pushSendActivities,
  startsOn: {
    topics: [PUSH_REQUESTED],
    runId: (row) => String(row.data.send_id),
    input: (row) => ({ sendId: String(row.data.send_id), appModeId: row.appModeId }),
  },
});
