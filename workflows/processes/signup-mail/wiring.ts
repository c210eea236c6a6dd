import { SIGNUP_MAILED } from '../../../src/domain/signup/signup.js';
import { wireProcess } from '../module.js';
import { signupMailActivities } from './activities.js';
import { signupMailProcess } from './decide.js';

// Started by the sign-up's row, one run per sign-up (a sign-up that replaces one has a new id).
export default wireProcess(signupMailProcess, {
  activities: signupMailActivities,
  startsOn: {
    topics: [SIGNUP_MAILED],
    runId: (row) => `signup-mail:${String(row.data.signup_id)}`,
    input: (row) => ({ signupId: String(row.data.signup_id) }),
  },
});
