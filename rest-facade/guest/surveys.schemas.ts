import { z } from 'zod';
import {
  MAX_LONG_ANSWER_RUNES,
  MAX_OTHER_RUNES,
  MAX_QUESTIONS,
  MAX_SHORT_ANSWER_RUNES,
  otherOption,
} from '../../src/domain/surveys/model.js';

// Surveys on the wire: the answers a person sends as they go, and the submit.

const SurveyAnswer = z
  .object({
    question: z.string().min(1).max(64).describe("The question's id"),
    number: z.number().optional().describe('Rating and NPS: a whole number on the scale'),
    options: z
      .array(z.string().min(1).max(64))
      .max(100)
      .optional()
      .describe('Choices and dropdowns: the ids of the options picked (one but for a multiple choice)'),
    other: z
      .string()
      .max(MAX_OTHER_RUNES * 4)
      .optional()
      .describe(`The person's own words beside the option \`${otherOption}\`: at most ${MAX_OTHER_RUNES} characters (MaxOtherRunes)`),
    text: z
      .string()
      .max(MAX_LONG_ANSWER_RUNES * 4)
      .optional()
      .describe(
        `Short and long text: at most ${MAX_SHORT_ANSWER_RUNES} (MaxShortAnswerRunes) and ${MAX_LONG_ANSWER_RUNES} (MaxLongAnswerRunes) characters`,
      ),
  })
  .describe("A number, options or words, by the question's type; limits count characters as code points (runes), not UTF-16 units")
  .meta({ id: 'SurveyAnswer' });

const LIMITS =
  `Answers are held to their questions: a rating or NPS a whole number on its scale; options of the question (one but for a multiple choice; ` +
  `\`${otherOption}\` with the person's own words, at most ${MAX_OTHER_RUNES} characters, MaxOtherRunes); short text at most ` +
  `${MAX_SHORT_ANSWER_RUNES} characters (MaxShortAnswerRunes), long text at most ${MAX_LONG_ANSWER_RUNES} (MaxLongAnswerRunes), counted as ` +
  `code points (runes), not UTF-16 units; at most ${MAX_QUESTIONS} answers. An answer that does not fit, or to a question off the path the ` +
  `answers take, is refused 422 \`answer_invalid\` naming it (\`answers.<i>.<member>\`, the message naming the question).`;

const surveyBody = (id: string, answers: string, test: string) =>
  z
    .object({
      answers: z.array(SurveyAnswer).max(MAX_QUESTIONS).describe(answers),
      variant: z.string().min(1).max(40).describe("The variant shown (a test copy's own)"),
      test: z.boolean().optional().describe(test),
    })
    .meta({ id, description: LIMITS });

export const SurveyAnswerBody = surveyBody(
  'SurveyAnswerBody',
  `The answers so far (at most ${MAX_QUESTIONS}): a later answer to the same question replaces the earlier`,
  "A test copy's answers: message_id is the test's",
);
export const SurveySubmit = surveyBody(
  'SurveySubmit',
  `Every answer on the path taken (at most ${MAX_QUESTIONS})`,
  "A test copy: message_id is the test's, and nothing is written to the person's attributes",
);

export const SurveyParams = z.object({ message_id: z.string().min(1).max(100) });
