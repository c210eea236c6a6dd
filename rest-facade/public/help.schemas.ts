import { z } from 'zod';
import { MAX_VISITOR } from '../../src/domain/help/ratings.js';
import { textProblem } from '../../src/lib/text.js';
import { ArticlesQuery, HelpLanguageQuery } from '../shapes/help.js';

// The public help center's request shapes; its answers are the help center's (shapes/help.ts).

const App = z.string().max(100).optional().describe('The app key, where the X-CRM-App-Key header cannot be sent');

export const AppQuery = z.object({ app: App });
export const AppLangQuery = z.object({ app: App, lang: HelpLanguageQuery.optional() });
export const PublicArticlesQuery = ArticlesQuery.extend({ app: App });
export const AssetParams = z.object({ asset_id: z.string().min(1).max(100) });

const Visitor = z
  .string()
  .min(1)
  .max(MAX_VISITOR)
  .refine((v) => !textProblem(v), 'must be well-formed text')
  .describe("The reader's own id for the page (a random id the page keeps), never a user's");

export const PublicRatingBody = z
  .object({
    helpful: z.boolean(),
    visitor: Visitor,
    language: HelpLanguageQuery.optional().describe("The language read in; the app's default when left out"),
  })
  .meta({ id: 'PublicRatingBody' });
