// Placeholder until the automatic-mail rules land.
export function automaticKind(mail: {
  from: string;
  subject?: string;
  text: string;
  headers?: Record<string, string>;
}): 'auto_reply' | 'delivery_failure' | 'complaint_report' | undefined {
  const h = Object.fromEntries(Object.entries(mail.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (h['auto-submitted'] && h['auto-submitted'] !== 'no') return 'auto_reply';
  if (/mailer-daemon|postmaster/i.test(mail.from)) return 'delivery_failure';
  if (/out of office|automatic reply/i.test(mail.subject ?? '')) return 'auto_reply';
  return undefined;
}
