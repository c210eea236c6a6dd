import { EMAIL_REQUESTED } from '../../../src/domain/email/sending.js';
import { wireProcess } from '../module.js';
import { emailSendActivities } from './activities.js';
import { emailSendProcess } from './decide.js';

// Started by a sending's row, one run per sending (its version).
export default wireProcess(emailSendProcess, {
  activities: emailSendActivities,
  startsOn: {
    topics: [EMAIL_REQUESTED],
    runId: (row) => String(row.data.version_id),
    input: (row) => ({ sendId: String(row.data.version_id), appModeId: row.appModeId }),
  },
});
