/**
 * Iterates what `start(signal)` yields, aborting the signal when the consumer stops (an unsubscribe
 * or a closed socket) or the source ends. An async generator cannot run its `finally` while it is
 * awaiting its next notice, so a plain `return()` would wait for a change that may never come;
 * the abort ends that wait at once.
 */
export function abortable<T>(start: (signal: AbortSignal) => AsyncGenerator<T>): AsyncIterableIterator<T> {
  const controller = new AbortController();
  const source = start(controller.signal);
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      try {
        const step = await source.next();
        if (step.done) controller.abort();
        return step;
      } catch (err) {
        controller.abort();
        throw err;
      }
    },
    return(value?: unknown) {
      controller.abort();
      return source.return(value);
    },
    throw(err?: unknown) {
      controller.abort();
      return source.throw(err);
    },
  };
  return iterator;
}
