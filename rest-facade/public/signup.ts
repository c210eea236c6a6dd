import { signUp } from '../../src/domain/signup/signup.js';
import { SIGNUP_PATH } from '../http/access.js';
import { defineRoute } from '../http/route.js';
import { SignupAccepted, SignupBody } from './signup.schemas.js';

// Public sign-up: readable across origins from the deployment's home page origin alone
// (publicCors). The answer is the same whether or not the address has an account.

export const postSignup = defineRoute({
  method: 'post',
  path: SIGNUP_PATH,
  surface: 'public',
  tag: 'Sign-up',
  summary:
    'A workspace, its first app (both modes) and its owner, asked for: the address gets a confirmation link (or, when it has an account, a note saying so), at most one mail an hour; nothing is made until the link is confirmed, within a day',
  body: SignupBody,
  responses: {
    202: { description: 'SignupAccepted: the same whether or not the address has an account', schema: SignupAccepted },
    400: { description: 'A field breaks its rule (email, password, app_name, workspace_name): the problem names it' },
    403: { description: 'The anti-bot check failed (code `bot_check_failed`)' },
    429: { description: 'Too many sign-ups for this address or from this client: wait Retry-After seconds' },
    503: {
      description:
        'Sign-up is not set up on this deployment (code `not_set_up`), or its anti-bot check cannot be reached (code `bot_check_unavailable`)',
    },
  },
  errors: [400, 403, 429, 503],
  async handle(ctx, { body }) {
    return { status: 202, headers: { 'Cache-Control': 'no-store' }, body: await signUp(ctx.state.context, body) };
  },
});
