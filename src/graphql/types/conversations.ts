import type { ConversationPart } from '../../generated/prisma/client.js';
import { picturesOfParts, pictureAddress } from '../../domain/attachments/addresses.js';
import { createConversationPicture } from '../../domain/inbox/pictures.js';
import {
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_PICTURES_PER_MESSAGE,
  MAX_UNUSED_ATTACHMENTS,
  UNUSED_ATTACHMENT_HOURS,
  UPLOAD_ADDRESS_SECONDS,
} from '../../domain/attachments/limits.js';
import type { Picture } from '../../domain/attachments/use.js';
import { closeConversation } from '../../domain/conversations/close.js';
import { invalidField } from '../../domain/errors.js';
import { assignConversation } from '../../domain/inbox/assign.js';
import { conversationById } from '../../domain/inbox/conversation.js';
import { inboxChanges, type InboxChange } from '../../domain/inbox/live.js';
import { MAX_NEWER_LISTED } from '../../domain/inbox/held-reply.js';
import { addNote, replyAsStaff } from '../../domain/inbox/reply.js';
import { snoozeConversation } from '../../domain/inbox/snooze.js';
import { authorOf } from '../../domain/inbox/staff-author.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';
import type { SignedAddress } from '../../lib/blobs/store.js';
import { liveFor } from '../subscription-access.js';
import { StaffUserRef } from './staff.js';
import { staffUserById, Team } from './teams.js';

// The staff inbox: conversations by state, assignee and team, newest activity first; one
// conversation with every part (internal notes too) and its contact; reply, note, close, snooze and
// assign; and the changes live. Members read and reply; assigning is its own permission.

const ConversationStateEnum = builder.enumType('ConversationState', { values: ['open', 'closed', 'snoozed'] as const });
const PartKindEnum = builder.enumType('ConversationPartKind', { values: ['message', 'note', 'event', 'rating', 'bot'] as const });
const AuthorKindEnum = builder.enumType('ConversationAuthorKind', { values: ['contact', 'staff', 'bot', 'system'] as const });

const PartAuthor = builder
  .objectRef<{ kind: ConversationPart['authorKind']; id: string | null; name: string; avatarUrl: string | null }>('ConversationPartAuthor')
  .implement({
    fields: (t) => ({
      kind: t.expose('kind', { type: AuthorKindEnum }),
      id: t.exposeID('id', { nullable: true, description: "The contact's, staff user's or bot's id; null for the service itself." }),
      name: t.exposeString('name', { description: 'As it was when the part was written.' }),
      avatarUrl: t.exposeString('avatarUrl', { nullable: true }),
    }),
  });

const PictureRef = builder.objectRef<Picture & { appModeId: string }>('ConversationPicture').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    url: t.string({
      description: 'A short-lived signed address of the picture (at least an hour).',
      resolve: async (p, _args, ctx) => (await pictureAddress(asStaff(ctx), p.appModeId, p)).url,
    }),
  }),
});

