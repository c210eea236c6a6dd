import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import type { History } from '@temporalio/common/lib/proto-utils.js';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { processes } from '../workflows/processes/registry.js';
import type { DurableArgs } from '../workflows/temporal/definitions.js';
import { historyFromJson } from '../workflows/temporal/history-json.js';

// The recorded histories (test/fixtures/histories/, one real run of each process on a Temporal
// server, and further runs of some, by scripts/record-histories.ts) replayed on today's workflow code: a change to a workflow
// that would make it decide otherwise than it did for a run in flight (another activity, another
// order, a timer more or less) is a nondeterminism error here rather than stuck runs after a deploy.
// Replay runs in this process with no server; the activities are not run, their results are read
// from the history.

const logger = new DefaultLogger('WARN'); // the worker's INFO lines say nothing a test needs
Runtime.install({ logger });

const dir = fileURLToPath(new URL('./fixtures/histories/', import.meta.url));
const recorded = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => {
    const history = historyFromJson(readFileSync(`${dir}${file}`, 'utf8'));
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const args = defaultPayloadConverter.fromPayload<DurableArgs>(started!.input!.payloads![0]!);
    return { file, history, process: started!.workflowType!.name!, version: args.version };
  });

describe('the recorded histories replay on the workflows of today', () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    workflowBundle = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('../workflows/temporal/workflows.ts', import.meta.url)),
      logger,
    });
  });

  it('holds a history of every version of every process, and of nothing else', () => {
    const registered = processes.definitions.map((d) => `${d.name}.v${d.version}.json`);
    // A further run of a version is <process>.v<version>.<what it shows>.json.
    const versionOf = (file: string) => file.replace(/^(.+\.v\d+)\.[a-z-]+\.json$/, '$1.json');
    const files = recorded.map((r) => versionOf(r.file));
    expect({ missing: registered.filter((f) => !files.includes(f)), unknown: files.filter((f) => !registered.includes(f)) }).toEqual({
      missing: [],
      unknown: [],
    });
    for (const r of recorded)
      expect(versionOf(r.file), 'a file is named by the process and version its history ran').toBe(`${r.process}.v${r.version}.json`);
  });

  it('replays each without a nondeterminism error', async () => {
    const failed: { file: string; error: string }[] = [];
    const histories = recorded.map((r): { workflowId: string; history: History } => ({ workflowId: r.file, history: r.history }));
    for await (const result of Worker.runReplayHistories({ workflowBundle }, histories))
      if (result.error) failed.push({ file: result.workflowId, error: `${result.error.name}: ${result.error.message}` });
    expect(failed).toEqual([]);
    expect(recorded.length).toBeGreaterThan(0);
  });
});
