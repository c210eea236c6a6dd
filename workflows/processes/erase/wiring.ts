import { ERASE_REQUESTED } from '../../../src/domain/contacts/erasure.js';
import { wireProcess } from '../module.js';
import { eraseActivities } from './activities.js';
import { eraseProcess } from './decide.js';

// Started by the erase request's row (DELETE /server/v1/contacts/{external_id}): the first run of a
// request has the request's id; a run asked again (its request handed back, or of an earlier release) its own.
export default wireProcess(eraseProcess, {
  activities: eraseActivities,
  startsOn: {
    topics: [ERASE_REQUESTED],
    runId: (row) => String(row.data.run_id ?? row.data.request_id),
    input: (row) => ({ requestId: String(row.data.request_id), appModeId: row.appModeId }),
  },
});
