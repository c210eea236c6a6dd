import type pg from 'pg';
import type { Ctx, Services } from '../context.js';
import { exec, sql } from '../../db/sql.js';

// Views of articles, by the language served. A read only adds one to a count in this process's
// memory; the counts go to help_article_stat together, one statement a second at most, so reading
// an article writes nothing on its way. A process that dies loses at most its last second of views.

declare module '../services.js' {
  interface Caches {
    /** Views of help articles counted in this process, written once a second. */
    helpViews: ViewCounts;
  }
}

/** How often counted views are written. */
export const VIEW_FLUSH_MS = 1000;
/** Articles and languages counted between two writes; beyond, views of further ones wait for the next write. */
const MAX_PENDING = 50_000;

interface Pending {
  articleId: string;
  language: string;
  appModeId: string;
  views: number;
}

export class ViewCounts {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly database: { pool: pg.Pool }) {}

  add(counted: Pending): void {
    const key = `${counted.articleId}/${counted.language}`;
    const known = this.pending.get(key);
    if (known) known.views += counted.views;
    else if (this.pending.size < MAX_PENDING) this.pending.set(key, { ...counted });
    this.timer ??= setTimeout(() => void this.flush().catch(() => {}), VIEW_FLUSH_MS).unref();
  }

  /** Writes what was counted, after any write already under way; counts that fail to write are kept for the next. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      if (!batch.length) return;
      try {
        await write(this.database, batch);
      } catch (err) {
        for (const p of batch) this.add(p);
        throw err;
      }
    });
    return this.writing;
  }
}

/** One statement for the batch; views of articles removed meanwhile are dropped. */
function write(database: { pool: pg.Pool }, batch: Pending[]) {
  return exec(
    database,
    sql`
    INSERT INTO help_article_stat (article_id, language, app_mode_id, views)
    SELECT v.article_id, v.language, v.app_mode_id, v.views
    FROM unnest(${batch.map((p) => p.articleId)}::text[], ${batch.map((p) => p.language)}::text[], ${batch.map((p) => p.appModeId)}::text[], ${batch.map((p) => p.views)}::int[])
      AS v(article_id, language, app_mode_id, views)
    JOIN help_article a ON a.id = v.article_id
    ON CONFLICT (article_id, language) DO UPDATE SET views = help_article_stat.views + EXCLUDED.views`,
  );
}

/** Counts one view of an article in the language it was served in (written within VIEW_FLUSH_MS). */
export function countView(ctx: Ctx, view: { articleId: string; language: string; appModeId: string }): void {
  ctx.svc.caches.helpViews.add({ ...view, views: 1 });
}

/** Writes the views counted so far (a server stopping, a test reading the counts). */
export function flushViews(svc: Services): Promise<void> {
  return svc.caches.helpViews.flush();
}
