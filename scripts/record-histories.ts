// npx tsx scripts/record-histories.ts [process …]: records one real Temporal history per durable process
// (the latest version of each) into test/fixtures/histories/<process>.v<version>.json, and the further
// runs MORE_RUNS names into <process>.v<version>.<name>.json, which test/temporal-replay.test.ts replays against the
// workflow code of the day. Needs a Temporal server at TEMPORAL_ADDRESS (a dev server will do) and
// nothing else: a worker in this process runs the service's workflows on a task queue of its own,
// with stand-in activities that answer fixed results (the history records what the workflow did
// with them; replay never runs activities). Re-record when a workflow changes on purpose, as a new
// version of its process (docs/operations.md).
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ActivitiesOf, Instant } from '../workflows/engine/types.js';
import { processes, type Processes } from '../workflows/processes/registry.js';
import type { DurableArgs } from '../workflows/temporal/definitions.js';
import { historyToJson } from '../workflows/temporal/history-json.js';

const address = process.env.TEMPORAL_ADDRESS;
const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
if (!address) {
  console.error('TEMPORAL_ADDRESS is not set: the histories are recorded on a Temporal server (temporal server start-dev will do).');
  process.exit(1);
}

/** The processes to record (all without arguments): `npx tsx scripts/record-histories.ts webhook`. */
const only = process.argv.slice(2);
const unknown = only.filter((name) => !processes.definitions.some((d) => d.name === name));
if (unknown.length > 0) {
  console.error(`no such process: ${unknown.join(', ')}`);
  process.exit(1);
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** A run of each process, with what its activities answer. Typed by the registry: a new process must be given one here. */
const RUNS: { [Name in Processes['name']]: { input: unknown; says: string } } = {
  erase: { input: { requestId: 'erase-request-1' }, says: 'removes the data, then marks the request done' },
  webhook: {
    input: { deliveryId: 'delivery-1' },
    says: 'try 1 is answered with a 503 (its outcome: retry), try 2 fails as a step (the database away), try 3 is delivered; each after its wait',
  },
  'conversation-wake': {
    input: { appModeId: 'app-mode-1', conversationId: 'conversation-1', until: inSeconds(2) },
    says: 'waits until the snooze ends, then wakes the conversation',
  },
  'push-send': { input: { sendId: 'send-1' }, says: 'a step, a step at once, a wait for a provider’s pause, a last step' },
  'email-send': { input: { sendId: 'sending-1' }, says: 'a step, a step at once, a wait for emails put off, a last step' },
  'signup-mail': { input: { signupId: 'signup-1' }, says: 'mails the sign-up once' },
  'workflow-run': {
    input: {
      appModeId: 'app-mode-1',
      workflowId: 'workflow-1',
      versionId: 'version-1',
      runKey: 'wfr_recorded',
      contactId: 'contact-1',
      goalEvent: 'bought',
      steps: [
        { key: 'pause', kind: 'wait', seconds: 2, next: 'is_pro' },
        { key: 'is_pro', kind: 'branch', condition: { attribute: 'plan', op: 'is', value: 'pro' }, yes: 'tell', no: 'done' },
        { key: 'tell', kind: 'webhook', url: 'https://example.com/hook', next: 'mark' },
        { key: 'mark', kind: 'set_attribute', attribute: 'welcomed', value: true, next: 'label' },
        { key: 'label', kind: 'tag', action: 'add', tag: 'welcomed', next: 'done' },
        { key: 'done', kind: 'end', outcome: 'welcomed' },
      ],
    },
    says: 'a wait, a branch taken yes, a webhook tried again after its wait then sent, an attribute set, a tag added, the end recorded',
  },
};

/** Further runs of a process, each recorded into <process>.v<version>.<name>.json: a run the first does not show, with what is done to it meanwhile. */
const MORE_RUNS: { process: Processes['name']; name: string; input: unknown; says: string; meanwhile(signal: Signaller): Promise<void> }[] =
  [
    {
      process: 'workflow-run',
      name: 'sends',
      input: {
        appModeId: 'app-mode-1',
        workflowId: 'workflow-1',
        versionId: 'version-1',
        runKey: 'wfr_recorded_sends',
        contactId: 'contact-1',
        goalEvent: 'bought',
        steps: sendSteps('Welcome'),
      },
      says: 'a wait for an event, moved to version 2 while waiting, the event, a notice held by its sending window then sent, a push skipped, the end',
      meanwhile: async (signal) => {
        await sleep(500);
        await signal('move', { versionId: 'version-2', steps: sendSteps('Welcome again'), goalEvent: 'bought' });
        await sleep(500);
        await signal('event', { name: 'opened' });
      },
    },
  ];

type Signaller = (name: string, payload: unknown) => Promise<void>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sendSteps(title: string) {
  return [
    { key: 'listen', kind: 'wait_for_event', event: 'opened', timeoutSeconds: 60, next: 'card', timeout: 'card' },
    {
      key: 'card',
      kind: 'send',
      channel: 'notice',
      content: { title },
      sendingWindow: { days: [0, 1, 2, 3, 4, 5, 6], from: '09:00', to: '17:00' },
      outsideWindow: 'wait',
      next: 'buzz',
    },
    { key: 'buzz', kind: 'send', channel: 'push', content: { title }, next: 'done' },
    { key: 'done', kind: 'end', outcome: 'told' },
  ];
}

/** Send steps held by their window once (the first ask of each visit), then sent; a push skipped as in test mode. */
const heldOnce = new Set<string>();

const stepsOfPush = new Map<string | null, () => { after: string | null; finished: boolean; waitUntil: string | null }>([
  [null, () => ({ after: 'contact-500', finished: false, waitUntil: null })],
  ['contact-500', () => ({ after: 'contact-1000', finished: false, waitUntil: inSeconds(2) })],
  ['contact-1000', () => ({ after: 'contact-1042', finished: true, waitUntil: null })],
]);

const activities: ActivitiesOf<Processes> = {
  eraseContactData: async () => ({ contacts: 1, conversations: 2, events: 5 }),
  finishErase: async () => undefined,
  eraseGaveUp: async () => undefined,
  postDelivery: async ({ attempt }) => {
    if (attempt === 2) throw Object.assign(new Error('the database is away'), { stack: 'Error: the database is away' }); // no machine paths in the history
    return { outcome: attempt === 1 ? 'retry' : 'delivered' };
  },
  mailSwitchOff: async () => undefined,
  wakeConversation: async () => true,
  sendPushBatch: async ({ after }) => stepsOfPush.get(after)!(),
  stopPushSend: async () => undefined,
  sendEmailBatch: async ({ after }) => stepsOfPush.get(after)!(),
  stopEmailSend: async () => undefined,
  mailSignup: async () => undefined,
  beginWorkflowWait: async () => ({ until: inSeconds(2) }),
  checkWorkflowCondition: async () => ({ matched: true }),
  sendWorkflowMessage: async ({ runKey, step, visit }) => {
    if (step.kind !== 'send') return { outcome: 'skipped', reason: 'not_available' };
    const key = `${runKey}:${step.key}:${visit}`;
    if (step.sendingWindow && !heldOnce.has(key)) {
      heldOnce.add(key);
      return { outcome: 'held', reason: 'outside_window', heldUntil: inSeconds(2) as Instant };
    }
    return step.channel === 'push' ? { outcome: 'skipped', reason: 'test_mode' } : { outcome: 'sent' };
  },
  postWorkflowWebhook: async ({ attempt }) => (attempt === 1 ? { outcome: 'retry', retryInMs: 1000 } : { outcome: 'sent' }),
  setWorkflowAttribute: async () => ({ outcome: 'passed' }),
  tagWorkflowPerson: async () => ({ outcome: 'passed' }),
  endWorkflowRun: async () => undefined,
  moveWorkflowRun: async () => undefined,
};

Runtime.install({ logger: new DefaultLogger('ERROR') }); // try 2's failure is meant: no warning for it
const out = fileURLToPath(new URL('../test/fixtures/histories/', import.meta.url));
const taskQueue = `record-histories-${randomUUID()}`;
const nativeConnection = await NativeConnection.connect({ address });
const connection = await Connection.connect({ address });
const client = new Client({ connection, namespace, identity: 'record-histories' });
const worker = await Worker.create({
  connection: nativeConnection,
  namespace,
  taskQueue,
  workflowsPath: fileURLToPath(new URL('../workflows/temporal/workflows.ts', import.meta.url)),
  activities,
  identity: 'record-histories',
});

let code = 0;
await worker
  .runUntil(async () => {
    await mkdir(out, { recursive: true });
    for (const [name, run] of Object.entries(RUNS).filter(([name]) => only.length === 0 || only.includes(name))) {
      const { version } = processes.latest(name);
      const args: DurableArgs = { version, input: run.input };
      const handle = await client.workflow.start(name, { taskQueue, workflowId: `${name}-recorded-${randomUUID()}`, args: [args] });
      const outcome = await handle.result();
      const history = await handle.fetchHistory();
      // A file per version: recording a new version keeps the older one's history, replayed as long as the code carries it.
      await writeFile(`${out}${name}.v${version}.json`, historyToJson(history));
      console.log(`${name} v${version}: ${run.says}; ${history.events?.length} events, outcome ${JSON.stringify(outcome)}`);
    }
    for (const run of MORE_RUNS.filter((r) => only.length === 0 || only.includes(r.process))) {
      const { version } = processes.latest(run.process);
      const args: DurableArgs = { version, input: run.input };
      const handle = await client.workflow.start(run.process, {
        taskQueue,
        workflowId: `${run.process}-recorded-${randomUUID()}`,
        args: [args],
      });
      await run.meanwhile((name, payload) => handle.signal(name, payload));
      const outcome = await handle.result();
      const history = await handle.fetchHistory();
      await writeFile(`${out}${run.process}.v${version}.${run.name}.json`, historyToJson(history));
      console.log(
        `${run.process} v${version} (${run.name}): ${run.says}; ${history.events?.length} events, outcome ${JSON.stringify(outcome)}`,
      );
    }
  })
  .catch((err: unknown) => {
    console.error('recording stopped on an error:', err);
    code = 1;
  });
await connection.close();
await nativeConnection.close();
process.exit(code);
