import type { ReplyTime } from '../../generated/prisma/client.js';

// How soon the team says it replies, shown on the messenger home: a word the messenger may put in
// its own words and language, and the words to show as they are.

export const REPLY_TIMES: readonly ReplyTime[] = ['minutes', 'hour', 'day', 'stated'];
export const MAX_REPLY_TIME_TEXT = 100;

const WORDS: Record<Exclude<ReplyTime, 'stated'>, string> = {
  minutes: 'The team usually replies in a few minutes',
  hour: 'The team usually replies within an hour',
  day: 'The team usually replies within a day',
};

export interface ReplyTimeShown {
  word: ReplyTime;
  text: string;
}

/** The reply time as the home shows it; null when the team states none. */
export const replyTimeShown = (word: ReplyTime | null, stated: string): ReplyTimeShown | null =>
  word === null ? null : { word, text: word === 'stated' ? stated : WORDS[word] };
