import { eraseContactData, finishErase, type Removed } from '../../../src/domain/contacts/erasure.js';
import type { Services } from '../../../src/domain/context.js';

// Both are idempotent: erasing what is gone removes nothing more; finishing twice marks done once more.
export const eraseActivities = (svc: Services) => ({
  eraseContactData: (input: { requestId: string }): Promise<Removed> => eraseContactData(svc, input.requestId),
  finishErase: (input: { requestId: string }): Promise<void> => finishErase(svc, input.requestId),
});

/** The erase process's activities as its decide module sees them: by type only. */
export type EraseActivities = ReturnType<typeof eraseActivities>;
