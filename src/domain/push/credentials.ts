import type { PushProvider } from '../../generated/prisma/client.js';
import { apnsKeyProblem, type ApnsCredentials } from '../../lib/push/apns.js';
import { readServiceAccount, type ServiceAccount } from '../../lib/push/fcm.js';
import { newVapidKeys, vapidProblems, type VapidKeys } from '../../lib/push/web-push.js';
import type { Ctx, StaffCaller } from '../context.js';
import { invalid, type FieldError } from '../errors.js';

// Each app-mode's credentials for the push providers, set by staff (manage_settings): the APNs .p8
// key with its key id, team id, bundle id and environment; the FCM service account file; the
// VAPID keys for Web Push (given, or made here). Sealed at rest like the identity secret and opened
// only to send; never answered back: staff see which are set, a hint and since when (and the VAPID
// public key, which browsers subscribe with).

export const PROVIDERS = ['apns', 'fcm', 'web'] as const satisfies readonly PushProvider[];

export interface ProviderState {
  provider: PushProvider;
  set: boolean;
  /** What identifies them without a secret part: ids, bundle, project, account, subject. */
  hint: string | null;
  setAt: Date | null;
  /** Web Push: the VAPID public key (the applicationServerKey browsers subscribe with). */
  publicKey: string | null;
}

/** The credentials as the sender uses them, opened. */
export interface OpenCredentials {
  apns?: ApnsCredentials;
  fcm?: ServiceAccount;
  web?: VapidKeys;
}

export interface ApnsInput {
  /** The .p8 file's text. */
  keyP8: string;
  keyId: string;
  teamId: string;
  bundleId: string;
  /** Production APNs, or the sandbox (development builds). */
  production: boolean;
}

const APPLE_ID = /^[A-Z0-9]{10}$/;
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export async function setApnsCredentials(ctx: Ctx<StaffCaller>, appModeId: string, input: ApnsInput): Promise<ProviderState> {
  const errors: FieldError[] = [];
  const keyProblem = apnsKeyProblem(input.keyP8);
  if (keyProblem) errors.push({ field: 'keyP8', message: keyProblem });
  if (!APPLE_ID.test(input.keyId))
    errors.push({ field: 'keyId', message: 'must be the key’s 10-character id (capital letters and digits)' });
  if (!APPLE_ID.test(input.teamId))
    errors.push({ field: 'teamId', message: 'must be the 10-character team id (capital letters and digits)' });
  if (!BUNDLE_ID.test(input.bundleId) || input.bundleId.length > 155)
    errors.push({ field: 'bundleId', message: 'must be the app’s bundle id, such as com.example.app' });
  if (errors.length) throw invalid(errors);
  const creds: ApnsCredentials = {
    privateKey: input.keyP8,
    keyId: input.keyId,
    teamId: input.teamId,
    bundleId: input.bundleId,
    production: input.production,
  };
  return keep(
    ctx,
    appModeId,
    'apns',
    creds,
    `key ${input.keyId}, team ${input.teamId}, ${input.bundleId}, ${input.production ? 'production' : 'sandbox'}`,
  );
}

export async function setFcmCredentials(ctx: Ctx<StaffCaller>, appModeId: string, serviceAccountJson: string): Promise<ProviderState> {
  const account = readServiceAccount(serviceAccountJson);
  if ('problem' in account) throw invalid([{ field: 'serviceAccount', message: account.problem }]);
  return keep(ctx, appModeId, 'fcm', account, `project ${account.projectId}, ${account.clientEmail}`);
}

/** Sets the VAPID keys given, or makes a pair when neither is given. */
export async function setVapidKeys(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: { subject: string; publicKey?: string | null; privateKey?: string | null },
): Promise<ProviderState> {
  const given = !!input.publicKey || !!input.privateKey;
  const pair = given ? { publicKey: input.publicKey ?? '', privateKey: input.privateKey ?? '' } : newVapidKeys();
  const keys: VapidKeys = { ...pair, subject: input.subject };
  const problems = vapidProblems(keys).filter((p) => given || p.member === 'subject');
  if (problems.length) throw invalid(problems.map((p) => ({ field: p.member, message: p.message })));
  return keep(ctx, appModeId, 'web', keys, `VAPID, ${input.subject}`, keys.publicKey);
}

/** Forgets the provider's credentials: its devices get nothing until new ones are set. */
export async function clearPushCredentials(ctx: Ctx<StaffCaller>, appModeId: string, provider: PushProvider): Promise<ProviderState> {
  await ctx.db.pushCredential.deleteMany({ where: { appModeId, provider } });
  return unset(provider);
}

/** Which providers' credentials are set, with a hint and since when; never a secret part. */
export async function pushCredentialsState(ctx: Ctx, appModeId: string): Promise<ProviderState[]> {
  const rows = await ctx.db.pushCredential.findMany({
    where: { appModeId },
    select: { provider: true, hint: true, setAt: true, publicKey: true },
  });
  return PROVIDERS.map((provider) => {
    const row = rows.find((r) => r.provider === provider);
    return row ? { provider, set: true, hint: row.hint, setAt: row.setAt, publicKey: row.publicKey } : unset(provider);
  });
}

/** The app-mode's credentials, opened for sending. */
export async function openCredentials(ctx: Ctx, appModeId: string): Promise<OpenCredentials> {
  const rows = await ctx.db.pushCredential.findMany({ where: { appModeId }, select: { provider: true, sealed: true } });
  return Object.fromEntries(rows.map((r) => [r.provider, JSON.parse(ctx.svc.secrets.open(r.sealed))])) as OpenCredentials;
}

const unset = (provider: PushProvider): ProviderState => ({ provider, set: false, hint: null, setAt: null, publicKey: null });

async function keep(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  provider: PushProvider,
  creds: object,
  hint: string,
  publicKey: string | null = null,
): Promise<ProviderState> {
  const kept = {
    sealed: ctx.svc.secrets.seal(JSON.stringify(creds)),
    hint,
    publicKey,
    setAt: ctx.clock.now(),
    setBy: ctx.caller.staffUser.id,
  };
  const row = await ctx.db.pushCredential.upsert({
    where: { appModeId_provider: { appModeId, provider } },
    create: { appModeId, provider, ...kept },
    update: kept,
  });
  return { provider, set: true, hint: row.hint, setAt: row.setAt, publicKey: row.publicKey };
}
