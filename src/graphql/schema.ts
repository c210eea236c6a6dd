import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './types/staff.js';
import './types/workspaces.js';
import './types/invitations.js';
import './types/apps.js';
import './types/app-settings.js';
import './types/server-keys.js';
import './types/contacts.js';
import './types/data.js';
import './types/webhooks.js';
import './types/mail.js';
import './types/help.js';
import './types/teams.js';
import './types/conversations.js';
import './types/presence.js';
import './types/read-marks.js';
import './types/tickets.js';
import './types/messenger-settings.js';
import './types/bot.js';
import './types/preferences.js';
import './types/devices.js';
import './types/notices.js';
import './types/push.js';
import './types/inapp.js';
import './types/email.js';
import './types/email-sending.js';
import './types/inbound-email.js';
import './types/workflows.js';
import './types/survey-results.js';

let schema: GraphQLSchema | undefined;

/** The staff GraphQL schema. Needs no database: the Prisma client comes with each request's context. */
export function buildStaffSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}
