import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/request';

// A list read a page at a time, where the newest reading wins. A reading of the first page (the first, after a
// changed filter or search, or when the live changes say reload) drops the answer of every reading begun before
// it, next pages included: an answer that comes late never puts back rows of a filter left since. One next page
// is read at a time, and none while the first is (its cursor may be of the rows being replaced).

export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** A GraphQL connection as a page. */
export function pageOf<T>(c: { edges: { node: T }[]; pageInfo: { hasNextPage: boolean; endCursor?: string | null } }): Page<T> {
  return { rows: c.edges.map((e) => e.node), next: c.pageInfo.hasNextPage ? (c.pageInfo.endCursor ?? null) : null };
}

export function usePagedList<T>(options: {
  /** Reads a page: the first (`after` null; `first` rows when given) or the one after a cursor. */
  read(after: string | null, first?: number): Promise<Page<T>>;
  /** The rows with a page read: after those there (`more`), or alone. */
  merge(old: T[], page: T[], more: boolean): T[];
  /** What the list reads by: a change reads the first page again. */
  by: unknown[];
  /** Empty the list while a changed `by` is read (else the old rows stay until the new come). */
  clear?: boolean;
}) {
  const [rows, setRows] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | undefined>();
  /** One more each time a reading ends (kept, dropped or failed): what may be in view is looked at again. */
  const [readings, setReadings] = useState(0);
  const reading = useRef(0);
  const moreBusy = useRef(false);
  const firstBusy = useRef(false);
  const latest = useRef({ ...options, next });
  latest.current = { ...options, next };

  const take = async (after: string | null, first?: number) => {
    const mine = after ? reading.current : ++reading.current;
    if (!after) firstBusy.current = true;
    try {
      const page = await latest.current.read(after, first);
      if (mine !== reading.current) return;
      setRows((old) => latest.current.merge(old, page.rows, after !== null));
      setNext(page.next);
      setError(undefined);
    } catch (err) {
      if (mine === reading.current) setError(messageOf(err));
    } finally {
      if (mine === reading.current) {
        setLoading(false);
        if (!after) firstBusy.current = false;
      }
      setReadings((n) => n + 1);
    }
  };

  /** Reads the first page again (`first` rows: to read again as many as are held). */
  const reload = useCallback((first?: number) => take(null, first), []);
  /** Reads the next page, unless there is none or one is being read. */
  const more = useCallback(async () => {
    const after = latest.current.next;
    if (!after || moreBusy.current || firstBusy.current) return;
    moreBusy.current = true;
    try {
      await take(after);
    } finally {
      moreBusy.current = false;
    }
  }, []);

  useEffect(() => {
    setLoading(true);
    if (options.clear) setRows([]);
    void reload();
  }, options.by);

  return { rows, setRows, next, loading, error, setError, reload, more, readings };
}
