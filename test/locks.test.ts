import { describe, expect, it } from 'vitest';
import { LOCK_KINDS } from '../src/domain/locks.js';
import { serviceSources } from './support/sources.js';

// Every advisory lock the service takes is one of src/domain/locks.ts's kinds, hashed one way there.

describe('advisory locks', () => {
  const sources = serviceSources();

  it('are of these kinds, each taken somewhere', () => {
    expect([...LOCK_KINDS]).toEqual([
      'app-links',
      'attachments',
      'devices',
      'email-messages',
      'erase',
      'help_bot',
      'inbound-email',
      'operator-app-workspace',
      'outbox',
      'preference-topics',
      'preferences',
      'team',
      'ticket_types',
      'webhook-tries',
      'workflows',
    ]);
    const code = sources.map((f) => f.text).join('\n');
    expect(LOCK_KINDS.filter((kind) => !new RegExp(`\\block\\(\\w+, '${kind}'`).test(code))).toEqual([]);
  });

  it('are taken only by locks.ts', () => {
    expect(sources.filter((f) => /pg_(try_)?advisory/.test(f.text)).map((f) => f.path)).toEqual(['src/domain/locks.ts']);
  });
});
