import type { WebhookEndpoint as EndpointRow } from '../../generated/prisma/client.js';
import {
  appWebhookSecretState,
  renewAppWebhookSecret,
  type AppWebhookSecretState,
  type NewAppWebhookSecret as NewAppSecret,
} from '../../domain/webhooks/app-secret.js';
import {
  addWebhookEndpoint,
  changeWebhookEndpoint,
  removeWebhookEndpoint,
  renewWebhookSecret,
  switchWebhookEndpoint,
  type EndpointWithSecret,
} from '../../domain/webhooks/endpoints.js';
import { sendTestPing, TEST_TOPIC } from '../../domain/webhooks/test-ping.js';
import { EMITTED_TOPICS, WEBHOOK_TOPICS } from '../../domain/webhooks/topics.js';
import { endpointTries, logPage, type TriesChange } from '../../domain/webhooks/tries-live.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { liveFor } from '../subscription-access.js';
import { connectionOf } from '../pages.js';

// Webhook endpoints: admins and owners add, change, switch and remove them and renew their secret
// (manage_settings); everyone who reads the app sees them and their log of tries, also live. The
// app-mode's own webhook secret (for workflow steps' posts) is made and renewed the same way.

const WebhookTry = builder.prismaObject('WebhookTry', {
  description: 'One try to post an event: never its body.',
  fields: (t) => ({
    id: t.exposeID('id'),
    deliveryId: t.exposeString('deliveryId', { description: 'The X-CRM-Delivery of the post, the same on each of its tries.' }),
    topic: t.exposeString('topic'),
    attempt: t.exposeInt('attempt'),
    delivered: t.exposeBoolean('delivered'),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's answer, when one came." }),
    failure: t.exposeString('failure', {
      nullable: true,
      description: 'Why no answer came: timeout, connect, tls, refused_address, redirect…',
    }),
    durationMs: t.exposeInt('durationMs'),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const WebhookEndpoint = builder.prismaObject('WebhookEndpoint', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    url: t.exposeString('url'),
    topics: t.exposeStringList('topics'),
    description: t.exposeString('description', { nullable: true }),
    secretHint: t.exposeString('secretHint', { description: 'The prefix and last four characters of the signing secret.' }),
    enabled: t.exposeBoolean('enabled'),
    failures: t.exposeInt('failures', { description: 'Failed posts since the last one delivered (or since it was switched on).' }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true }),
    switchedOffAt: t.expose('switchedOffAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the service switched it off after 24 hours of failures.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    tries: t.relatedConnection('tries', {
      cursor: 'id',
      description: 'The log: the last 50 tries, newest first.',
      query: { orderBy: [{ at: 'desc' }, { id: 'desc' }] },
    }),
  }),
});

const WebhookEndpointConnection = connectionType(WebhookEndpoint, 'WebhookEndpoint');

const WebhookTopic = builder.objectRef<{ name: string; emitted: boolean }>('WebhookTopic').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    emitted: t.exposeBoolean('emitted', { description: 'Whether the service posts it yet (the others wait for their areas).' }),
  }),
});

const NewWebhookSecret = builder.objectRef<EndpointWithSecret>('NewWebhookSecret').implement({
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpoint, resolve: (r) => r.endpoint as EndpointRow }),
    secret: t.exposeString('secret', { description: 'The whsec_… signing secret, shown this once: only a sealed copy is kept.' }),
  }),
});

builder.queryField('webhookTopics', (t) =>
  t.field({
    type: [WebhookTopic],
    description: 'Every topic an endpoint may ask for.',
    resolve: () => WEBHOOK_TOPICS.map((name) => ({ name, emitted: EMITTED_TOPICS.includes(name) })),
  }),
);

builder.queryField('webhookEndpoints', (t) =>
  t.prismaConnection(
    {
      type: 'WebhookEndpoint',
      cursor: 'id',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.webhookEndpoint.findMany({ ...query, where: { appModeId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    },
    WebhookEndpointConnection,
  ),
);

const EndpointInput = builder.inputType('WebhookEndpointInput', {
  description: 'Only the fields given change.',
  fields: (t) => ({
    url: t.string({ description: 'An https address; where it resolves is checked at each post (public addresses only).' }),
    topics: t.stringList({ description: 'Topics from webhookTopics.' }),
    description: t.string(),
  }),
});

builder.mutationField('addWebhookEndpoint', (t) =>
  t.field({
    type: NewWebhookSecret,
    description: 'Adds an endpoint (at most 20 per app, both modes together) and shows its secret once.',
    args: {
      appModeId: t.arg.id({ required: true }),
      url: t.arg.string({ required: true }),
      topics: t.arg.stringList({ required: true }),
      description: t.arg.string(),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, url, topics, description }, ctx) =>
      addWebhookEndpoint(asStaff(ctx), appModeId, { url, topics, description }),
  }),
);

builder.mutationField('changeWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpoint,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: EndpointInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { webhookEndpointId: id } }),
    resolve: (_root, { id, input }, ctx) =>
      changeWebhookEndpoint(asStaff(ctx), id, {
        url: input.url ?? undefined,
        topics: input.topics ?? undefined,
        description: input.description,
      }),
  }),
);

