import { answerSurvey } from '../../src/domain/inapp/surveys.js';
import { defineRoute } from '../http/route.js';
import { SurveyAnswerBody, SurveyParams, SurveySubmit } from './surveys.schemas.js';

// Surveys, the app's side: the answers so far, then the submit. Both are 404 for a survey that does
// not exist, is not live, was never answered to this person, or while in-app messages are off.

const TAG = 'In-app messages';

export const postSurveyAnswers = defineRoute({
  method: 'post',
  path: '/guest/v1/surveys/{message_id}/answers',
  surface: 'guest',
  tag: TAG,
  summary: 'The answers so far, kept as the person goes: a later answer to a question replaces the earlier',
  params: SurveyParams,
  body: SurveyAnswerBody,
  responses: {
    204: {
      description:
        'Kept; answers kept before that the path no longer passes are dropped. 409 `survey_submitted` after the submit; 422 `answer_invalid` for an answer that does not fit (SurveyAnswerBody says the limits)',
    },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { params, body }) {
    await answerSurvey(ctx.state.context, { messageId: params.message_id, ...body }, { submit: false });
    return { status: 204 };
  },
});

export const postSurveySubmit = defineRoute({
  method: 'post',
  path: '/guest/v1/surveys/{message_id}/submit',
  surface: 'guest',
  tag: TAG,
  summary: 'The survey completed, with every answer on the path taken',
  params: SurveyParams,
  body: SurveySubmit,
  responses: {
    204: {
      description:
        'Completed: the answers replace those kept and are written to the contact attributes their questions name (never for a test copy), the survey is completed as a `completed` receipt is, and `survey.completed` is posted. A second submit is 409 `survey_submitted`; 422 `answer_invalid` for an answer that does not fit or a required question on the path unanswered (SurveySubmit says the limits)',
    },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { params, body }) {
    await answerSurvey(ctx.state.context, { messageId: params.message_id, ...body }, { submit: true });
    return { status: 204 };
  },
});

export const surveyRoutes = [postSurveyAnswers, postSurveySubmit];
