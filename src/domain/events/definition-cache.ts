import type { AppCaller, Ctx } from '../context.js';
import type { KnownDefinition } from './typing.js';

// Event definitions as this process last saw them committed. A definition only grows (a prop is
// added, never removed nor retyped), so a cached one is never wrong about a prop it holds: an event
// carrying a prop it lacks goes down the locked path, which reads the definition fresh, grows it,
// and caches what it committed. Its `source` may be behind (server → both): only server events,
// which any source admits, are typed from here.

const MAX_CACHED = 10_000;

declare module '../services.js' {
  interface Caches {
    /** Event definitions by app-mode and name, oldest first (built by openServices: one per services, as tests run several in one process). */
    eventDefinitions: Map<string, KnownDefinition>;
  }
}

const cacheOf = ({ svc }: Ctx) => svc.caches.eventDefinitions;

const keyOf = (appModeId: string, name: string) => `${appModeId}\u0000${name}`;

/** The cached definitions of these names, or undefined when any of them is not cached. */
export function cachedDefinitions(ctx: Ctx<AppCaller>, names: Iterable<string>): Map<string, KnownDefinition> | undefined {
  const cache = cacheOf(ctx);
  const { appModeId } = ctx.caller;
  const found = new Map<string, KnownDefinition>();
  for (const name of names) {
    if (found.has(name)) continue;
    const def = cache.get(keyOf(appModeId, name));
    if (!def) return undefined;
    found.set(name, def);
  }
  return found;
}

/** Definitions as a transaction that has committed read or wrote them. */
export function rememberDefinitions(ctx: Ctx<AppCaller>, defs: Iterable<KnownDefinition>): void {
  const cache = cacheOf(ctx);
  const { appModeId } = ctx.caller;
  for (const def of defs) {
    const key = keyOf(appModeId, def.name);
    cache.delete(key); // the newest last, so the oldest go first
    cache.set(key, def);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
}
