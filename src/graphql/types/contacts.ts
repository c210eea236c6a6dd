import { asStaff } from '../context.js';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { AttributeType as AttributeTypeName } from '../../domain/contacts/attributes.js';
import { consentOf, type Consent } from '../../domain/contacts/consent.js';
import { checkEraseState, requestEraseByStaff } from '../../domain/contacts/erasure.js';
import { CONTACT_EXPORT_SECONDS, contactExportAddress } from '../../domain/contacts/export-address.js';
import { PAST_CONVERSATIONS_ORDER, staffContactWhere } from '../../domain/contacts/staff.js';
import { contactChanges, type ContactChange } from '../../domain/contacts/live.js';
import { searchContacts } from '../../domain/contacts/search.js';
import { notFound } from '../../domain/errors.js';
import { eventsOfContacts } from '../../domain/events/contact-events.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import type { StaffContext } from '../context.js';
import { JSONValue } from '../json.js';
import { connectionOf, olderPage } from '../pages.js';
import { liveFor } from '../subscription-access.js';
import { ConversationConnection } from './conversations.js';

// Contacts as staff see them: the list with search, one person with their typed attributes,
// consent and its history, their events and conversations, and the app's erase requests. Any member
// reads; erasing a person and downloading their export are for owners and admins.

export const AttributeType = builder.enumType('AttributeType', {
  values: ['string', 'number', 'boolean', 'date', 'time', 'list'] as const,
});
const ConsentChannel = builder.enumType('ConsentChannel', { values: ['email', 'push'] as const });

const ContactAttribute = builder.objectRef<{ name: string; type: AttributeTypeName; value: unknown }>('ContactAttribute').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.expose('type', { type: AttributeType, description: "The type of the app's definition of the attribute." }),
    value: t.expose('value', {
      type: JSONValue,
      description: 'A string, number, boolean or list of strings; dates and times are strings.',
    }),
  }),
});

const ConsentObject = builder.objectRef<Consent>('Consent').implement({
  description: 'Consent to offers per channel; a channel the person never chose on reads false.',
  fields: (t) => ({
    offersByEmail: t.exposeBoolean('offersByEmail'),
    offersByPush: t.exposeBoolean('offersByPush'),
    changedAt: t.expose('changedAt', { type: 'DateTime', nullable: true, description: 'The latest choice on either channel.' }),
  }),
});

const ConsentChange = builder.prismaObject('ConsentChange', {
  fields: (t) => ({
    channel: t.expose('channel', { type: ConsentChannel }),
    value: t.exposeBoolean('value'),
    changedAt: t.expose('changedAt', { type: 'DateTime', description: 'When the person chose.' }),
    source: t.exposeString('source', { description: 'guest (the person in the app) or server (the customer’s backend).' }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime' }),
  }),
});

const ConsentChangeConnection = connectionType(ConsentChange, 'ConsentChange');

const EventRef = builder.prismaObject('Event', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    source: t.exposeString('source', { description: 'server or guest.' }),
    platform: t.exposeString('platform', { nullable: true, description: 'ios, android or web for guest events.' }),
    props: t.expose('props', { type: JSONValue, description: 'Values as read by the definition’s prop types.' }),
  }),
});

const EventConnection = connectionType(EventRef, 'Event');

/** The types of these attributes by the app-mode's definitions. */
async function attributeTypes(ctx: StaffContext, appModeId: string, names: readonly string[]) {
  const defs = await ctx.svc.db.attributeDefinition.findMany({
    where: { appModeId, name: { in: [...names] } },
    select: { name: true, type: true },
  });
  return new Map(defs.map((d) => [d.name, d.type]));
}

