import DataLoader from 'dataloader';
import type { StaffContext } from './context.js';

// Fields that are not Prisma relations (a contact's events, an event's daily counts) read for
// every parent of a list in one query: a DataLoader per request gathers the parents' keys.
// Loaders live only as long as the request's context, so nothing is cached across requests.

const loaders = new WeakMap<StaffContext, Map<string, DataLoader<string, unknown>>>();

/**
 * The request's loader for `name`: one per distinct name, so loads with different arguments
 * (another app-mode, another page size) are batched apart. `load` answers a map by key.
 */
export function batchLoad<V>(
  ctx: StaffContext,
  name: string,
  key: string,
  load: (keys: readonly string[]) => Promise<Map<string, V>>,
): Promise<V> {
  let byName = loaders.get(ctx);
  if (!byName) loaders.set(ctx, (byName = new Map()));
  let loader = byName.get(name) as DataLoader<string, V> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V>(async (keys) => {
      const found = await load(keys);
      return keys.map((k) => found.get(k) as V);
    });
    byName.set(name, loader as DataLoader<string, unknown>);
  }
  return loader.load(key);
}
