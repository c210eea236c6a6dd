import { describe, expect, it } from 'vitest';
import { bareAddress, inboxAddress, readInboxAddress, readReplyAddress, replyAddress, replyMarkHolds } from './addresses.js';

const key = Buffer.alloc(32, 7);
const mode = 'mode_1';
const conversation = '0b7d2c4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e';

describe('reply addresses', () => {
  it('name the conversation, signed for its app-mode, in 54 characters of local part', () => {
    const address = replyAddress(key, 'in.example.com', mode, conversation);
    expect(address.split('@')[0]).toHaveLength(54);
    const read = readReplyAddress(address)!;
    expect(read.conversationId).toBe(conversation);
    expect(replyMarkHolds(key, mode, conversation, read.mac)).toBe(true);
    // Lowercased or uppercased by a mail system, it still reads.
    expect(readReplyAddress(address.toUpperCase())!.conversationId).toBe(conversation);
  });

  it('hold for no other app-mode, conversation or key', () => {
    const read = readReplyAddress(replyAddress(key, 'd', mode, conversation))!;
    expect(replyMarkHolds(key, 'mode_2', conversation, read.mac)).toBe(false);
    expect(replyMarkHolds(Buffer.alloc(32, 8), mode, conversation, read.mac)).toBe(false);
    const other = '1b7d2c4e-1f2a-4c3b-9d8e-7f6a5b4c3d2e';
    expect(replyMarkHolds(key, mode, other, read.mac)).toBe(false);
    expect(readReplyAddress('reply+abc@d')).toBeUndefined();
    expect(readReplyAddress('someone@d')).toBeUndefined();
  });

  it('inbox addresses name the app key', () => {
    expect(readInboxAddress(inboxAddress('d', 'app_test_Ab12'))).toBe('app_test_Ab12');
    expect(readInboxAddress('inbox+@d')).toBeUndefined();
  });

  it('bare addresses are read from a display form', () => {
    expect(bareAddress('Ann Lee <Ann@Example.COM>')).toBe('Ann@example.com');
    expect(bareAddress(' ann@example.com ')).toBe('ann@example.com');
    expect(bareAddress('Ann Lee')).toBeUndefined();
    expect(bareAddress('@example.com')).toBeUndefined();
  });
});
