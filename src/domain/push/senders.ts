import type { PushAddresses } from '../../config.js';
import { ApnsTokens, sendApns, type ProviderTokenStore } from '../../lib/push/apns.js';
import { FcmTokens, sendFcm } from '../../lib/push/fcm.js';
import { Http2Client } from '../../lib/push/h2.js';
import type { PushOutcome } from '../../lib/push/outcome.js';
import { readSubscription, WebPushClient } from '../../lib/push/web-push.js';
import type { PushTransportOptions } from '../../lib/push/connect.js';
import type { PushDevice } from '../devices/devices.js';
import type { OpenCredentials } from './credentials.js';
import { apnsPayload, fcmContent, webPayload, type PushContent } from './payload.js';

// One device's push through its platform's provider. What lasts between sends lives here, one per
// server process: the HTTP/2 connections to APNs and FCM, the APNs provider tokens (kept in the
// database too, shared by every process) and the FCM access tokens (each provider wants them
// reused), and kept connections to push services.

export const PLATFORM_PROVIDER = { ios: 'apns', android: 'fcm', web: 'web' } as const;
const NAMES = { apns: 'APNs', fcm: 'FCM', web: 'Web Push' } as const;

/** How long a push service or APNs keeps a push for a device that is offline. */
const KEEP_S = 24 * 3600;

export class PushSenders {
  private readonly h2: Http2Client;
  private readonly web: WebPushClient;
  private readonly apnsTokens: ApnsTokens;
  private readonly fcmTokens = new FcmTokens();

  constructor(
    private readonly addresses: PushAddresses,
    opts: { transport?: PushTransportOptions; apnsTokenStore?: ProviderTokenStore } = {},
  ) {
    this.h2 = new Http2Client(opts.transport);
    this.web = new WebPushClient(opts.transport);
    this.apnsTokens = new ApnsTokens(opts.apnsTokenStore);
  }

  /** Sends the push to one device; a platform without credentials is a failure of its own, never sent. */
  async send(device: PushDevice, creds: OpenCredentials, content: PushContent, now: Date): Promise<PushOutcome> {
    const provider = PLATFORM_PROVIDER[device.platform];
    switch (provider) {
      case 'apns': {
        if (!creds.apns) return noCredentials(provider);
        const baseUrl = creds.apns.production ? this.addresses.apnsUrl : this.addresses.apnsSandboxUrl;
        const expiration = Math.floor(now.getTime() / 1000) + KEEP_S;
        return sendApns(
          this.h2,
          this.apnsTokens,
          creds.apns,
          baseUrl,
          { deviceToken: device.token, payload: apnsPayload(content), expiration },
          now,
        );
      }
      case 'fcm':
        if (!creds.fcm) return noCredentials(provider);
        return sendFcm(
          this.h2,
          this.fcmTokens,
          creds.fcm,
          { fcmUrl: this.addresses.fcmUrl, tokenUrl: this.addresses.fcmTokenUrl },
          device.token,
          fcmContent(content),
          now,
        );
      case 'web': {
        if (!creds.web) return noCredentials(provider);
        const subscription = readSubscription(device.token);
        if (!subscription) return { kind: 'failed', reason: 'the token is not a PushSubscription' };
        return this.web.send(subscription, webPayload(content), creds.web, now, KEEP_S);
      }
    }
  }

  async close(): Promise<void> {
    await this.h2.close();
    this.web.close();
  }
}

/** Why a device of a platform without credentials is not sent to. */
export const noCredentials = (provider: keyof typeof NAMES): PushOutcome => ({
  kind: 'failed',
  reason: `no ${NAMES[provider]} credentials are set`,
  systemic: true,
});
