import { describe, expect, it } from 'vitest';
import { ReceiptLedger, type ReceiptAction, type ReceiptDetails } from './receipts.js';

describe('ReceiptLedger', () => {
  it('sends each receipt once: seen, dismissed and completed once a message, clicked once a button, answered once a screen', async () => {
    const posted: string[] = [];
    const ledger = new ReceiptLedger(async (m, action: ReceiptAction, d: ReceiptDetails) => {
      posted.push(`${m.id}:${action}:${d.button ?? d.screen ?? ''}`);
      return true;
    });
    const message = { id: 'm1', variant: 'a', test: false };
    for (let i = 0; i < 3; i++) {
      await ledger.send(message, 'seen');
      await ledger.send(message, 'clicked', { button: 'go' });
      await ledger.send(message, 'clicked', { button: 'later' });
      await ledger.send(message, 'answered', { screen: 's1', answers: ['x'] });
      await ledger.send(message, 'dismissed');
    }
    await ledger.send({ ...message, test: true }, 'seen');
    expect(posted).toEqual(['m1:seen:', 'm1:clicked:go', 'm1:clicked:later', 'm1:answered:s1', 'm1:dismissed:', 'm1:seen:']);
  });

  it('lets a receipt that could not be sent be sent again', async () => {
    let up = false;
    let tries = 0;
    const ledger = new ReceiptLedger(async () => (tries++, up));
    const message = { id: 'm1', variant: 'a', test: false };
    expect(await ledger.send(message, 'seen')).toBe(false);
    up = true;
    expect(await ledger.send(message, 'seen')).toBe(true);
    expect(await ledger.send(message, 'seen')).toBe(false);
    expect(tries).toBe(2);
  });
});
