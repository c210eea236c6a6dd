import { systemContext, type Services } from '../../../src/domain/context.js';
import { mailSignup } from '../../../src/domain/signup/mail.js';

export const signupMailActivities = (svc: Services, ctx = systemContext(svc, 'signup-mail')) => ({
  mailSignup: (input: { signupId: string }): Promise<void> => mailSignup(ctx, input.signupId),
});

export type SignupMailActivities = ReturnType<typeof signupMailActivities>;
