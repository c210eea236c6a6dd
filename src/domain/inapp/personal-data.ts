import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';

// What in-app messages keep about a person: their receipts (the export's `receipts`: each message
// they were sent or counted for, with when they saw, tapped, dismissed and completed it), whether
// they are a test phone (`testPhone`), the test copies sent to them (`testSends`), and their last
// check-in. Receipts and test copies are read a page at a time while the export is written. Erased
// in both modes.

const iso = (d: Date | null) => d?.toISOString() ?? null;

const contactsOf = async (db: Parameters<PersonalDataArea['erase']>[0]['db'], appModeIds: string[], externalId: string) =>
  (await db.contact.findMany({ where: { appModeId: { in: appModeIds }, externalId }, select: { id: true } })).map((c) => c.id);

export const inAppData: PersonalDataArea = {
  name: 'inapp',
  tables: ['inapp_receipt', 'inapp_test_phone', 'inapp_test_send', 'inapp_checkin', 'inapp_workflow_send'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contactId = (await db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } }))
      ?.id;
    if (!contactId) return undefined;
    const [receipts, phone, testSends] = await Promise.all([
      pagedMember(
        (last: { messageId: string } | undefined, take) =>
          db.inAppReceipt.findMany({
            where: { contactId },
            include: { message: { select: { kind: true } } },
            orderBy: [{ assignedAt: 'asc' }, { messageId: 'asc' }],
            ...keyset(last && { messageId_contactId: { messageId: last.messageId, contactId } }, take),
          }),
        (r) => ({
          message: r.messageId,
          kind: r.message.kind,
          variant: r.variant,
          sentAt: iso(r.sentAt),
          seenAt: iso(r.seenAt),
          clickedAt: iso(r.clickedAt),
          dismissedAt: iso(r.dismissedAt),
          completedAt: iso(r.completedAt),
        }),
      ),
      db.inAppTestPhone.findUnique({ where: { contactId } }),
      pagedMember(
        (last: { id: string } | undefined, take) =>
          db.inAppTestSend.findMany({
            where: { contactId },
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
            ...keyset(last && { id: last.id }, take),
          }),
        (s) => ({
          id: s.id,
          message: s.messageId,
          kind: s.kind,
          variant: s.variant,
          sentAt: s.createdAt.toISOString(),
          deliveredAt: iso(s.deliveredAt),
          seenAt: iso(s.seenAt),
          clickedAt: iso(s.clickedAt),
          dismissedAt: iso(s.dismissedAt),
          completedAt: iso(s.completedAt),
        }),
      ),
    ]);
    if (!receipts && !phone && !testSends) return undefined;
    return { receipts: receipts ?? [], testPhone: phone !== null, testSends: testSends ?? [] };
  },
  async erase({ db }, { externalId, appModeIds }) {
    const contactId = { in: await contactsOf(db, appModeIds, externalId) };
    const [receipts, testPhones, testSends, checkins, workflowSends] = await Promise.all([
      db.inAppReceipt.deleteMany({ where: { contactId } }),
      db.inAppTestPhone.deleteMany({ where: { contactId } }),
      db.inAppTestSend.deleteMany({ where: { contactId } }),
      db.inAppCheckin.deleteMany({ where: { contactId } }),
      db.inAppWorkflowSend.deleteMany({ where: { contactId } }),
    ]);
    return {
      inAppReceipts: receipts.count,
      inAppTestPhones: testPhones.count,
      inAppTestSends: testSends.count,
      inAppCheckins: checkins.count,
      inAppWorkflowSends: workflowSends.count,
    };
  },
};
