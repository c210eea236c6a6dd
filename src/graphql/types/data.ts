import { asStaff } from '../context.js';
import { defineAttribute, markAttributeReviewed } from '../../domain/contacts/attribute-review.js';
import { dailyCounts, DEFAULT_COUNT_DAYS } from '../../domain/events/daily-counts.js';
import { propsOf } from '../../domain/events/definitions.js';
import type { PropDefinition } from '../../domain/events/props.js';
import { refusedEvents } from '../../domain/events/refusals.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { connectionOf, olderPage } from '../pages.js';
import { AttributeType } from './contacts.js';

// An app-mode's Data page: attribute and event definitions, daily event counts and refused
// events. Any member reads; changing definitions takes an owner or admin, like other settings.

const AttributeDefinition = builder.prismaObject('AttributeDefinition', {
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.expose('type', { type: AttributeType, description: 'Never changes once given.' }),
    needsReview: t.exposeBoolean('needsReview', { description: 'Made on first sight from a value, and not yet looked at by staff.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AttributeDefinitionConnection = connectionType(AttributeDefinition, 'AttributeDefinition');

builder.queryField('attributeDefinitions', (t) =>
  t.prismaConnection(
    {
      type: 'AttributeDefinition',
      cursor: 'id',
      description: 'Custom contact attributes of an app-mode, by name.',
      args: {
        appModeId: t.arg.id({ required: true }),
        needsReview: t.arg.boolean({ description: 'Only those waiting for review (true) or not (false).' }),
      },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, needsReview }, ctx) =>
        ctx.svc.db.attributeDefinition.findMany({
          ...query,
          where: { appModeId, needsReview: needsReview ?? undefined },
          orderBy: { name: 'asc' },
        }),
    },
    AttributeDefinitionConnection,
  ),
);

builder.mutationField('reviewAttributeDefinition', (t) =>
  t.prismaField({
    type: 'AttributeDefinition',
    description: 'Marks an attribute made on first sight as reviewed.',
    args: { appModeId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, name }, ctx) => {
      await markAttributeReviewed(asStaff(ctx), appModeId, name);
      return ctx.svc.db.attributeDefinition.findUniqueOrThrow({ ...query, where: { appModeId_name: { appModeId, name } } });
    },
  }),
);

builder.mutationField('defineAttribute', (t) =>
  t.prismaField({
    type: 'AttributeDefinition',
    description: 'Declares an attribute ahead of data. The same name and type again changes nothing; another type is refused.',
    args: {
      appModeId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      type: t.arg({ type: AttributeType, required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, name, type }, ctx) => {
      await defineAttribute(asStaff(ctx), appModeId, name, type);
      return ctx.svc.db.attributeDefinition.findUniqueOrThrow({ ...query, where: { appModeId_name: { appModeId, name } } });
    },
  }),
);

const EventProp = builder.objectRef<PropDefinition>('EventProp').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    type: t.exposeString('type', { description: 'string, number, bool, time or money.' }),
  }),
});

const DailyCount = builder.prismaObject('EventDailyCount', {
  fields: (t) => ({
    day: t.string({ description: 'The UTC day, YYYY-MM-DD.', resolve: (c) => c.day.toISOString().slice(0, 10) }),
    platform: t.exposeString('platform', { description: 'server, ios, android or web.' }),
    count: t.exposeInt('count'),
  }),
});

const EventDefinition = builder.prismaObject('EventDefinition', {
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    source: t.exposeString('source', { description: 'server, or both when the app’s client sends it too.' }),
    props: t.field({ type: [EventProp], resolve: (d) => propsOf(d.props) }),
    declared: t.exposeBoolean('declared', { description: 'Declared by the customer’s backend; false when made on first sight only.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    dailyCounts: t.field({
      type: [DailyCount],
      description: 'Counts per UTC day and platform over the last days, today included; oldest day first.',
      args: { days: t.arg.int({ defaultValue: DEFAULT_COUNT_DAYS }) },
      resolve: (d, { days }, ctx) =>
        batchLoad(ctx, `dailyCounts:${d.appModeId}:${days}`, d.name, (names) => dailyCounts(asStaff(ctx), d.appModeId, names, days)),
    }),
  }),
});

const EventDefinitionConnection = connectionType(EventDefinition, 'EventDefinition');

builder.queryField('eventDefinitions', (t) =>
  t.prismaConnection(
    {
      type: 'EventDefinition',
      cursor: 'id',
      description: 'Events of an app-mode, declared or made on first sight, by name.',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.eventDefinition.findMany({ ...query, where: { appModeId }, orderBy: { name: 'asc' } }),
    },
    EventDefinitionConnection,
  ),
);

const RefusedEventRef = builder.prismaObject('RefusedEvent', {
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Its place in the batch it came in.' }),
    eventId: t.exposeString('eventId', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    externalId: t.exposeString('externalId', { nullable: true }),
    reason: t.exposeString('reason'),
    detail: t.exposeString('detail'),
    source: t.exposeString('source', { description: 'server or guest.' }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
  }),
});

const RefusedEventConnection = connectionType(RefusedEventRef, 'RefusedEvent');

builder.queryField('refusedEvents', (t) =>
  t.connection(
    {
      type: RefusedEventRef,
      description: 'Events refused from batches, newest batch first, each batch in the order sent: the next page is older.',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      // refusedEvents reads backwards in time: its `before` is this list's next page.
      resolve: async (_root, { appModeId, first, after }, ctx) =>
        connectionOf(await olderPage(refusedEvents(asStaff(ctx), appModeId, { first, before: after })), after),
    },
    RefusedEventConnection,
  ),
);
