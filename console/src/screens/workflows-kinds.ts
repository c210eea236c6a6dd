// A workflow step's kinds and their words: the step editor's and the run views' (the person's page
// shows runs too, so these stay apart from the editor's model).

export const STEP_KINDS = ['wait', 'wait_until', 'wait_for_event', 'branch', 'send', 'webhook', 'set_attribute', 'tag', 'end'] as const;
export type StepKind = (typeof STEP_KINDS)[number];
export const KIND_WORDS: Record<StepKind, string> = {
  wait: 'Wait',
  wait_until: 'Wait until a time of day',
  wait_for_event: 'Wait for an event',
  branch: 'Branch',
  send: 'Send a message',
  webhook: 'Call a webhook',
  set_attribute: 'Set an attribute',
  tag: 'Tag',
  end: 'End',
};
