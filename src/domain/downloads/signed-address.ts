import { BlobAddressRefused, openToken, signToken, type Signer } from '../../lib/blobs/signed-token.js';
import type { Ctx, Services } from '../context.js';
import { DomainError } from '../errors.js';

// A staff download's address (a person's export, a survey's responses): a signed, short-lived address
// of a public route, the token being the credential as the blob store's addresses are
// (src/lib/blobs/signed-token.ts, the same signing), under a key of its own for each kind of download
// derived from the service's secret key, so no other address opens it. The token names the app-mode
// and one thing of it; nothing about it is kept, and any server process answers it. The request log
// names the route's template, never the path, so the token is not logged.

/** What an address names. */
export interface DownloadTerms {
  appModeId: string;
  /** The one thing it downloads (a contact's id, a survey's id). */
  id: string;
  expiresAt: Date;
}

export interface DownloadKind {
  /** The key's name (`contact-export`): its own signing key, and the prefix of what a token names. */
  name: string;
  /** Where the addresses are answered (the token follows). */
  path: string;
  /** How long an address is good for. */
  seconds: number;
  contentType: string;
}

export function signedDownloads(kind: DownloadKind) {
  const prefix = `${kind.name}/`;
  const signerOf =
    (svc: Pick<Services, 'secrets'>): Signer =>
    (text) =>
      svc.secrets.keyedHash(`${kind.name}-address`, text);

  /** The signed token of an address (whole seconds: the token keeps its time so). */
  const token = (svc: Pick<Services, 'secrets'>, terms: DownloadTerms): string =>
    signToken(signerOf(svc), {
      method: 'get',
      key: `${prefix}${terms.appModeId}/${terms.id}`,
      expiresAt: terms.expiresAt,
      contentType: kind.contentType,
    });

  /** The address of one thing of the app-mode, good for `seconds` (the caller checked the staff member may download it). */
  const address = (ctx: Ctx, appModeId: string, id: string): { url: string; expiresAt: Date } => {
    const expiresAt = new Date(Math.ceil((ctx.clock.now().getTime() + kind.seconds * 1000) / 1000) * 1000);
    return { url: `${ctx.svc.config.baseUrl}${kind.path}${token(ctx.svc, { appModeId, id, expiresAt })}`, expiresAt };
  };

  /** What a token this service signed for this kind names: 403 `address_invalid` (forged, altered, another kind's) or `address_expired`. */
  const open = (ctx: Ctx, signed: string): DownloadTerms => {
    const refused = (reason: 'invalid' | 'expired') =>
      new DomainError(403, `address_${reason}`, 'Refused', new BlobAddressRefused(reason).message);
    let key: string;
    let expiresAt: Date;
    try {
      ({ key, expiresAt } = openToken(signerOf(ctx.svc), signed, 'get', ctx.clock.now()));
    } catch (err) {
      if (err instanceof BlobAddressRefused) throw refused(err.reason);
      // A body that is no JSON can only be one this service did not sign: refused before it is read.
      throw refused('invalid');
    }
    const [appModeId, id, extra] = key.startsWith(prefix) ? key.slice(prefix.length).split('/') : [];
    if (!appModeId || !id || extra !== undefined) throw refused('invalid');
    return { appModeId, id, expiresAt };
  };

  return { token, address, open };
}
