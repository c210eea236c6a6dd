/** Sent in `X-Crm-Sdk` as `crm-web/<version>`. */
export const SDK_VERSION = '0.1.0';
