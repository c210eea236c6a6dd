// Posts to customers' servers (webhook deliveries, workflow webhook steps): docs/areas/outbound-posts.md.
export { postOutbound, OUTBOUND_TIMEOUT_MS, RESPONSE_READ_BYTES, type PostOptions } from './post.js';
export type { Answered, Failed, FailureKind, PostResult } from './result.js';
export { refusalReason } from './address.js';
export { systemResolver, type Resolver } from './resolve.js';
export { readTestTrust, type TestTrust } from './test-trust.js';
