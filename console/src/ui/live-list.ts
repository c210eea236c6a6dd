// A list read a page at a time and kept live, in its own order: what the inbox and the tickets share.

type Row = { id: string };

/** The list with a page read: after the rows already there when it continues them (`more`), alone when it is the first; one row an id (in `order`, else as read). */
export function withPage<T extends Row>(old: T[], page: T[], more: boolean, order?: (a: T, b: T) => number): T[] {
  const byId = new Map((more ? old : []).map((r) => [r.id, r]));
  for (const r of page) byId.set(r.id, r);
  const rows = [...byId.values()];
  return order ? rows.sort(order) : rows;
}

/** The list with a row as a live change left it: in its place when it `belongs` to the list, gone otherwise. */
export function withChange<T extends Row>(old: T[], row: T, belongs: boolean, order: (a: T, b: T) => number): T[] {
  const others = old.filter((r) => r.id !== row.id);
  return belongs ? [...others, row].sort(order) : others;
}
