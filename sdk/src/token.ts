/** Where the user's token comes from: the customer's own function (usually a fetch of their own route). */
export type TokenSource = () => string | Promise<string>;

/** Seconds before its `exp` that a token is no longer used (clocks differ; a request takes time). */
const EXP_MARGIN_SECONDS = 30;

/**
 * The user's token: fetched once, kept while it lasts (its `exp`, read without checking the
 * signature, which only the service can do), and fetched again when the service answers
 * `token_expired` for it. Callers at the same moment share one fetch.
 */
export class TokenKeeper {
  private held: Promise<string> | undefined;
  private expiresAt = Infinity;

  constructor(
    private readonly source: TokenSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token to send now. */
  get(): Promise<string> {
    if (this.held && this.now() < this.expiresAt) return this.held;
    return this.fetch();
  }

  /** The service refused `stale` as expired: the next `get` fetches anew, unless another caller already did. */
  async renew(stale: string): Promise<string> {
    const held = this.held;
    const current = held && (await held.catch(() => undefined));
    if (this.held !== held) return this.get(); // renewed by another caller meanwhile
    return current === stale || current === undefined ? this.fetch() : current;
  }

  /** Forgets the token (sign-out). */
  clear(): void {
    this.held = undefined;
  }

  private fetch(): Promise<string> {
    const fetched = Promise.resolve()
      .then(this.source)
      .then((token) => {
        if (typeof token !== 'string' || !token.trim()) throw new Error('The token function gave no token.');
        return token.trim();
      });
    this.held = fetched;
    this.expiresAt = Infinity;
    fetched.then(
      (token) => {
        if (this.held === fetched) this.expiresAt = expiryOf(token) - EXP_MARGIN_SECONDS * 1000;
      },
      () => {
        // A failed fetch is not kept: the next caller tries again.
        if (this.held === fetched) this.held = undefined;
      },
    );
    return fetched;
  }
}

/** A JWT's `exp` in milliseconds, or Infinity when it has none or cannot be read (the service then decides). */
export function expiryOf(token: string): number {
  const payload = token.split('.')[1];
  if (!payload) return Infinity;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}
