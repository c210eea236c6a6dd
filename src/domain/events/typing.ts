import type { IncomingEvent, IngestOptions, Rejection } from './incoming.js';
import { isEventName, MAX_EVENT_NAME } from './names.js';
import { guessPropType, MAX_DEFINITION_PROPS, propProblem, readProp, type PropDefinition } from './props.js';

// Reading a batch's props by their definitions, without the database: the same rules whether the
// definitions come from a locked read or from the in-process cache.

/** What typing needs of a definition. */
export interface KnownDefinition {
  name: string;
  source: string;
  props: PropDefinition[];
}

export interface Typed {
  event: IncomingEvent;
  props: Record<string, string | number | boolean>;
}

export interface TypedBatch {
  typed: Typed[];
  refused: Rejection[];
  /**
   * The definitions these events would make (absent, `mayDefine`) or grow (a prop seen for the
   * first time, up to the cap), with all their props: empty when every event fits as things are.
   */
  grown: Map<string, PropDefinition[]>;
}

/** Each event typed by its definition, or refused with the reason. */
export function typeEvents(events: IncomingEvent[], defs: ReadonlyMap<string, KnownDefinition>, opts: IngestOptions): TypedBatch {
  const out: TypedBatch = { typed: [], refused: [], grown: new Map() };
  const refuse = (e: IncomingEvent, reason: string, detail: string) => out.refused.push({ index: e.index, id: e.id, reason, detail });
  for (const e of events) {
    if (!isEventName(e.name)) {
      refuse(
        e,
        'invalid',
        `events.${e.index}.name: letters, digits, spaces or _ . : / -, starting with a letter or digit, at most ${MAX_EVENT_NAME}`,
      );
      continue;
    }
    let def = defs.get(e.name);
    if (!def && opts.mayDefine(e.name)) {
      // Made on first sight, as lockDefinitions makes it.
      def = { name: e.name, source: opts.source === 'guest' ? 'both' : 'server', props: [] };
      if (!out.grown.has(e.name)) out.grown.set(e.name, []);
    }
    if (!def) {
      refuse(e, 'unknown_event', `"${e.name}" is neither a built-in event nor one this app defines.`);
      continue;
    }
    if (!opts.mayUse(def)) {
      refuse(e, 'server_only_event', `"${e.name}" is declared as sent by servers only (source: server).`);
      continue;
    }
    const props = out.grown.get(e.name) ?? def.props;
    const added: PropDefinition[] = [];
    const values: Typed['props'] = {};
    let problem: { reason: string; detail: string } | undefined;
    for (const [key, raw] of Object.entries(e.props)) {
      const unfit = propProblem(key, raw);
      if (unfit) {
        problem = { reason: 'invalid_prop', detail: unfit };
        break;
      }
      let prop = props.find((p) => p.key === key) ?? added.find((p) => p.key === key);
      if (!prop) {
        if (props.length + added.length >= MAX_DEFINITION_PROPS) {
          problem = {
            reason: 'too_many_props',
            detail: `prop ${key} is new, and "${e.name}" already holds the most props an event may (${MAX_DEFINITION_PROPS})`,
          };
          break;
        }
        added.push((prop = { key, type: guessPropType(raw) }));
      }
      const read = readProp(prop.type, raw);
      if ('problem' in read) {
        problem = { reason: 'invalid_prop', detail: `prop ${key} ${read.problem} (its type is ${prop.type})` };
        break;
      }
      values[key] = read.value;
    }
    if (problem) {
      refuse(e, problem.reason, problem.detail);
      continue;
    }
    if (added.length) out.grown.set(e.name, [...props, ...added]);
    out.typed.push({ event: e, props: values });
  }
  return out;
}
