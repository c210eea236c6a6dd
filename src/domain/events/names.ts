// Event names, and the events every app has without declaring them (sent by the SDKs).

export const MAX_EVENT_NAME = 100;
export const isEventName = (name: string) =>
  name.length >= 1 && name.length <= MAX_EVENT_NAME && /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/.test(name);

/** Built-in guest events: the SDK's own view of a session. */
export const BUILT_IN_EVENTS = new Set([
  'session_started',
  'app_opened',
  'app_backgrounded',
  'screen_viewed',
  'page_viewed',
  'push_received',
  'push_opened',
  'link_opened',
  'signed_in',
  'signed_out',
]);
