import { keyset, pagedEntries, EXPORT_PAGE, type PersonalDataArea } from '../personal-data/registry.js';
import { answerText, type KeptAnswer } from './answers.js';

// What surveys keep about a person: their answers to each survey (and test copy) they answered,
// the export's `surveyResponses` ({ question, answer }: the question's title and the answer as
// words), read a page of responses at a time while the export is written. Erased in both modes.

export const surveyData: PersonalDataArea = {
  name: 'surveys',
  tables: ['survey_response'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contactId = (await db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } }))
      ?.id;
    if (!contactId) return undefined;
    const read = (last: { messageId: string } | undefined, take: number) =>
      db.surveyResponse.findMany({
        where: { contactId },
        select: { messageId: true, answers: true },
        orderBy: { messageId: 'asc' },
        ...keyset(last && { messageId_contactId: { messageId: last.messageId, contactId } }, take),
      });
    const first = await read(undefined, EXPORT_PAGE);
    if (!first.length) return undefined;
    const entries = (page: typeof first) =>
      page.flatMap((r) => (r.answers as unknown as KeptAnswer[]).map((a) => ({ question: a.title, answer: answerText(a) })));
    return { surveyResponses: pagedEntries(read, entries, first) };
  },
  async erase({ db }, { externalId, appModeIds }) {
    const contacts = await db.contact.findMany({ where: { appModeId: { in: appModeIds }, externalId }, select: { id: true } });
    const removed = await db.surveyResponse.deleteMany({ where: { contactId: { in: contacts.map((c) => c.id) } } });
    return { surveyResponses: removed.count };
  },
};
