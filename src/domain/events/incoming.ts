import type { EventDefinition } from '../../generated/prisma/client.js';

// What ingesting a batch takes and answers per event (ingest.ts), and what typing reads (typing.ts).

export interface IncomingEvent {
  index: number;
  id: string;
  externalId: string;
  name: string;
  occurredAt: Date;
  props: Record<string, string>;
}

export interface Rejection {
  index: number;
  id: string;
  reason: string;
  detail: string;
}

export interface IngestOptions {
  source: 'server' | 'guest';
  /** The guest's platform; web events are counted apart. */
  platform?: string;
  /** Whether a name with no definition is made on first sight (else refused). */
  mayDefine: (name: string) => boolean;
  /** Whether a defined event may come from this source. */
  mayUse: (def: Pick<EventDefinition, 'name' | 'source'>) => boolean;
}
