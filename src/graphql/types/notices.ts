import { postNotice } from '../../domain/notices/post.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';

// A person's notice inbox as staff see it, and a card posted to it without a push (any member:
// reply). The person's in-app preferences govern the card.

const NoticeSource = builder.enumType('NoticeSource', {
  values: {
    push: { description: 'The notice of a push sent.' },
    staff: { description: 'A card a team member posted without a push.' },
    workflow: { description: "A card a workflow's send step added." },
  } as const,
});

const Notice = builder.prismaObject('Notice', {
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    body: t.exposeString('body', { nullable: true }),
    link: t.exposeString('link', { nullable: true, description: 'A path in the app or an https URL.' }),
    topic: t.exposeString('topicKey', { nullable: true, description: 'The key of the topic it was sent under.' }),
    source: t.expose('source', { type: NoticeSource }),
    postedBy: t.exposeString('postedBy', { nullable: true, description: 'The id of the team member who posted or sent it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    readAt: t.expose('readAt', { type: 'DateTime', nullable: true }),
  }),
});

const NoticeConnection = connectionType(Notice, 'Notice');

builder.prismaObjectFields('Contact', (t) => ({
  notices: t.relatedConnection(
    'notices',
    { cursor: 'id', description: 'Their notice inbox, newest first.', query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } },
    NoticeConnection,
  ),
}));

builder.mutationField('postNotice', (t) =>
  t.prismaField({
    type: 'Notice',
    description:
      "Posts a card to one person's notice inbox, without a push. Refused with unsubscribed (409) when they turned the topic off in-app or turned everything off; a topic must go in-app.",
    args: {
      appModeId: t.arg.id({ required: true }),
      externalId: t.arg.string({ required: true }),
      title: t.arg.string({ required: true, description: '1 to 200 characters.' }),
      body: t.arg.string({ description: 'At most 2,000 characters.' }),
      link: t.arg.string({ description: 'A path in the app (/orders/12) or an https URL, at most 2,000 characters.' }),
      topic: t.arg.string({ description: "A topic's key; the person's in-app choice on it governs the card." }),
    },
    authScopes: (_root, { appModeId }) => ({ reply: { appModeId } }),
    resolve: async (query, _root, { appModeId, externalId, title, body, link, topic }, ctx) => {
      const notice = await postNotice(asStaff(ctx), appModeId, externalId, { title, body, link, topic });
      return ctx.svc.db.notice.findUniqueOrThrow({ ...query, where: { id: notice.id } });
    },
  }),
);
