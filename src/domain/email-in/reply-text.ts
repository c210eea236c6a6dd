// The reply a person wrote in an email, without the earlier email it quotes: the quote headers
// ("On … wrote:" and its localized forms, Outlook's From:/Sent:/To:/Subject: block, "-----Original
// Message-----", forwarded-message markers), the signature after a "-- " delimiter, mobile
// signatures ("Sent from my iPhone") and a `>`-quoted block that ends the email.
//
// How: each line is classified (blank, delimiter, mobile signature, quote header, header field,
// quoted, text) into one letter, and a few rules read the string of letters. The rules follow
// those of the trimmer whose test set measures this one (discourse's email_reply_trimmer, MIT
// licence), with the changes our guarantees ask for (docs/areas/inbound-email.md#quoted-text):
// - No line the person wrote outside the quote is dropped: text below a quote (bottom-posting,
//   inline answers) is kept with the quote it answers, and a single header-like line ("Date: the
//   12th suits me") is text; only a block of three or more header fields is an earlier email's.
// - Never empty: when the rules would leave nothing, the whole text is the reply (trimmed: false).
// - Linear time: a line is classified by anchored patterns on at most its first MAX_LINE
//   characters (a longer line is text, or quoted); a quote header spread over lines is looked for
//   only in windows of at most HEADER_LINES lines and HEADER_CHARS characters ending at a line that
//   ends as a header does; the rules scan the letters by hand, never with a backtracking pattern.

/** A line longer than this is never a header, a delimiter or a signature: it is text (or quoted). */
const MAX_LINE = 400;
/** A quote header spans at most this many lines ("On …,\n<address>\nwrote:") … */
const HEADER_LINES = 5;
/** … and this many characters, joined. */
const HEADER_CHARS = 400;
/** A run of this many header fields (From:, Sent:, To:, Subject: …) opens an earlier email. */
const HEADER_BLOCK = 3;

type Kind =
  | 'e' // blank (or a separator made of punctuation only, or an invisible tracking character)
  | 'd' // signature delimiter: "-- ", "--", a row of underscores
  | 's' // mobile signature ("Sent from my iPhone")
  | 'b' // quote header ("On … wrote:", "-----Original Message-----")
  | 'h' // header field of an embedded email ("From: …", "Sent: …")
  | 'q' // quoted with ">"
  | 't'; // text

