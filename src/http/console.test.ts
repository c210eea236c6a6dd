import { describe, expect, it } from 'vitest';
import { consolePolicy } from './console.js';

describe("the console shell's policy", () => {
  it('lets the socket reach the host the page came from', () => {
    expect(consolePolicy('crm.example.com:8443')).toContain("connect-src 'self' ws://crm.example.com:8443 wss://crm.example.com:8443;");
    expect(consolePolicy('[::1]:8080')).toContain('ws://[::1]:8080');
  });

  it('leaves a Host header that would add a directive out of it', () => {
    const policy = consolePolicy("evil.example; script-src 'unsafe-inline' *");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toContain('evil');
    expect(policy).not.toContain('unsafe-inline');
  });
});
