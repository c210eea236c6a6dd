import pg from 'pg';

// What a process's runs went through while a test watched them: a row whenever a run's attempt,
// lease, wake time, command or error changed, read every 200 ms on a connection of the test's own.
// Printed when a run took longer than it should, so a slow run on a busy machine says where the
// time went (a lease run out, a retry's pause, a rest after failures) rather than only how long.

export interface RunTimeline {
  /** Stops watching; the lines seen, one per change, each with its time from the start. */
  stop(): Promise<string[]>;
}

const SAMPLE = `
  SELECT id, status, attempts, command->>'kind' AS kind, command->>'activity' AS activity,
    to_char(lease_until, 'HH24:MI:SS.MS') AS lease, to_char(wake_at, 'HH24:MI:SS.MS') AS wake, left(last_error, 120) AS error
  FROM workflow_run WHERE process = $1 ORDER BY id LIMIT 20`;

export async function watchRuns(dbUrl: string, process: string): Promise<RunTimeline> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const started = Date.now();
  const lines: string[] = [];
  const last = new Map<string, string>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const sample = await client.query(SAMPLE, [process]).catch(() => null);
      for (const row of sample?.rows ?? []) {
        const { id, ...rest } = row as Record<string, unknown>;
        const line = JSON.stringify(rest);
        if (last.get(String(id)) === line) continue;
        last.set(String(id), line);
        lines.push(`+${((Date.now() - started) / 1000).toFixed(1)} s ${String(id).slice(0, 8)} ${line}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await client.end();
      return lines;
    },
  };
}
