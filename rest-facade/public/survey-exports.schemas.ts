import { z } from 'zod';

export const SurveyExportParams = z.object({
  token: z.string().min(1).max(1000).describe('The signed token of the address `exportSurveyResponses` gave'),
});
