// The two encodings a message's MIME needs, written for speed on a sending's many people:
// quoted-printable bodies (RFC 2045 6.7: lines of at most 76 characters, soft breaks `=`, CRLF
// between lines) and encoded words for header text that is not plain ASCII (RFC 2047, `B`
// encoding, whole characters per word, words folded onto lines of their own).

const HEX = Array.from({ length: 256 }, (_, b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`);
/** Bytes written as themselves: printable ASCII but `=`, and space and tab (encoded at a line's end). */
const LITERAL = Array.from({ length: 256 }, (_, b) => (b >= 33 && b <= 126 && b !== 61) || b === 32 || b === 9);
/** The longest encoded line before its soft break's `=`. */
const MAX = 75;

/** Text as quoted-printable: its line breaks (LF or CRLF) kept as CRLF, long lines broken softly. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const hard of text.split(/\r?\n/)) {
    // A line of plain ASCII short enough is itself (the common case of a rendered email's lines).
    if (hard.length <= MAX && /^[\x21-\x3c\x3e-\x7e]*(?:[ \t]+[\x21-\x3c\x3e-\x7e]+)*$/.test(hard)) {
      out.push(hard);
      continue;
    }
    const bytes = Buffer.from(hard, 'utf8');
    let line = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const trailing = (b === 32 || b === 9) && i === bytes.length - 1;
      const piece = LITERAL[b] && !trailing ? String.fromCharCode(b) : HEX[b]!;
      if (line.length + piece.length > MAX) {
        out.push(`${line}=`);
        line = '';
      }
      line += piece;
    }
    out.push(line);
  }
  return out.join('\r\n');
}

/** A soft line break: what joins pieces encoded apart into one line of the decoded text. */
export const SOFT_BREAK = '=\r\n';

/** Header text as it may be written: itself when printable ASCII, else encoded words on folded lines. */
export function headerText(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const words: string[] = [];
  let chunk = '';
  for (const ch of value) {
    // 45 bytes make 60 base64 characters: with `=?UTF-8?B?` and `?=` a word of 72.
    if (Buffer.byteLength(chunk + ch, 'utf8') > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\r\n ');
}

/** A display name as a header writes it: encoded words, a quoted string, or itself. */
export function displayName(name: string): string {
  if (!/^[\x20-\x7e]*$/.test(name)) return headerText(name);
  return /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/.test(name) ? name : `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** An address a header and SMTP's envelope take as it is: ASCII, one @, nothing a header would read otherwise. */
export const plainAddress = (address: string) => /^[\x21-\x7e]+@[\x21-\x7e]+$/.test(address) && !/[<>(),;:"\\[\]\s]/.test(address);
