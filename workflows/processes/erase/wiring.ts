import { ERASE_REQUESTED } from '../../../src/domain/contacts/erasure.js';
import { wireProcess } from '../module.js';
import { eraseActivities } from './activities.js';
import { eraseProcess } from './decide.js';

// Started by the erase request's row (DELETE /server/v1/contacts/{external_id}), one run per request.
export default wireProcess(eraseProcess, {
  activities: eraseActivities,
  startsOn: {
    topics: [ERASE_REQUESTED],
    runId: (row) => String(row.data.request_id),
    input: (row) => ({ requestId: String(row.data.request_id), appModeId: row.appModeId }),
  },
});
