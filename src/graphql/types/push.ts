import {
  clearPushCredentials,
  pushCredentialsState,
  setApnsCredentials,
  setFcmCredentials,
  setVapidKeys,
  type ProviderState,
} from '../../domain/push/credentials.js';
import { sendPush } from '../../domain/push/send.js';
import { builder, connectionType } from '../builder.js';
import { SendAudienceInput, sendAudienceOf } from './send-audience.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';

// Push on the staff API: each app-mode's provider credentials (admins and owners: manage_settings;
// never answered back), sending a push (to one person any member who may reply; to many, admins and
// owners), and each send's progress.

const PushProvider = builder.enumType('PushProvider', {
  values: {
    apns: { description: 'Apple Push Notification service (ios devices).' },
    fcm: { description: 'Firebase Cloud Messaging (android devices).' },
    web: { description: 'Web Push with VAPID (web devices).' },
  } as const,
});

const PushCredentialState = builder.objectRef<ProviderState>('PushCredentialState').implement({
  description: "Whether a provider's credentials are set, what identifies them and since when: never a secret part.",
  fields: (t) => ({
    provider: t.expose('provider', { type: PushProvider }),
    set: t.exposeBoolean('set'),
    hint: t.exposeString('hint', {
      nullable: true,
      description: 'APNs: key id, team id, bundle id and environment; FCM: project and account; Web Push: the subject.',
    }),
    setAt: t.expose('setAt', { type: 'DateTime', nullable: true }),
    publicKey: t.exposeString('publicKey', {
      nullable: true,
      description: 'Web Push: the VAPID public key, which browsers subscribe with (applicationServerKey). Null for the others.',
    }),
  }),
});

const PushCredentials = builder.objectRef<ProviderState[]>('PushCredentials').implement({
  description: 'Each provider’s credentials as staff may see them.',
  fields: (t) => ({
    apns: t.field({ type: PushCredentialState, resolve: (all) => all.find((c) => c.provider === 'apns')! }),
    fcm: t.field({ type: PushCredentialState, resolve: (all) => all.find((c) => c.provider === 'fcm')! }),
    web: t.field({ type: PushCredentialState, resolve: (all) => all.find((c) => c.provider === 'web')! }),
  }),
});

