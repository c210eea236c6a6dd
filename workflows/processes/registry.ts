import { ProcessRegistry, type ProcessesOf } from '../engine/registry.js';
import { conversationWakeProcess } from './conversation-wake/decide.js';
import { emailSendProcess } from './email-send/decide.js';
import { eraseProcess } from './erase/decide.js';
import { processModule } from './module.js';
import { pushSendProcess } from './push-send/decide.js';
import { signupMailProcess } from './signup-mail/decide.js';
import { webhookProcess } from './webhook/decide.js';
import { workflowRunProcess } from './workflow-run/decide.js';

// Every durable process the service runs, each listed once (module.ts says what a process folder
// holds). The engines, the Temporal workflows, the activities and the starts from the outbox are
// derived from this list. The Temporal workflow bundle imports this file, so it and what it
// imports stay pure: decide modules only. A process's wiring (activities, starts) does I/O: it is
// loaded by the service, by an import the bundler is told to leave alone (webpackIgnore).
export const PROCESS_MODULES = [
  processModule(eraseProcess, () => import(/* webpackIgnore: true */ './erase/wiring.js')),
  processModule(webhookProcess, () => import(/* webpackIgnore: true */ './webhook/wiring.js')),
  processModule(conversationWakeProcess, () => import(/* webpackIgnore: true */ './conversation-wake/wiring.js')),
  processModule(pushSendProcess, () => import(/* webpackIgnore: true */ './push-send/wiring.js')),
  processModule(emailSendProcess, () => import(/* webpackIgnore: true */ './email-send/wiring.js')),
  processModule(signupMailProcess, () => import(/* webpackIgnore: true */ './signup-mail/wiring.js')),
  processModule(workflowRunProcess, () => import(/* webpackIgnore: true */ './workflow-run/wiring.js')),
] as const;

export const processes = new ProcessRegistry(PROCESS_MODULES.map((m) => m.definition));

/** The service's processes, as types: what `ProcessStarter<Processes>` may start, and with which input. */
export type Processes = ProcessesOf<typeof processes>;