// Lines made of these characters only are separators (a Markdown rule, "* * *"), blank to the rules.
const SEPARATOR = /^[\s\-_=+~#*,—–ᐧ\u200b\u200c\u200d\u2060\ufeff]*$/u;
// The signature delimiter of RFC 3676 ("-- ") and what clients make of it, and Outlook's rule of
// underscores above its header block.
const DELIMITER = /^(?:--\s*|_{2,}\s*)$/;
const QUOTED = /^\s*>/;
const FENCE = /^\s*```/;
// Quote markers some clients write instead of ">": "C> text", "Richard> text".
const NAMED_QUOTE = /^\s*[A-Za-z]{1,20}>(?=\s|$)/;

const MOBILE_SIGNATURES: RegExp[] = [
  /^[([<]*\s*sent (?:from|via|with|by) \S.*$/i,
  /^\S+ from mobile\b/i,
  /^from my (?:i?phone|ipad|ipod|android|mobile|samsung|galaxy|blackberry|cell|tablet)\b/i,
  /^get (?:\[\s*)?outlook for\b/i,
  /^envoyé (?:depuis|de) (?:mon|yahoo)\b/i,
  /^von meinem .{1,60} gesendet\.?$/i,
  /^diese nachricht wurde von .{1,80} gesendet\.?$/i,
  /^inviato da\b/i,
  /^sendt fra min\b/i,
  /^enviado (?:do meu|desde mi|desde)\b/i,
  /^verzonden (?:met|vanaf)\b/i,
  /^verstuurd vanaf\b/i,
  /^skickat från\b/i,
  /^från min\b/i,
  /^從我的 ?iPhone ?傳送/i,
  /^发自我的 ?iPhone/i,
  /^iPhoneから送信/i,
];

// Header fields of an embedded email, in the languages the clients write them. Date fields need a
// digit after the colon; the others any word.
const DATE_FIELDS = [
  'Sent',
  'Date',
  'Sendt',
  'Gesendet',
  'Enviada em',
  'Enviado',
  'Fecha',
  'Data',
  'Datum',
  'Skickat',
  'Le',
  '发送时间',
  'Отправлено',
  'Дата',
];
const TEXT_FIELDS = [
  'From',
  'To',
  'Cc',
  'Reply-To',
  'Subject',
  'Fra',
  'Til',
  'Emne',
  'De',
  'Expéditeur',
  'À',
  'Destinataire',
  'Répondre à',
  'Objet',
  'Von',
  'An',
  'Betreff',
  'Para',
  'Assunto',
  'Asunto',
  'Da',
  'Risposta',
  'A',
  'Oggetto',
  'Van',
  'Beantwoorden - Aan',
  'Aan',
  'Onderwerp',
  'Från',
  'Till',
  'Ämne',
  '发件人',
  '收件人',
  '主题',
  'От',
  'Кому',
  'Тема',
];
const alternation = (words: string[]) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const DATE_FIELD = new RegExp(`^[ \\t*]*(?:${alternation(DATE_FIELDS)})[ \\t*]*:[^\\d\\n]{0,40}\\d`, 'iu');
const TEXT_FIELD = new RegExp(`^[ \\t*]*(?:${alternation(TEXT_FIELDS)})[ \\t*]*:[ \\t*]*[\\p{L}\\p{N}"'<\\[(]`, 'iu');

// Single-line quote headers.
const FORWARDED = [
  /^[\s>*]*-{2,}\s*(?:Forwarded|Original|Reply) Message\s*-{2,}/i,
  /^[\s>*]*-{2,}\s*(?:Message transféré|Message d'origine|Ursprüngliche Nachricht|Weitergeleitete Nachricht|Mensaje original|Mensaje reenviado|Mensagem original|Mensagem encaminhada|Messaggio originale|Messaggio inoltrato|Oorspronkelijk bericht|Doorgestuurd bericht|Oprindelig meddelelse|Videresendt meddelelse|Opprinnelig melding|Ursprungligt meddelande|Vidarebefordrat meddelande|Alkuperäinen viesti|Wiadomość oryginalna|Исходное сообщение|Пересылаемое сообщение|原始邮件|転送されたメッセージ)\s*-{0,}/i,
  /^[\s>]*(?:Begin forwarded message|Début du message transféré|Inicio del mensaje reenviado|Anfang der weitergeleiteten Nachricht)\s*:/i,
  /^[\s>]*Posted by .{1,80} on \d{1,2}\/\d{1,2}\/\d{4}$/i,
  // 2016-03-03 17:21 GMT+01:00 Some One
  /^[\s>]*20\d\d-\d\d-\d\d \d\d?:\d\d GMT[+-]\d\d:\d\d [\p{L}\p{N} ._-]{1,80}$/u,
  // 2013/7/20 sam via Discourse Meta <info@discourse.org>
  /^[\s>]*\d{4}[/-]\d{1,2}[/-]\d{1,2} [^<>]{1,120}<[^<>@\s]+@[^<>\s]+>:?$/,
];

// A quote header over one to HEADER_LINES lines: it starts as one does, ends as one does, and
// holds a date or an address. Starts and ends are read on a few dozen characters, never the whole.
const HEADER_WORD_START = /^(?:-+\s*)?(?:On|At|In message|Le|Am|Op|El|Em|Il|Dnia|Dňa|W dniu|Den|Dne|pe|søn\.|在)\s/iu;
const HEADER_START = /^(?:-+\s*)?(?:On|At|In message|Le|Am|Op|El|Em|Il|Dnia|Dňa|W dniu|Den|Dne|pe|søn\.|在|\d)[\s,.]/iu;
// Words a quote header ends with, or holds before the sender's name ("Am … schrieb Max <…>:").
const HEADER_VERB =
  /(?:^|[\s"'>)])(?:wrote|writes|said|says|a écrit|nous a dit|schrieb|schrieben Sie|geschrieben|schreef|escribió|escreveu|ha scritto|scrisse|napisał(?:\(a\))?|pisze|napsal\(a\)|napsal|skrev|kirjoitti|написал(?:\(а\)|а)?|пише|писал|写道|작성|のメッセージ)(?=[\s:：.>\-*]|$)/iu;
const HEADER_END = /(?::|：|\bwrote|\bwrites|\bsaid|\bgeschreven)[\s\-*>]*$/u;
const ADDRESS = /[^\s<>@]@[^\s<>@]*\.[^\s<>@]/;
// A quote header names a time, a year or an address: "On 2 May I wrote:" is the person's text.
const WHEN_OR_WHO = /\d{1,2}[:.]\d\d|\b(?:19|20)\d\d\b|@/;
const SENDER_WORD = /(?:пользователь|użytkownik)/iu;

/** What is left of an email once the quoted earlier email is taken out; trimmed says whether anything was. */
export function replyOf(text: string): { reply: string; trimmed: boolean } {
  const whole = edges(text.replace(/\r\n?/g, '\n').split('\n'));
  if (whole.length === 0) return { reply: '', trimmed: false };
  // Lines are classified with named quote markers read as ">", and kept as written.
  const kinds = classify(whole.map(namedQuote));
  const kept = edges(rules(whole, kinds));
  const original = whole.join('\n');
  if (kept.length === 0) return { reply: original, trimmed: false };
  const reply = kept.join('\n');
  return { reply, trimmed: reply !== original };
}

/** "C> text" is read as "> text". */
function namedQuote(line: string): string {
  if (line.length > MAX_LINE || !NAMED_QUOTE.test(line)) return line;
  return line.replace(NAMED_QUOTE, '>');
}

/** Without the blank lines at either end; the lines themselves as written. */
function edges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && blank(lines[start]!)) start++;
  while (end > start && blank(lines[end - 1]!)) end--;
  return lines.slice(start, end);
}

function blank(line: string): boolean {
  return line.length <= MAX_LINE ? /^[\s\u200b\u200c\u200d\u2060\ufeffᐧ]*$/u.test(line) : line.trim() === '';
}

function classify(lines: string[]): Kind[] {
  const kinds: Kind[] = [];
  let fence = -1;
  for (const [i, line] of lines.entries()) {
    // Code between ``` fences is the person's, whatever it holds.
    if (FENCE.test(line.slice(0, 16))) {
      fence = fence < 0 ? i : -1;
      kinds.push('t');
      continue;
    }
    kinds.push(fence >= 0 ? 't' : kindOf(line));
  }
  // An unclosed fence fences nothing: the lines after it are read as any others.
  if (fence >= 0) for (let i = fence; i < lines.length; i++) kinds[i] = kindOf(lines[i]!);
  markHeaders(lines, kinds);
  return kinds;
}

function kindOf(line: string): Kind {
  if (line.length > MAX_LINE) return QUOTED.test(line.slice(0, 64)) ? 'q' : line.trim() === '' ? 'e' : 't';
  if (blank(line)) return 'e';
  if (DELIMITER.test(line)) return 'd';
  if (SEPARATOR.test(line)) return 'e';
  const trimmed = line.trim();
  if (MOBILE_SIGNATURES.some((r) => r.test(trimmed))) return 's';
  if (FORWARDED.some((r) => r.test(line))) return 'b';
  if (DATE_FIELD.test(line) || TEXT_FIELD.test(line)) return 'h';
  if (QUOTED.test(line)) return 'q';
  return 't';
}

/**
 * Marks quote headers of one to HEADER_LINES lines, looked for at each line that ends as one does.
 * A line above the smallest match joins it when the header starts there ("On Thu, … Some One <\n
 * info@… > wrote:"); a line that itself ends as a header never does (it is a header of its own).
 */
function markHeaders(lines: string[], kinds: Kind[]) {
  for (let end = 0; end < lines.length; end++) {
    const last = lines[end]!;
    if (last.length > MAX_LINE || kinds[end] === 'd' || !HEADER_END.test(last.slice(-40))) continue;
    let joined = '';
    let found = -1;
    for (let size = 1; size <= HEADER_LINES && end - size + 1 >= 0; size++) {
      const first = end - size + 1;
      const line = lines[first]!;
      if (line.length > MAX_LINE || kinds[first] === 'd') break;
      if (size > 1 && HEADER_END.test(line.slice(-40))) break;
      joined = size === 1 ? unquote(line) : `${unquote(line)} ${joined}`;
      if (joined.length > HEADER_CHARS) break;
      if (blank(line)) continue;
      if (found < 0 ? quoteHeader(joined.trim()) : startsHeader(unquote(line)) && quoteHeader(joined.trim())) found = first;
    }
    if (found >= 0) for (let i = found; i <= end; i++) kinds[i] = 'b';
  }
}

function startsHeader(line: string): boolean {
  return HEADER_WORD_START.test(line) || (/^\d/.test(line) && WHEN_OR_WHO.test(line));
}

function unquote(line: string): string {
  return line.replace(/^[\s>]*/, '').trim();
}

function quoteHeader(text: string): boolean {
  if (!WHEN_OR_WHO.test(text)) return false;
  if (!HEADER_VERB.test(text)) {
    // "2016-10-24 15:36 GMT+02:00 Foo bar <info@foo.bar>:", "вт, 5 мар. 2024 г. в 10:12, Foo <info@foo.bar>:":
    // a year, a time, an address in angle brackets and a colon.
    return /\d{4}/.test(text) && /\d{1,2}[:.]\d\d/.test(text) && /<\s*[^<>\s@]+@[^<>\s@]+\s*>\s*:$/.test(text);
  }
  return HEADER_START.test(text) || ADDRESS.test(text) || SENDER_WORD.test(text);
}

/** The lines kept, read from their kinds. */
function rules(input: string[], inputKinds: Kind[]): string[] {
  let lines = input;
  let kinds = inputKinds;
  const keep = (from: number, to: number) => {
    lines = lines.slice(from, to);
    kinds = kinds.slice(from, to);
  };
  const drop = (gone: (i: number) => boolean) => {
    const l: string[] = [];
    const k: Kind[] = [];
    for (let i = 0; i < lines.length; i++)
      if (!gone(i)) {
        l.push(lines[i]!);
        k.push(kinds[i]!);
      }
    lines = l;
    kinds = k;
  };

  // 1. A signature delimiter ends the reply.
  const delimiter = kinds.indexOf('d');
  if (delimiter >= 0) keep(0, delimiter);

  // 2. Mobile signatures, where they stand apart from the text (a run of them with no text line
  //    right above or below: "Sent from my phone, so short" inside a paragraph stays).
  {
    const gone = new Set<number>();
    for (let i = 0; i < kinds.length;) {
      if (kinds[i] !== 's') {
        i++;
        continue;
      }
      let j = i;
      while (j < kinds.length && kinds[j] === 's') j++;
      if (kinds[i - 1] !== 't' && kinds[j] !== 't') for (let x = i; x < j; x++) gone.add(x);
      else for (let x = i; x < j; x++) kinds[x] = 't';
      i = j;
    }
    if (gone.size) drop((i) => gone.has(i));
  }

  // 3. The reply below a quote it follows: a quote header first, then quoted lines, headers and
  //    blanks, then text to the end.
  if (kinds[0] === 'b') {
    const firstText = kinds.indexOf('t');
    if (firstText > 1 && kinds.slice(firstText).every((k) => k === 't' || k === 'e')) keep(firstText, kinds.length);
  }

  // 4. Text, then a quote header with no quoted line after it: the earlier email follows unquoted
  //    (Gmail's forward, Outlook's reply): everything from the header on goes.
  {
    const lastQuoted = kinds.lastIndexOf('q');
    let lastText = -1;
    for (let i = 0; i < kinds.length; i++) {
      // lastText >= 0: only blank lines since that text line.
      if (kinds[i] === 't') lastText = i;
      else if (kinds[i] === 'b' && lastText >= 0 && i > lastQuoted) {
        keep(0, i);
        break;
      } else if (kinds[i] !== 'e') lastText = -1;
    }
  }

  // 5. A quote ending the email (quoted lines, quote headers, blanks) goes.
  {
    let i = kinds.length;
    while (i > 0 && (kinds[i - 1] === 'q' || kinds[i - 1] === 'b' || kinds[i - 1] === 'e')) i--;
    if (i < kinds.length && kinds.slice(i).some((k) => k !== 'e')) keep(0, i);
  }

  // 6. The quote headers left stand above quoted lines the person answers between: they go, the
  //    quoted lines stay with the answers.
  if (kinds.includes('b')) drop((i) => kinds[i] === 'b');

  // 7. A header block spread over lines ("Subject: a subject that\nspans two lines"): header,
  //    a few lines, header, then a blank, is one block.
  {
    const first = kinds.indexOf('h');
    if (first >= 0) {
      let last = -1;
      for (let i = first + 1; i < kinds.length && i <= first + 10 && kinds[i] !== 'q'; i++)
        if (kinds[i] === 'e' && kinds[i - 1] === 'h' && i - 1 > first + 1) last = i - 1;
      if (last > first) for (let i = first; i <= last; i++) kinds[i] = 'h';
    }
  }

  // 8. Text, then a block of header fields: the earlier email starts there.
  {
    let sawText = false;
    for (let i = 0; i < kinds.length; i++) {
      const k = kinds[i];
      if (k === 'h') {
        let j = i;
        while (j < kinds.length && kinds[j] === 'h') j++;
        if (j - i >= HEADER_BLOCK && sawText) {
          keep(0, i);
          break;
        }
        i = j - 1;
        sawText = false;
      } else if (k === 't') sawText = true;
      else if (k !== 'e' && k !== 'q') sawText = false;
    }
  }

  // 9. Blocks of header fields left (a forward with no text above it) go; a lone one is text.
  {
    const gone = new Set<number>();
    for (let i = 0; i < kinds.length;) {
      if (kinds[i] !== 'h') {
        i++;
        continue;
      }
      let j = i;
      while (j < kinds.length && kinds[j] === 'h') j++;
      if (j - i >= HEADER_BLOCK) for (let x = i; x < j; x++) gone.add(x);
      i = j;
    }
    if (gone.size) drop((i) => gone.has(i));
  }

  // 10. Quoted lines ending the email after text.
  if (kinds.includes('t')) {
    let i = kinds.length;
    while (i > 0 && (kinds[i - 1] === 'q' || kinds[i - 1] === 'e')) i--;
    keep(0, i);
  }
  return lines;
}
