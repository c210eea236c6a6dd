/** What a receipt tells (`ReceiptBody.action`). */
export type ReceiptAction = 'seen' | 'clicked' | 'dismissed' | 'completed' | 'answered';

/** The message a receipt is about, as the check-in answered it. */
export interface ReceiptMessage {
  id: string;
  variant: string;
  test: boolean;
}

export interface ReceiptDetails {
  screen?: string;
  button?: string;
  link?: string;
  answers?: string[];
  path?: string[];
}

/**
 * Receipts, each sent once: a message seen, dismissed or completed once; a button clicked, or a
 * carousel screen answered, once each. A receipt that could not be sent may be sent again.
 */
export class ReceiptLedger {
  private readonly sent = new Set<string>();

  constructor(private readonly post: (message: ReceiptMessage, action: ReceiptAction, details: ReceiptDetails) => Promise<boolean>) {}

  /** Sends the receipt unless it was sent already; whether this call sent it. */
  async send(message: ReceiptMessage, action: ReceiptAction, details: ReceiptDetails = {}): Promise<boolean> {
    const which =
      action === 'clicked'
        ? `${details.screen ?? ''}/${details.button ?? details.link ?? ''}`
        : action === 'answered'
          ? (details.screen ?? '')
          : '';
    const key = [message.id, message.variant, message.test, action, which].join('\u0000');
    if (this.sent.has(key)) return false;
    this.sent.add(key);
    const kept = await this.post(message, action, details).catch(() => false);
    if (!kept) this.sent.delete(key);
    return kept;
  }
}