const ContactRef = builder.prismaObject('Contact', {
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The contact’s id in this service, as `createTicket(contactId)` takes it.' }),
    externalId: t.exposeString('externalId'),
    displayName: t.exposeString('displayName', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    language: t.exposeString('language', { nullable: true }),
    timeZone: t.exposeString('timeZone', { nullable: true }),
    provider: t.exposeString('provider', { nullable: true }),
    signedUpAt: t.expose('signedUpAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    attributes: t.field({
      type: [ContactAttribute],
      description: 'Custom attributes by name.',
      resolve: async (contact, _args, ctx) => {
        const kept = Object.entries(contact.attributes as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
        const types = await Promise.all(
          kept.map(([name]) =>
            batchLoad(ctx, `attributeTypes:${contact.appModeId}`, name, (names) => attributeTypes(ctx, contact.appModeId, names)),
          ),
        );
        // Identify defines every attribute before keeping a value, and definitions are never removed.
        return kept.map(([name, value], i) => ({ name, value, type: types[i]! }));
      },
    }),
    consent: t.field({ type: ConsentObject, resolve: (contact) => consentOf(contact) }),
    consentHistory: t.relatedConnection(
      'consentChanges',
      {
        cursor: 'id',
        description: 'Every consent choice taken, newest first.',
        query: { orderBy: [{ recordedAt: 'desc' }, { channel: 'asc' }, { id: 'asc' }] },
      },
      ConsentChangeConnection,
    ),
    conversations: t.relatedConnection(
      'conversations',
      {
        cursor: 'id',
        description: 'Their conversations in this mode, the latest activity first (what the inbox’s `conversation` opens).',
        query: { orderBy: PAST_CONVERSATIONS_ORDER },
      },
      ConversationConnection,
    ),
    events: t.connection(
      {
        type: EventRef,
        description: 'The person’s events in this mode, newest first: the next page is older.',
        // Every listed person's page comes from one read (eventsOfContacts reads backwards in time).
        resolve: async ({ appModeId, externalId }, { first, after }, ctx) =>
          connectionOf(
            await olderPage(
              batchLoad(ctx, JSON.stringify(['events', appModeId, first, after]), externalId, (ids) =>
                eventsOfContacts(asStaff(ctx), appModeId, ids, { first, before: after }),
              ),
            ),
            after,
          ),
      },
      EventConnection,
    ),
  }),
});

const ContactConnection = connectionType(ContactRef, 'Contact');

builder.queryField('contacts', (t) =>
  t.connection(
    {
      type: ContactRef,
      description:
        'Contacts of an app-mode, most recently updated first; search finds text in the external id, email or display name, in any case.',
      args: { appModeId: t.arg.id({ required: true }), search: t.arg.string() },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: async (_root, { appModeId, search, first, after }, ctx, info) => {
        const page = await searchContacts(asStaff(ctx), appModeId, { search, first, after });
        // The search has a rule (the domain's); reading the rows it found is plain, planned by Pothos.
        const query = queryFromInfo({ context: ctx, info, typeName: 'Contact', paths: [['edges', 'node']] });
        const keyed = 'select' in query && query.select ? { select: { ...query.select, id: true, updatedAt: true } } : query;
        const rows = new Map(
          (await ctx.svc.db.contact.findMany({ ...keyed, where: { id: { in: page.ids }, eraseRequestedAt: null } })).map((c) => [c.id, c]),
        );
        // A contact erased (or being erased) since the page was read is left out.
        const found = page.ids.flatMap((id, i) => (rows.has(id) ? [{ item: rows.get(id)!, cursor: page.cursors[i]! }] : []));
        return connectionOf({ items: found.map((f) => f.item), cursors: found.map((f) => f.cursor), nextCursor: page.nextCursor }, after);
      },
    },
    ContactConnection,
  ),
);

builder.queryField('contact', (t) =>
  t.prismaField({
    type: 'Contact',
    description: 'One contact of the app-mode, by the customer’s id for them (`externalId`) or this service’s (`id`): one of the two.',
    args: {
      appModeId: t.arg.id({ required: true }),
      externalId: t.arg.string(),
      id: t.arg.id({ description: 'The contact’s id in this service (Contact.id).' }),
    },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: async (query, _root, { appModeId, externalId, id }, ctx) => {
      const contact = await ctx.svc.db.contact.findFirst({ ...query, where: staffContactWhere(appModeId, { id, externalId }) });
      if (!contact) throw notFound('No such contact.');
      return contact;
    },
  }),
);

const ContactChangeRef = builder.objectRef<ContactChange>('ContactChange').implement({
  description: 'One step of a contacts subscription: reload (read the list again), or a person just made.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Increasing; name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description: 'Read the list again: the first answer without `after`, or when `after` is older than the outbox keeps (7 days).',
    }),
    contact: t.prismaField({
      type: 'Contact',
      nullable: true,
      description: 'The person made, as they are now; null on reload, or when they are gone or being erased since.',
      resolve: (query, change, _args, ctx) =>
        change.externalId === null
          ? null
          : ctx.svc.db.contact.findFirst({ ...query, where: staffContactWhere(change.appModeId, { externalId: change.externalId }) }),
    }),
  }),
});

