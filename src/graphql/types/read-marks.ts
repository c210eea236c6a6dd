import { markReadByStaff, MAX_READ_MARKS_ASKED, readMarks, type ReadMark } from '../../domain/inbox/read-marks.js';
import { builder } from '../builder.js';
import { asStaff } from '../context.js';

// The asking member's own read marks: the console's unread marks (src/domain/inbox/read-marks.ts).
// They are the viewer's own records, so they are asked for by themselves and never ride on
// Conversation (whose fields are the same for every member with the same rights).

const ReadMarkRef = builder.objectRef<ReadMark>('ConversationReadMark').implement({
  description: 'How far the asking member has read a conversation.',
  fields: (t) => ({
    conversationId: t.exposeID('conversationId'),
    readSeq: t.exposeInt('readSeq', {
      description: 'The seq of the last part they had on screen: the conversation is unread for them while its lastSeq is beyond it.',
    }),
  }),
});

builder.queryField('conversationReadMarks', (t) =>
  t.field({
    type: [ReadMarkRef],
    description:
      `The asking member's read marks on the conversations named (at most ${MAX_READ_MARKS_ASKED}; invalid naming ids beyond). ` +
      'A conversation they never read has none: unread while it has any part.',
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, { ids }, ctx) => readMarks(asStaff(ctx), ids.map(String)),
  }),
);

builder.mutationField('markConversationRead', (t) =>
  t.int({
    description:
      'The asking member has had the conversation on screen up to the part `seq`: their mark moves there (never back, never past the last part). Answers the mark now.',
    args: { id: t.arg.id({ required: true }), seq: t.arg.int({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { conversationId: id } }),
    resolve: (_root, { id, seq }, ctx) => markReadByStaff(asStaff(ctx), String(id), seq),
  }),
);
