// Placeholder until the reply parser lands: keeps the lines before the first quoted one.
export function replyOf(text: string): { reply: string; trimmed: boolean } {
  const lines = text.split(/\r?\n/);
  const end = lines.findIndex((l) => l.startsWith('>') || /^On .* wrote:$/.test(l));
  const reply = (end < 0 ? lines : lines.slice(0, end)).join('\n').trim();
  return reply ? { reply, trimmed: end >= 0 } : { reply: text.trim(), trimmed: false };
}
