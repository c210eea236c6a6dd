import { z } from 'zod';
import { HelpLanguageQuery } from '../shapes/help.js';

// The signed-in help center's request shapes; its answers are the help center's (shapes/help.ts).

export const LangQuery = z.object({ lang: HelpLanguageQuery.optional() });

export const ArticleRatingBody = z.object({ helpful: z.boolean() }).meta({ id: 'ArticleRatingBody' });
