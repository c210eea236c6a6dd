import type { z } from 'zod';
import type { CheckinAnswer, ShownMessage } from '../../src/domain/inapp/checkin.js';
import type { Checkin, InAppMessage } from '../guest/inapp.schemas.js';

// In-app messages as the check-in and an opened link answer them: the content under the member its kind names.

export const presentMessage = (m: ShownMessage): z.output<typeof InAppMessage> => ({
  id: m.id,
  kind: m.kind,
  variant: m.variant,
  test: m.test,
  screens: m.screens,
  [m.kind]: m.content,
});
export const presentCheckin = (a: CheckinAnswer): z.output<typeof Checkin> => ({ ...a, messages: a.messages.map(presentMessage) });
