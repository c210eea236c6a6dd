// npm run worker: runs the durable processes' workflows and activities for a Temporal server.
// Without TEMPORAL_ADDRESS there is nothing to serve: the server runs them on its embedded engine.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { boot } from '../../src/boot.js';
import { readConfig } from '../../src/config.js';
import { buildActivities } from '../processes/activities.js';
import { ACTIVITY_SLOTS } from './definitions.js';
import { activitySlots } from './activity-slots.js';

const config = readConfig();
if (!config.temporalAddress) {
  console.error(
    'TEMPORAL_ADDRESS is not set: there is no Temporal server to work for. Without it the server runs durable processes itself (the embedded engine); set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE) to run them on Temporal.',
  );
  process.exit(1);
}

// A failed connection or Worker.create leaves handles open that keep Node alive: every way out exits explicitly.
let code = 0;
try {
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  try {
    const { svc, location } = await boot(config);
    try {
      const worker = await Worker.create({
        connection,
        namespace: config.temporalNamespace,
        taskQueue: config.temporalTaskQueue,
        // workflows.ts from the sources, workflows.js from dist/.
        workflowsPath: fileURLToPath(new URL(`./workflows${path.extname(import.meta.url)}`, import.meta.url)),
        activities: buildActivities(svc),
        ...activitySlots(ACTIVITY_SLOTS),
      });
      console.log(
        `worker on task queue '${config.temporalTaskQueue}' of ${config.temporalAddress} (namespace ${config.temporalNamespace})`,
      );
      await worker.run(); // until SIGINT or SIGTERM
    } finally {
      await svc.close();
      await location.embedded?.stop();
    }
  } finally {
    await connection.close();
  }
} catch (err) {
  console.error('the worker stopped on an error:', err);
  code = 1;
}
process.exit(code);