builder.subscriptionField('contactsChanged', (t) =>
  t.field({
    type: ContactChangeRef,
    description:
      'Each person made in the app-mode by identify (the server API’s `PUT /server/v1/contacts/{external_id}`), from any server process, in order; changes to people already there and people first seen by the guest API come at the list’s next reading. Ends with unauthenticated, not_found or role_forbids when the session or membership ends.',
    args: { appModeId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId, after }, ctx) =>
      liveFor(ctx, { appModeId }, 'read', (signal) => contactChanges(asStaff(ctx), appModeId, { after, signal })),
    resolve: (change) => change,
  }),
);

builder.mutationField('eraseContact', (t) =>
  t.prismaField({
    type: 'EraseRequest',
    description:
      'Erases the person from the app, in both modes, as the server API’s `DELETE /server/v1/contacts/{external_id}` does: queued, done within minutes (follow it in `eraseRequests`), Identify and events for their id refused for 30 days. Asking twice is safe: the request already made is the answer. Owners and admins (who may make the server keys that erase too).',
    args: { appModeId: t.arg.id({ required: true }), id: t.arg.id({ required: true, description: 'The contact’s id (Contact.id).' }) },
    authScopes: (_root, { appModeId }) => ({ manage_keys: { appModeId } }),
    resolve: async (_query, _root, { appModeId, id }, ctx) => (await requestEraseByStaff(asStaff(ctx), appModeId, id)).request,
  }),
);

const ContactExportAddress = builder.objectRef<{ url: string; expiresAt: Date }>('ContactExportAddress').implement({
  description: 'Where to download one person’s export: an address of this service, signed, good for a few minutes.',
  fields: (t) => ({
    url: t.exposeString('url', {
      description:
        'GET answers the export as a file (`GET /public/v1/contact-exports/{token}`): the same body as the server API’s export, for this person only. The address is the credential: do not share or log it.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'After this the address is refused (403 address_expired).' }),
  }),
});

builder.mutationField('exportContact', (t) =>
  t.field({
    type: ContactExportAddress,
    description: `An address to download everything kept about the person in this mode, as the server API’s \`GET /server/v1/contacts/{external_id}/export\` answers it; good for ${CONTACT_EXPORT_SECONDS / 60} minutes and for this person only. Owners and admins (who may make the server keys that export too).`,
    args: { appModeId: t.arg.id({ required: true }), id: t.arg.id({ required: true, description: 'The contact’s id (Contact.id).' }) },
    authScopes: (_root, { appModeId }) => ({ manage_keys: { appModeId } }),
    resolve: (_root, { appModeId, id }, ctx) => contactExportAddress(asStaff(ctx), appModeId, id),
  }),
);

const EraseRequest = builder.prismaObject('EraseRequest', {
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', {
      nullable: true,
      description: 'Kept until the erase is done; after that the block keeps only a keyed hash of it.',
    }),
    requestedAt: t.expose('requestedAt', { type: 'DateTime' }),
    blockedUntil: t.expose('blockedUntil', { type: 'DateTime', description: 'Identify and events for the id are refused until then.' }),
    state: t.exposeString('state', { description: 'queued, running or done.' }),
    finishedAt: t.expose('finishedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was done; while not done, when its last run gave up (the next sweep starts another).',
    }),
    removed: t.expose('removed', { type: JSONValue, nullable: true, description: 'Rows removed, by kind, once the erase has run.' }),
  }),
});

const EraseRequestConnection = connectionType(EraseRequest, 'EraseRequest');

builder.queryField('eraseRequests', (t) =>
  t.prismaConnection(
    {
      type: 'EraseRequest',
      cursor: 'id',
      description: 'Requests to erase a person from the app (both modes), newest first.',
      args: { appId: t.arg.id({ required: true }), state: t.arg.string({ description: 'queued, running or done; all when left out.' }) },
      authScopes: (_root, { appId }) => ({ read: { appId } }),
      resolve: (query, _root, { appId, state }, ctx) => {
        checkEraseState(state);
        return ctx.svc.db.eraseRequest.findMany({
          ...query,
          where: { appId, state: state ?? undefined },
          orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }],
        });
      },
    },
    EraseRequestConnection,
  ),
);