builder.mutationField('switchWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpoint,
    description: 'Switches posting on or off; switching on starts the failure count afresh.',
    args: { id: t.arg.id({ required: true }), on: t.arg.boolean({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { webhookEndpointId: id } }),
    resolve: (_root, { id, on }, ctx) => switchWebhookEndpoint(asStaff(ctx), id, on),
  }),
);

builder.mutationField('renewWebhookSecret', (t) =>
  t.field({
    type: NewWebhookSecret,
    description: 'A new signing secret, shown once; the old one signs nothing from now on.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { webhookEndpointId: id } }),
    resolve: (_root, { id }, ctx) => renewWebhookSecret(asStaff(ctx), id),
  }),
);

builder.mutationField('sendWebhookTest', (t) =>
  t.prismaField({
    type: 'WebhookTry',
    description: `Posts a ping to the endpoint at once (type ${TEST_TOPIC}, data { endpoint_id }, no contact), signed like every post, and answers its try.`,
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { webhookEndpointId: id } }),
    resolve: async (query, _root, { id }, ctx) => {
      const tried = await sendTestPing(asStaff(ctx), id, { testTrust: ctx.svc.config.outboundTestTrust });
      // Tries sent at the same time may already have trimmed this one from the log of the last 50: the row made answers then.
      return (await ctx.svc.db.webhookTry.findUnique({ ...query, where: { id: tried.id } })) ?? tried;
    },
  }),
);

builder.mutationField('removeWebhookEndpoint', (t) =>
  t.boolean({
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { webhookEndpointId: id } }),
    resolve: async (_root, { id }, ctx) => {
      await removeWebhookEndpoint(asStaff(ctx), id);
      return true;
    },
  }),
);

const WebhookTryConnection = connectionType(WebhookTry, 'WebhookTry');

const WebhookTriesChange = builder.objectRef<TriesChange>('WebhookTriesChange').implement({
  description: "One step of webhookTries: the endpoint's log as it is (reload), or the one try just logged.",
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Increasing; name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description:
        'The whole log rather than the next try: the first answer without `after`, or when `after` is older than the outbox keeps (7 days).',
    }),
    log: t.connection(
      {
        type: WebhookTry,
        nullable: true,
        description: 'On reload, the log as it was read then: the last 50 tries, newest first. Null otherwise.',
        resolve: (change, { first, after }) => (change.log ? connectionOf(logPage(change.log, { first, after }), after) : null),
      },
      WebhookTryConnection,
    ),
    try: t.field({
      type: WebhookTry,
      nullable: true,
      description: 'The try just logged; null on reload.',
      resolve: (change) => change.try,
    }),
  }),
});

builder.subscriptionField('webhookTries', (t) =>
  t.field({
    type: WebhookTriesChange,
    description:
      "An endpoint's tries as they are logged by any server process: status, response code, duration and time, never a body. The log first, or with `after` (a version it sent) each try since then; ends with unauthenticated, not_found or role_forbids when the session is signed out or the membership ends or changes.",
    args: { endpointId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { endpointId }) => ({ read: { webhookEndpointId: endpointId } }),
    subscribe: (_root, { endpointId, after }, ctx) =>
      liveFor(ctx, { webhookEndpointId: endpointId }, 'read', (signal) => endpointTries(asStaff(ctx), endpointId, { after, signal })),
    resolve: (change) => change,
  }),
);

const AppWebhookSecret = builder.objectRef<AppWebhookSecretState>('AppWebhookSecret').implement({
  description:
    "Whether the app-mode has its own webhook secret (what its workflows' webhook steps sign with), and since when; never its value.",
  fields: (t) => ({
    appModeId: t.exposeID('appModeId'),
    set: t.exposeBoolean('set'),
    secretHint: t.exposeString('secretHint', { nullable: true, description: 'The prefix and last four characters of the secret.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true, description: 'When the current secret was made.' }),
  }),
});

const NewAppWebhookSecret = builder.objectRef<NewAppSecret>('NewAppWebhookSecret').implement({
  fields: (t) => ({
    appModeId: t.exposeID('appModeId'),
    secret: t.exposeString('secret', { description: 'The whsec_… secret, shown this once: only a sealed copy is kept.' }),
    secretHint: t.exposeString('secretHint'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('appWebhookSecret', (t) =>
  t.field({
    type: AppWebhookSecret,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => appWebhookSecretState(asStaff(ctx), appModeId),
  }),
);

builder.mutationField('renewAppWebhookSecret', (t) =>
  t.field({
    type: NewAppWebhookSecret,
    description:
      "Makes the app-mode's own webhook secret, which its workflows' webhook steps sign their posts with (X-CRM-Signature, as endpoint posts), and shows it once; a new one replaces the old at once.",
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => renewAppWebhookSecret(asStaff(ctx), appModeId),
  }),
);
