import { createRequire } from 'node:module';
import type { History } from '@temporalio/common/lib/proto-utils.js';

// A workflow history to and from Temporal's JSON form (what the web UI downloads and
// `temporal workflow show --output json` prints), for the recorded histories the replay test runs.
// The SDK's own historyToJSON/historyFromJSON throw "type must be a Type" in this install: npm
// gives @temporalio/common, /proto and /worker a protobufjs copy each (another package holds the
// top-level protobufjs at 7), and the JSON codec of one copy refuses the message types built by
// another. So the codec is taken from the copy that built the types: @temporalio/proto's.

const fromCommon = createRequire(createRequire(import.meta.url).resolve('@temporalio/common'));
const fromProto = createRequire(fromCommon.resolve('@temporalio/proto'));
const { patchProtobufRoot } = fromCommon('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot: (root: unknown) => { lookupType(name: string): unknown };
};
const { toJson, fromJson } = fromProto('protobufjs/ext/protojson') as {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: object): unknown;
};
const historyType = patchProtobufRoot(fromCommon('@temporalio/proto')).lookupType('temporal.api.history.v1.History') as {
  fromObject(history: History): unknown;
};

/** Indented, one field a line, for review in a diff. */
export const historyToJson = (history: History): string =>
  JSON.stringify(toJson(historyType, historyType.fromObject(history)), null, 2) + '\n';

/** Fields a newer server or SDK adds are passed over, as the SDK's own reader does. */
export const historyFromJson = (json: string): History => fromJson(historyType, JSON.parse(json), { ignoreUnknownFields: true }) as History;