builder.queryField('pushCredentials', (t) =>
  t.field({
    type: PushCredentials,
    args: { appModeId: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (_root, { appModeId }, ctx) => pushCredentialsState(asStaff(ctx), appModeId),
  }),
);

builder.mutationField('setApnsCredentials', (t) =>
  t.field({
    type: PushCredentialState,
    description: 'Sets the APNs token-authentication key (replacing any): kept sealed, never shown again.',
    args: {
      appModeId: t.arg.id({ required: true }),
      keyP8: t.arg.string({ required: true, description: 'The text of the .p8 file Apple gave for the key.' }),
      keyId: t.arg.string({ required: true, description: 'The key’s 10-character id.' }),
      teamId: t.arg.string({ required: true, description: 'The 10-character team id.' }),
      bundleId: t.arg.string({ required: true, description: 'The app’s bundle id: every push’s apns-topic.' }),
      production: t.arg.boolean({
        required: true,
        description: 'Production APNs (App Store and TestFlight builds), or the sandbox (development builds).',
      }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, ...input }, ctx) => setApnsCredentials(asStaff(ctx), appModeId, input),
  }),
);

builder.mutationField('setFcmCredentials', (t) =>
  t.field({
    type: PushCredentialState,
    description: 'Sets the Firebase service account (replacing any): kept sealed, never shown again.',
    args: {
      appModeId: t.arg.id({ required: true }),
      serviceAccount: t.arg.string({ required: true, description: 'The service account JSON file as the Firebase console downloads it.' }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, serviceAccount }, ctx) => setFcmCredentials(asStaff(ctx), appModeId, serviceAccount),
  }),
);

builder.mutationField('setVapidKeys', (t) =>
  t.field({
    type: PushCredentialState,
    description:
      'Sets the Web Push VAPID keys (replacing any): the pair given, or a new pair made here when neither key is given. The private key is kept sealed, never shown; browsers subscribed with other keys must subscribe again.',
    args: {
      appModeId: t.arg.id({ required: true }),
      subject: t.arg.string({ required: true, description: 'A mailto: address or https URL where push services can reach you.' }),
      publicKey: t.arg.string({ description: 'An existing pair’s public key (base64url).' }),
      privateKey: t.arg.string({ description: 'An existing pair’s private key (base64url).' }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, subject, publicKey, privateKey }, ctx) =>
      setVapidKeys(asStaff(ctx), appModeId, { subject, publicKey, privateKey }),
  }),
);

builder.mutationField('clearPushCredentials', (t) =>
  t.field({
    type: PushCredentialState,
    description: 'Forgets a provider’s credentials: its devices get nothing until new ones are set.',
    args: { appModeId: t.arg.id({ required: true }), provider: t.arg({ type: PushProvider, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_root, { appModeId, provider }, ctx) => clearPushCredentials(asStaff(ctx), appModeId, provider),
  }),
);

const PushSendState = builder.enumType('PushSendState', {
  values: {
    sending: { description: 'Going out, batch by batch.' },
    done: { description: 'Every device was tried.' },
    stopped: { description: 'Stopped before the end (stopReason says why).' },
  } as const,
});

const PushSend = builder.prismaObject('PushSend', {
  description: 'A push staff sent, and how far it has got. The counts are of devices, except people.',
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    title: t.exposeString('title'),
    body: t.exposeString('body', { nullable: true }),
    link: t.exposeString('link', { nullable: true }),
    topic: t.exposeString('topicKey', { nullable: true }),
    audience: t.field({
      type: JSONValue,
      description:
        '{ everyone: true }, { externalId }, or { attributes: { name: value } }; { erased: true } once its one person was erased.',
      resolve: (s) => s.audience,
    }),
    state: t.expose('state', { type: PushSendState }),
    devices: t.exposeInt('devices', { description: 'Devices in the audience when it was sent.' }),
    sent: t.exposeInt('sent'),
    skipped: t.exposeInt('skipped', {
      description: 'Devices of people who turned the topic off by push, or everything off, or lack consent to offers for an offers topic.',
    }),
    gone: t.exposeInt('gone', { description: 'Devices whose token the provider said is gone: forgotten.' }),
    failed: t.exposeInt('failed', { description: 'Refused, given up after 5 tries, or of a platform without credentials.' }),
    people: t.exposeInt('people', { description: 'People reached: each got a notice and a message.sent.' }),
    stopReason: t.exposeString('stopReason', { nullable: true }),
    sentBy: t.exposeString('sentBy', { nullable: true, description: 'The id of the team member who sent it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const PushSendConnection = connectionType(PushSend, 'PushSend');

builder.mutationField('sendPush', (t) =>
  t.prismaField({
    type: 'PushSend',
    description:
      'Sends a push to the audience’s devices, in batches, as a durable process; each person reached also gets it as a notice. People who turned the topic off by push, or everything off, or lack consent to offers for an offers topic, get nothing. Refused with push_credentials_unset (409) while no provider has credentials. A push to one person needs reply; to many, manage_settings.',
    args: {
      appModeId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true, description: '1 to 200 characters.' }),
      body: t.arg.string({ description: 'At most 2,000 characters.' }),
      link: t.arg.string({ description: 'A path in the app (/orders/12) or an https URL.' }),
      topic: t.arg.string({ description: "A topic's key; it must go by push." }),
      audience: t.arg({ type: SendAudienceInput, required: true }),
    },
    authScopes: (_root, { appModeId, audience }) =>
      audience.externalId != null ? { reply: { appModeId } } : { manage_settings: { appModeId } },
    resolve: async (query, _root, { appModeId, audience, ...content }, ctx) => {
      const send = await sendPush(asStaff(ctx), appModeId, {
        ...content,
        audience: sendAudienceOf(audience),
      });
      return ctx.svc.db.pushSend.findUniqueOrThrow({ ...query, where: { id: send.id } });
    },
  }),
);

builder.queryField('pushSend', (t) =>
  t.prismaField({
    type: 'PushSend',
    nullable: true,
    args: { appModeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    resolve: (query, _root, { appModeId, id }, ctx) => ctx.svc.db.pushSend.findFirst({ ...query, where: { id, appModeId } }),
  }),
);

builder.queryField('pushSends', (t) =>
  t.prismaConnection(
    {
      type: 'PushSend',
      cursor: 'id',
      description: 'The app-mode’s pushes, the latest first.',
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.pushSend.findMany({ ...query, where: { appModeId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    PushSendConnection,
  ),
);
