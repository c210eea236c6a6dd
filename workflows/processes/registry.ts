import { ProcessRegistry, type ProcessesOf } from '../engine/registry.js';
import { conversationWakeProcess } from './conversation-wake/decide.js';
import { eraseProcess } from './erase/decide.js';
import { pushSendProcess } from './push-send/decide.js';
import { webhookProcess } from './webhook/decide.js';

// Every durable process the service runs. The Temporal workflow bundle imports this file, so it
// and what it imports stay pure: decide modules only, never activities (their types only).
export const processes = new ProcessRegistry([eraseProcess, webhookProcess, conversationWakeProcess, pushSendProcess]);

/** The service's processes, as types: what `ProcessStarter<Processes>` may start, and with which input. */
export type Processes = ProcessesOf<typeof processes>;
