import { conversationById } from '../../domain/inbox/conversation.js';
import {
  HEARTBEAT_SECONDS,
  HEARTBEATS_PER_WINDOW,
  HEARTBEAT_WINDOW_MS,
  MAX_VIEWERS_PER_CONVERSATION,
  PRESENCE_TTL_MS,
  TYPING_TTL_MS,
  type PresenceState,
  type Viewer,
} from '../../domain/inbox/presence.js';
import { leaveConversation, presenceChanges, viewConversation } from '../../domain/inbox/viewing.js';
import { builder } from '../builder.js';
import { asStaff } from '../context.js';
import { liveFor } from '../subscription-access.js';

// Who else is viewing a conversation in the console, and who is typing (src/domain/inbox/presence.ts).

const ViewerRef = builder.objectRef<Viewer>('ConversationViewer').implement({
  description: 'A team member viewing the conversation.',
  fields: (t) => ({
    staffUserId: t.exposeID('staffUserId'),
    name: t.exposeString('name', { description: 'As it was at their last heartbeat.' }),
    typing: t.exposeBoolean('typing', {
      description: `Their last heartbeat said they were typing, within ${TYPING_TTL_MS / 1000} seconds.`,
    }),
    since: t.expose('since', { type: 'DateTime', description: 'When this viewing began.' }),
  }),
});

const PresenceRef = builder.objectRef<PresenceState>('ConversationPresence').implement({
  description: 'Who is viewing a conversation now.',
  fields: (t) => ({
    conversationId: t.exposeID('conversationId'),
    viewers: t.field({
      type: [ViewerRef],
      description: `The members viewing it, the longest-viewing first (the asker too, when viewing); at most ${MAX_VIEWERS_PER_CONVERSATION}.`,
      resolve: (p) => p.viewers,
    }),
  }),
});

const LIMIT = `At most ${HEARTBEATS_PER_WINDOW} heartbeats and leaves per session in ${HEARTBEAT_WINDOW_MS / 1000} seconds (rate_limited, 429, with retryAfter, beyond).`;

builder.mutationField('viewingConversation', (t) =>
  t.boolean({
    description:
      `The heartbeat of a console showing the conversation: send it when the conversation opens, every ${HEARTBEAT_SECONDS} seconds while it stays open, ` +
      `and at once when typing starts or stops. Every console following conversationPresence sees the member within a second; they are gone ` +
      `${PRESENCE_TTL_MS / 1000} seconds after their last heartbeat, and their typing ${TYPING_TTL_MS / 1000} seconds after the last that said so. ` +
      `False when the conversation has ${MAX_VIEWERS_PER_CONVERSATION} viewers already: the member is not shown. ${LIMIT}`,
    args: {
      id: t.arg.id({ required: true }),
      typing: t.arg.boolean({ defaultValue: false, description: 'The member is writing a reply or note now.' }),
    },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    resolve: (_root, { id, typing }, ctx) => viewConversation(asStaff(ctx), id, typing ?? false),
  }),
);

builder.mutationField('leftConversation', (t) =>
  t.boolean({
    description: `The console no longer shows the conversation: the member leaves every console's conversationPresence at once (ending that subscription does too). ${LIMIT}`,
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    resolve: async (_root, { id }, ctx) => {
      await leaveConversation(asStaff(ctx), id);
      return true;
    },
  }),
);

builder.subscriptionField('conversationPresence', (t) =>
  t.field({
    type: PresenceRef,
    description:
      'Who is viewing the conversation and who is typing, from any server process: the viewers now, then the whole list again after each change (within a second). ' +
      'Follow it while the conversation is open: when it ends (unsubscribed, the socket closed) the member has left, as with leftConversation. ' +
      'Ends with unauthenticated, not_found or role_forbids when the session or membership ends.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    subscribe: async (_root, { id }, ctx) => {
      await conversationById(asStaff(ctx), id);
      return liveFor(ctx, { conversationId: id }, 'read', (signal) => presenceChanges(asStaff(ctx), id, signal));
    },
    resolve: (state) => state,
  }),
);
