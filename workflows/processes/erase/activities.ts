import { eraseContactData, eraseGaveUp, finishErase, type Removed } from '../../../src/domain/contacts/erasure.js';
import { systemContext, type Services } from '../../../src/domain/context.js';

// All are idempotent: erasing what is gone removes nothing more; finishing twice marks done once more; handing back twice, once.
export const eraseActivities = (svc: Services, ctx = systemContext(svc, 'erase')) => ({
  eraseContactData: (input: { requestId: string }): Promise<Removed> => eraseContactData(ctx, input.requestId),
  finishErase: (input: { requestId: string }): Promise<void> => finishErase(ctx, input.requestId),
  eraseGaveUp: (input: { requestId: string }): Promise<void> => eraseGaveUp(ctx, input.requestId),
});

/** The erase process's activities as its decide module sees them: by type only. */
export type EraseActivities = ReturnType<typeof eraseActivities>;
