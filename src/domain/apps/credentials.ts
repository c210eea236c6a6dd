import { randomToken, sha256 } from '../../lib/secrets.js';

// The shapes of an app's credentials. A live value never begins with the test prefix: the random
// part is base62 and has no `_`.

export type ModeName = 'live' | 'test';

export const appKeyPrefix = (mode: ModeName) => (mode === 'test' ? 'app_test_' : 'app_');
export const serverKeyPrefix = (mode: ModeName) => (mode === 'test' ? 'crm_sk_test_' : 'crm_sk_');

export const newAppKey = (mode: ModeName) => appKeyPrefix(mode) + randomToken(24);
export const newServerKey = (mode: ModeName) => serverKeyPrefix(mode) + randomToken(40);
export const newIdentitySecret = () => randomToken(48);
export const newInboundSecret = () => randomToken(48);

/** The mode an app key names by its shape, or undefined when it is no app key. */
export function modeOfAppKey(key: string): ModeName | undefined {
  if (!/^app_(test_)?[0-9A-Za-z]{8,64}$/.test(key)) return undefined;
  return key.startsWith('app_test_') ? 'test' : 'live';
}

export function modeOfServerKey(key: string): ModeName | undefined {
  if (!/^crm_sk_(test_)?[0-9A-Za-z]{20,80}$/.test(key)) return undefined;
  return key.startsWith('crm_sk_test_') ? 'test' : 'live';
}

export const hashServerKey = (key: string) => sha256(key);
/** What staff see of a key: its prefix and last four characters. */
export const serverKeyHint = (key: string) => `${key.slice(0, key.lastIndexOf('_') + 1)}…${key.slice(-4)}`;
