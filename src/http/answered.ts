import type http from 'node:http';

// When an HTTP answer has gone: its last bytes handed to the connection, or the connection gone.
// Made on first asking (only requests that change something ask), the same promise every time.

export function answeredOf(res: http.ServerResponse): () => Promise<void> {
  let answered: Promise<void> | undefined;
  return () =>
    (answered ??=
      res.writableFinished || res.destroyed
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            res.once('finish', resolve);
            res.once('close', resolve);
          }));
}
