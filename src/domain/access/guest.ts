import { compactVerify, errors as joseErrors, jwtVerify } from 'jose';
import type { AppMode } from '../../generated/prisma/client.js';
import { scopeOf, type GuestCaller, type Services } from '../context.js';
import { DomainError, forbidden, tokenExpired, unauthorized } from '../errors.js';
import { textProblem, utf8Text } from '../../lib/text.js';
import { findAppModeByKey } from './app-modes.js';
import { verifiedHs256 } from './hs256.js';

export interface GuestHeaders {
  appKey: string | undefined;
  authorization: string | undefined;
  userId: string | undefined;
  sdk: string | undefined;
}

const MAX_EXTERNAL_ID = 200;

/**
 * Checks the app key first, then who the user is (a signed token, or a bare id where the app allows
 * it). `mode`: the app-mode the key names when the caller looked it up already (null: none).
 * A token already verified and an app-mode in memory cost no await.
 */
export async function authenticateGuest(svc: Services, h: GuestHeaders, mode?: AppMode | null): Promise<GuestCaller> {
  if (!h.appKey) throw unauthorized('The X-CRM-App-Key header is required.');
  const appMode = usableByGuests(mode !== undefined ? mode : await findAppModeByKey(svc, h.appKey));
  const externalId =
    h.authorization === undefined
      ? unverifiedUser(appMode, h.userId)
      : (keptUser(svc, appMode, h.authorization) ?? (await verifyUserToken(svc, appMode, h.authorization)));
  return Object.assign(scopeOf(appMode), { kind: 'guest' as const, externalId, sdk: h.sdk?.slice(0, 100) });
}

/** The app an X-CRM-App-Key names, usable by guests: 401 for none or a wrong one, 403 when switched off. */
export async function requireGuestApp(svc: Services, appKey: string | undefined, known?: AppMode | null): Promise<AppMode> {
  if (!appKey) throw unauthorized('The X-CRM-App-Key header is required.');
  return usableByGuests(known !== undefined ? known : await findAppModeByKey(svc, appKey));
}

function usableByGuests(appMode: AppMode | null | undefined): AppMode {
  if (!appMode || appMode.archived) throw unauthorized('The X-CRM-App-Key header names no app.');
  if (appMode.switchedOff) throw forbidden('app_switched_off', 'This app is switched off.');
  return appMode;
}

function unverifiedUser(appMode: AppMode, userId: string | undefined): string {
  if (userId === undefined) throw unauthorized('Send the user token as Authorization: Bearer <token>.');
  if (!appMode.unverifiedSignin)
    throw unauthorized('This app requires a signed user token; X-CRM-User-Id is accepted only for apps with unverified sign-in.');
  return checkExternalId(userId, 'X-CRM-User-Id');
}

/** Seconds of leeway on `exp` and `nbf`. */
const CLOCK_TOLERANCE = 30;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The user of a token this mode's current secret already verified, when its times still hold
 * (checked as jose checks them); otherwise undefined, and the token goes the whole way
 * (verifyUserToken), which gives jose's exact refusal.
 */
function keptUser(svc: Services, appMode: AppMode, authorization: string): string | undefined {
  const token = BEARER.exec(authorization)?.[1];
  const kept = token === undefined ? undefined : svc.credentials.verifiedToken(appMode, token);
  if (!kept) return undefined;
  const now = Math.floor(svc.clock.now().getTime() / 1000);
  if ((kept.nbf === undefined || kept.nbf <= now + CLOCK_TOLERANCE) && (kept.exp === undefined || kept.exp > now - CLOCK_TOLERANCE))
    return kept.sub;
  return undefined;
}

async function verifyUserToken(svc: Services, appMode: AppMode, authorization: string): Promise<string> {
  const match = BEARER.exec(authorization);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <user token>".');
  const token = match[1]!;
  // jose reads the claims leniently, turning bytes that are not UTF-8 into U+FFFD: two different
  // subjects would become one person.
  if (utf8Text(Buffer.from(token.split('.')[1] ?? '', 'base64url')) === undefined)
    throw unauthorized("The user token's claims are not UTF-8 JSON.");
  const generation = svc.credentials.now;
  const secret = svc.credentials.identitySecret(appMode, (sealed) => svc.secrets.open(sealed));
  try {
    // The common case without WebCrypto's cost; anything else goes to jose, for its exact refusal.
    const payload =
      verifiedHs256(token, secret, svc.clock.now(), CLOCK_TOLERANCE) ??
      (await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: svc.clock.now(), clockTolerance: CLOCK_TOLERANCE })).payload;
    if (typeof payload.sub !== 'string') throw unauthorized('The user token has no "sub" claim naming the user.');
    for (const claim of ['exp', 'nbf', 'iat'] as const) {
      if (payload[claim] !== undefined && !Number.isFinite(payload[claim]))
        throw unauthorized(`The user token's "${claim}" claim must be a number of seconds.`);
    }
    const sub = checkExternalId(payload.sub, 'the token\'s "sub" claim');
    svc.credentials.keepVerifiedToken(
      token,
      { appId: appMode.appId, appModeId: appMode.id, secretEnc: appMode.identitySecretEnc, sub, exp: payload.exp, nbf: payload.nbf },
      generation,
    );
    return sub;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw tokenExpired();
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw unauthorized(await signatureProblem(svc, appMode, token));
    if (err instanceof joseErrors.JOSEAlgNotAllowed) throw unauthorized('The user token must be signed with HS256.');
    if (err instanceof joseErrors.JWTClaimValidationFailed) throw unauthorized(`The user token's "${err.claim}" claim is not valid now.`);
    throw unauthorized('The user token is not a readable signed token (JWS compact form).');
  }
}

/** Says whether a bad signature came from the app's other mode, the commonest mistake. */
async function signatureProblem(svc: Services, appMode: AppMode, token: string): Promise<string> {
  const other = await svc.credentials.otherMode(appMode, () =>
    svc.db.appMode.findFirst({ where: { appId: appMode.appId, mode: appMode.mode === 'live' ? 'test' : 'live' } }),
  );
  if (other) {
    try {
      await compactVerify(
        token,
        svc.credentials.identitySecret(other, (sealed) => svc.secrets.open(sealed)),
        { algorithms: ['HS256'] },
      );
      return `The user token is signed with the ${other.mode} mode's identity secret, but the app key is the ${appMode.mode} mode's.`;
    } catch {
      /* not the other mode's either */
    }
  }
  return "The user token's signature does not match this app's identity secret.";
}

function checkExternalId(id: string, where: string): string {
  if (id.length < 1 || id.length > MAX_EXTERNAL_ID) throw unauthorized(`${where} must be 1 to ${MAX_EXTERNAL_ID} characters.`);
  const problem = textProblem(id);
  if (problem) throw unauthorized(`${where} ${problem}.`);
  return id;
}
