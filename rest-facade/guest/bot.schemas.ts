import { z } from 'zod';
import { MAX_VALUE } from '../../src/domain/bot/values.js';

// The person's answer to the help bot; the part it makes is a conversation part (conversations.schemas.ts).

export const BotReplyBody = z
  .object({
    part_id: z.string().min(1).max(100).describe("The bot's part answered: the conversation's bot_part_id"),
    button: z.string().max(100).nullable().optional().describe('The id of the button tapped, for a part with buttons'),
    value: z
      .string()
      .max(10_000)
      .nullable()
      .optional()
      .describe(`What the user gave, for a part with a question (email, number, or at most ${MAX_VALUE} characters of text)`),
  })
  .meta({ id: 'BotReplyBody' });
