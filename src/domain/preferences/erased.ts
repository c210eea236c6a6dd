import { DomainError } from '../errors.js';

// The guest routes of preferences, devices and notices answer no 409 (the spec lists none): for a
// person erased within the block they answer as for someone the service knows nothing of, and
// keep nothing, as the consent routes do.

/** `write`'s answer, or `nothing`'s when the person is erased (touchContact refused them). */
export async function unlessErased<T>(write: () => Promise<T>, nothing: () => Promise<T> | T): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DomainError && err.code === 'erased') return nothing();
    throw err;
  }
}
