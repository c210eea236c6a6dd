import {
  createSourceEventStream,
  execute,
  Kind,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
} from 'graphql';
import type { StaffContext } from './context.js';

// A change goes to every subscriber as the same event object (src/domain/live-topic.ts). Subscribers of
// one process that asked the same thing (operation, and the variables its answer reads) with the
// same rights (the workspace and role liveFor granted) get the same answer, so each event is run
// once per such group and its result handed to all of them: a change costs one execution per
// group, not one per subscriber. Two rules make that hold, and every subscription keeps them:
// - a subscription field answers with its event (`resolve: (event) => event`): its arguments
//   choose the stream and where it resumes (`after`), never the answer, so they are not part of
//   the group and subscribers resuming from different versions still share;
// - fields depend on the viewer only through their rights in the target's workspace, as every
//   field of the staff API does (none reads the viewer's own records).

/** Counts answers made, serialized and shared (crm_live_answers_total). */
type Counted = { inc(labels: { how: 'made' | 'serialized' | 'shared' }): void };

/**
 * Where a subscription's answers go when they skip graphql-ws's per-subscriber `next`: its socket and
 * id. A group's answer is serialized once, and each subscriber is sent the same text with its own id
 * around it, as graphql-ws would have sent it (`{"id":…,"type":"next","payload":…}`).
 */
export interface Delivery {
  id: string;
  send(frame: string): Promise<void>;
}

/** An answer, and once asked for, its payload as JSON (what graphql-ws sends of a result). */
interface Answer {
  result: ExecutionResult;
  json?: string;
}

/** Answers by event, then by group; events are forgotten with their objects. */
const results = new WeakMap<object, Map<string, Promise<Answer>>>();
/** A number per document object (yoga's parse cache gives one object per query text). */
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;

/** Subscribes as graphql-js does (the field's event stream, each event executed), sharing each event's execution within a group. */
export async function subscribeShared(
  args: ExecutionArgs,
  mask: (error: GraphQLError) => GraphQLError,
  answers: Counted,
  delivery?: Delivery,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return { ...source, errors: source.errors?.map(mask) };
  const events = source as AsyncIterableIterator<unknown>;
  const run = async (event: unknown): Promise<Answer> => {
    answers.inc({ how: 'made' });
    // As graphql-js maps each event: the operation executed with the event as its root value.
    const result = await execute({ ...args, rootValue: event });
    return { result: result.errors ? { ...result, errors: result.errors.map(mask) } : result };
  };
  const group = groupOf(args);
  const answer = (event: unknown) => (group ? shared(event, group, run, answers) : run(event));
  // A group's subscribers are sent its one serialized answer straight to their sockets: graphql-ws
  // only hears of the end (or the refusal that ends it), and answers it with complete (or error).
  const head = delivery && `{"id":${JSON.stringify(delivery.id)},"type":"next","payload":`;
  /** The subscriber completed or went: a change already on its way is not sent after that. */
  let stopped = false;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        const step = await events.next();
        if (step.done) return { done: true, value: undefined };
        const made = await answer(step.value);
        if (!group || !delivery) return { done: false, value: made.result };
        if (stopped) return { done: true, value: undefined };
        // One at a time, each sent before the next is taken: every change in order, and a socket that
        // does not read holds its own subscription back (then reloads: MAX_BEHIND), not the others.
        await delivery.send(`${head}${payloadOf(made, answers)}}`);
      }
    },
    // Straight to the source, which ends at once even while it waits for the next change.
    return: async () => {
      stopped = true;
      await events.return?.();
      return { done: true, value: undefined };
    },
    throw: async (err) => {
      await events.throw?.(err);
      throw err;
    },
  };
  return iterator;
}

/** The group of a subscription: its document, operation, variables and granted rights; none when liveFor granted none. */
function groupOf(args: ExecutionArgs): string | undefined {
  const access = (args.contextValue as StaffContext).liveAccess;
  if (!access) return undefined;
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  const read = Object.fromEntries(answerVariables(args.document).map((name) => [name, args.variableValues?.[name] ?? null]));
  return JSON.stringify([id, args.operationName ?? null, read, access.workspaceId, access.role]);
}

const answerVariablesOf = new WeakMap<DocumentNode, string[]>();

/** The variables that what a subscription selects reads: all but those only its root field's arguments name. */
function answerVariables(document: DocumentNode): string[] {
  let names = answerVariablesOf.get(document);
  if (names) return names;
  const found = new Set<string>();
  let depth = 0;
  visit(document, {
    [Kind.VARIABLE_DEFINITION]: () => false,
    [Kind.OPERATION_DEFINITION]: { enter: () => void (depth = 0) },
    [Kind.FIELD]: { enter: () => void depth++, leave: () => void depth-- },
    [Kind.FRAGMENT_DEFINITION]: { enter: () => void (depth = 2) },
    [Kind.VARIABLE]: (node) => {
      // depth 1: the arguments of the subscription's root field.
      if (depth !== 1) found.add(node.name.value);
    },
  });
  answerVariablesOf.set(document, (names = [...found].sort()));
  return names;
}

/** The answer's payload as graphql-ws sends it (the result, its errors as JSON), serialized once for its group. */
function payloadOf(answer: Answer, answers: Counted): string {
  if (answer.json === undefined) {
    answers.inc({ how: 'serialized' });
    const { errors, ...rest } = answer.result;
    answer.json = JSON.stringify(errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest);
  }
  return answer.json;
}

function shared(event: unknown, group: string, run: (event: unknown) => Promise<Answer>, answers: Counted) {
  if (typeof event !== 'object' || event === null) return run(event);
  let byGroup = results.get(event);
  if (!byGroup) results.set(event, (byGroup = new Map()));
  let result = byGroup.get(group);
  if (result) answers.inc({ how: 'shared' });
  else byGroup.set(group, (result = run(event)));
  return result;
}