export const Part = builder.prismaObject('ConversationPart', {
  fields: (t) => ({
    id: t.exposeID('id'),
    conversationId: t.exposeID('conversationId'),
    seq: t.exposeInt('seq', {
      description:
        'Counts up from 1 within the conversation, over every kind. The last one shown to a writer is what their reply or note names as `seenPartSeq`.',
    }),
    kind: t.expose('kind', { type: PartKindEnum }),
    internal: t.exposeBoolean('internal', { description: 'Never shown to the person: notes, and lines kept to the team.' }),
    author: t.field({
      type: PartAuthor,
      resolve: (p) => ({ kind: p.authorKind, id: p.authorId, name: p.authorName, avatarUrl: p.authorAvatarUrl }),
    }),
    text: t.exposeString('text'),
    blocks: t.expose('blocks', {
      type: JSONValue,
      description: 'The content blocks the person sees (paragraphs of the text, or what the bot or a teammate composed).',
    }),
    pictures: t.field({
      type: [PictureRef],
      resolve: async (p, _args, ctx) => {
        if (!p.attachmentIds.length) return [];
        const pictures = await batchLoad(ctx, `pictures:${p.appModeId}`, p.id, (ids) =>
          picturesOfParts(asStaff(ctx), p.appModeId, [...ids]),
        );
        return (pictures ?? []).map((pic) => ({ ...pic, appModeId: p.appModeId }));
      },
    }),
    button: t.exposeString('button', { nullable: true, description: 'The id of the button the person tapped instead of writing.' }),
    event: t.exposeString('event', { nullable: true, description: 'For an event line: reopened, closed, snoozed, woke, assigned…' }),
    data: t.expose('data', {
      type: JSONValue,
      nullable: true,
      description: 'The kind’s details: a rating and remark, a snooze’s time, an assignment.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const PartConnection = connectionType(Part, 'ConversationPart');

export const ConversationRef = builder.prismaObject('Conversation', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    state: t.expose('state', { type: ConversationStateEnum }),
    snoozedUntil: t.expose('snoozedUntil', { type: 'DateTime', nullable: true }),
    contact: t.relation('contact'),
    assignee: t.field({
      type: StaffUserRef,
      nullable: true,
      resolve: async (c, _args, ctx) => (c.assigneeId ? ((await staffUserById(ctx, c.assigneeId)) ?? null) : null),
    }),
    team: t.field({
      type: Team,
      nullable: true,
      resolve: (c, _args, ctx) =>
        c.teamId
          ? batchLoad(
              ctx,
              'teamById',
              c.teamId,
              async (ids) => new Map((await ctx.svc.db.team.findMany({ where: { id: { in: [...ids] } } })).map((team) => [team.id, team])),
            )
          : null,
    }),
    ratingAsked: t.exposeBoolean('ratingAsked'),
    rating: t.exposeInt('rating', { nullable: true }),
    ratingRemark: t.exposeString('ratingRemark', { nullable: true }),
    lastSeq: t.exposeInt('lastSeq', { description: 'The seq of the latest part of any kind.' }),
    lastActivityAt: t.expose('lastActivityAt', { type: 'DateTime' }),
    preview: t.exposeString('preview', { description: 'The start of the latest part the person may see.' }),
    lastPart: t.field({
      type: Part,
      nullable: true,
      description: 'The latest part of any kind (notes too), read with the list.',
      select: { parts: { orderBy: { seq: 'desc' }, take: 1 } },
      resolve: (c) => c.parts[0] ?? null,
    }),
    parts: t.relatedConnection(
      'parts',
      { cursor: 'id', description: 'Every part, notes and internal lines too, oldest first.', query: { orderBy: { seq: 'asc' } } },
      PartConnection,
    ),
    latestParts: t.relatedConnection(
      'parts',
      {
        cursor: 'id',
        description:
          'Every part, notes and internal lines too, newest first: the first page is the latest, each next page older (what a long conversation opens at).',
        query: { orderBy: { seq: 'desc' } },
      },
      PartConnection,
    ),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const ConversationConnection = connectionType(ConversationRef, 'Conversation');

builder.queryField('conversations', (t) =>
  t.prismaConnection(
    {
      type: 'Conversation',
      cursor: 'id',
      description: 'The inbox: an app-mode’s conversations, the latest activity first, by state, assignee and team.',
      args: {
        appModeId: t.arg.id({ required: true }),
        state: t.arg({ type: ConversationStateEnum, description: 'open, closed or snoozed; all when left out.' }),
        assigneeId: t.arg.id({ description: 'Only those assigned to this staff user.' }),
        teamId: t.arg.id({ description: 'Only those of this team.' }),
        unassigned: t.arg.boolean({ description: 'Only those assigned to nobody.' }),
      },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, state, assigneeId, teamId, unassigned }, ctx) => {
        if (unassigned && assigneeId) throw invalidField('unassigned', 'cannot be asked with assigneeId');
        return ctx.svc.db.conversation.findMany({
          ...query,
          where: {
            appModeId,
            // Not of a person being erased (beingErased): as gone already.
            contact: { eraseRequestedAt: null },
            state: state ?? undefined,
            teamId: teamId ?? undefined,
            assigneeId: unassigned ? null : (assigneeId ?? undefined),
          },
          orderBy: [{ lastActivityAt: 'desc' }, { id: 'desc' }],
        });
      },
    },
    ConversationConnection,
  ),
);

builder.queryField('conversation', (t) =>
  t.prismaField({
    type: 'Conversation',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    resolve: async (query, _root, { id }, ctx) =>
      ctx.svc.db.conversation.findUniqueOrThrow({ ...query, where: { id: (await conversationById(asStaff(ctx), id)).id } }),
  }),
);

/** What a reply or note says its writer saw (the held reply, src/domain/inbox/held-reply.ts). */
const HELD =
  'With `seenPartSeq` (the seq of the last part the writer was shown), it is held when parts by someone else (the person, another member, the bot, the service) came after it: nothing is added, and the answer is the error `newer_parts` (status 409) whose extensions carry `newerParts { count, lastSeq, parts }` (the first ' +
  `${MAX_NEWER_LISTED} of them, oldest first: id, seq, kind, authorKind). Show them, then send again with the new \`seenPartSeq\` (their \`lastSeq\`), or with \`force: true\` to send it as it is. Without \`seenPartSeq\` it is never held.`;

const PictureTypeEnum = builder.enumType('ConversationPictureType', {
  values: ATTACHMENT_TYPES.map((t) => t.replace('image/', '')) as ['jpeg', 'png', 'gif', 'webp'],
});

const PictureUpload = builder.objectRef<{ id: string; upload: SignedAddress }>('ConversationPictureUpload').implement({
  fields: (t) => ({
    id: t.exposeID('id', {
      description: `Name it in the reply's or note's \`attachmentIds\` (up to ${MAX_PICTURES_PER_MESSAGE}) once the bytes are uploaded; used once.`,
    }),
    uploadUrl: t.string({ description: 'Send the bytes here with uploadMethod and uploadHeaders.', resolve: (p) => p.upload.url }),
    uploadMethod: t.string({ resolve: (p) => p.upload.method }),
    uploadHeaders: t.field({ type: JSONValue, description: 'Headers the upload must carry as given.', resolve: (p) => p.upload.headers }),
    uploadExpiresAt: t.field({
      type: 'DateTime',
      description: `The address works until then (${UPLOAD_ADDRESS_SECONDS / 60} minutes).`,
      resolve: (p) => p.upload.expiresAt,
    }),
  }),
});

builder.mutationField('createConversationPicture', (t) =>
  t.field({
    type: PictureUpload,
    description:
      `A picture for a reply or note in this conversation (JPEG, PNG, GIF or WebP, at most ${MAX_ATTACHMENT_BYTES} bytes, 10 MiB), ` +
      'and where to upload it: its bytes are checked as they arrive (the type read from them, the exact size declared). Only its maker ' +
      `may name it, in this conversation only. It waits until named, and is removed unused after ${UNUSED_ATTACHMENT_HOURS} hour; ` +
      `a member may have ${MAX_UNUSED_ATTACHMENTS} pictures and 50 MiB waiting in an app-mode (beyond: attachment_limit, 422), ` +
      'the app-mode 1 GiB with its users’ (beyond: attachment_app_limit, 429, with retryAfter).',
    args: {
      conversationId: t.arg.id({ required: true }),
      type: t.arg({ type: PictureTypeEnum, required: true }),
      size: t.arg.int({ required: true, description: 'The exact size in bytes; the upload must have exactly this many.' }),
    },
    authScopes: (_root, { conversationId }) => ({ reply: { conversationId } }),
    resolve: (_root, { conversationId, type, size }, ctx) =>
      createConversationPicture(asStaff(ctx), conversationId, { contentType: `image/${type}`, size }),
  }),
);

const ATTACHMENT_IDS =
  `Up to ${MAX_PICTURES_PER_MESSAGE} pictures, in the order shown: each made by the writer for this conversation ` +
  '(createConversationPicture), uploaded, and not used before; refused otherwise with attachment_invalid naming `attachmentIds.<index>` ' +
  '(too_many_pictures naming `attachmentIds` beyond four). With pictures, `text` may be empty. A held reply or note uses none of them.';

const SEEN_PART_SEQ = 'The seq of the last part the writer was shown: held when someone else wrote after it.';
const FORCE = 'Sent even when newer parts came after `seenPartSeq`.';

builder.mutationField('replyToConversation', (t) =>
  t.prismaField({
    type: 'ConversationPart',
    description:
      'A reply the person sees. A closed conversation opens again with a line saying so by the replier; a snoozed one wakes. ' + HELD,
    args: {
      id: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      seenPartSeq: t.arg.int({ description: SEEN_PART_SEQ }),
      force: t.arg.boolean({ description: FORCE }),
      attachmentIds: t.arg.idList({ description: ATTACHMENT_IDS }),
    },
    authScopes: (_root, { id }) => ({ reply: { conversationId: id } }),
    resolve: (_query, _root, { id, text, seenPartSeq, force, attachmentIds }, ctx) =>
      replyAsStaff(asStaff(ctx), id, { text, seenPartSeq, force, attachmentIds }),
  }),
);

builder.mutationField('addConversationNote', (t) =>
  t.prismaField({
    type: 'ConversationPart',
    description: `An internal note: the team sees it, the person never does. ${HELD}`,
    args: {
      id: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      seenPartSeq: t.arg.int({ description: SEEN_PART_SEQ }),
      force: t.arg.boolean({ description: FORCE }),
      attachmentIds: t.arg.idList({ description: ATTACHMENT_IDS }),
    },
    authScopes: (_root, { id }) => ({ reply: { conversationId: id } }),
    resolve: (_query, _root, { id, text, seenPartSeq, force, attachmentIds }, ctx) =>
      addNote(asStaff(ctx), id, { text, seenPartSeq, force, attachmentIds }),
  }),
);

builder.mutationField('closeConversation', (t) =>
  t.prismaField({
    type: 'Conversation',
    description: 'Closes it with a line the person sees; `askRating` asks them to rate it (once).',
    args: { id: t.arg.id({ required: true }), askRating: t.arg.boolean({ defaultValue: false }) },
    authScopes: (_root, { id }) => ({ reply: { conversationId: id } }),
    resolve: async (_query, _root, { id, askRating }, ctx) => {
      const staff = asStaff(ctx);
      return closeConversation(staff, await conversationById(staff, id), authorOf(staff), { askRating: askRating ?? false });
    },
  }),
);

builder.mutationField('snoozeConversation', (t) =>
  t.prismaField({
    type: 'Conversation',
    description: 'Puts it aside until `until` (within a year): it wakes by itself then, or sooner when someone writes.',
    args: { id: t.arg.id({ required: true }), until: t.arg({ type: 'DateTime', required: true }) },
    authScopes: (_root, { id }) => ({ reply: { conversationId: id } }),
    resolve: (_query, _root, { id, until }, ctx) => snoozeConversation(asStaff(ctx), id, until),
  }),
);

builder.mutationField('assignConversation', (t) =>
  t.prismaField({
    type: 'Conversation',
    description: 'Assigns it to a member of the workspace, a team of it, both, or nobody (null); a left-out argument stays as it is.',
    args: { id: t.arg.id({ required: true }), assigneeId: t.arg.id(), teamId: t.arg.id() },
    authScopes: (_root, { id }) => ({ assign: { conversationId: id } }),
    resolve: (_query, _root, args, ctx) =>
      assignConversation(asStaff(ctx), args.id, {
        ...(args.assigneeId !== undefined ? { assigneeId: args.assigneeId === null ? null : String(args.assigneeId) } : {}),
        ...(args.teamId !== undefined ? { teamId: args.teamId === null ? null : String(args.teamId) } : {}),
      }),
  }),
);

const InboxChangeRef = builder.objectRef<InboxChange>('InboxChange').implement({
  description: 'One step of an inbox subscription: reload (read your lists again), or one change as it left the conversation.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Increasing; name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description: 'Read the lists again: the first answer without `after`, or when `after` is older than the outbox keeps (7 days).',
    }),
    conversation: t.field({ type: ConversationRef, nullable: true, description: 'As the change left it.', resolve: (c) => c.conversation }),
    part: t.field({
      type: Part,
      nullable: true,
      description: 'The part the change added: a message, a note, a rating, or a line saying what changed.',
      resolve: (c) => c.part,
    }),
  }),
});

builder.subscriptionField('inboxChanged', (t) =>
  t.field({
    type: InboxChangeRef,
    description:
      'Every change to the app-mode’s conversations, from any server process, in order: new conversations, new parts (notes too), state, snooze and assignee changes. Ends with unauthenticated, not_found or role_forbids when the session or membership ends.',
    args: { appModeId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId, after }, ctx) =>
      liveFor(ctx, { appModeId }, 'read', (signal) => inboxChanges(asStaff(ctx), appModeId, { after, signal })),
    resolve: (change) => change,
  }),
);

builder.subscriptionField('conversationChanged', (t) =>
  t.field({
    type: InboxChangeRef,
    description: 'The changes of one conversation, as inboxChanged tells them.',
    args: { id: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    subscribe: async (_root, { id, after }, ctx) => {
      const { appModeId } = await conversationById(asStaff(ctx), id);
      return liveFor(ctx, { conversationId: id }, 'read', (signal) =>
        inboxChanges(asStaff(ctx), appModeId, { after, signal, conversationId: id }),
      );
    },
    resolve: (change) => change,
  }),
);
