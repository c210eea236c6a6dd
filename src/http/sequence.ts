import type Koa from 'koa';

/**
 * Middlewares run in order as one, as Koa composes its own: each one's `next` runs the following
 * one, the last one's the caller's `next`; what one throws rejects the whole.
 */
export function sequence(steps: Koa.Middleware[]): Koa.Middleware {
  return (ctx, next) => {
    const at = (i: number): Promise<unknown> => {
      if (i === steps.length) return next();
      try {
        return Promise.resolve(steps[i]!(ctx, () => at(i + 1)));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return at(0);
  };
}
