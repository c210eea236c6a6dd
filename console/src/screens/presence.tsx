import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request } from '../api/request';
import { readSession } from '../api/session';
import {
  ConversationPresenceDocument,
  LeftConversationDocument,
  ViewingConversationDocument,
  type ConversationPresenceSubscription,
} from '../generated/graphql';

// Who else has the conversation open and who is typing: this console beats `viewingConversation`
// on opening, every 5 s and at once when typing starts or stops, says `leftConversation` on
// leaving, and follows `conversationPresence` for the others.

type Viewer = ConversationPresenceSubscription['conversationPresence']['viewers'][number];
const BEAT_MS = 5000;

/** The other viewers of the conversation, and how to say whether this member is typing. */
export function usePresence(id: string): { others: Viewer[]; setTyping(typing: boolean): void } {
  const [viewers, setViewers] = useState<Viewer[]>([]);
  const typing = useRef(false);
  const beat = useRef(() => {});
  beat.current = () => void request(ViewingConversationDocument, { id, typing: typing.current }).catch(() => {});

  useEffect(() => {
    beat.current();
    const timer = setInterval(() => beat.current(), BEAT_MS);
    const stop = live(
      ConversationPresenceDocument,
      () => ({ id }),
      (d) => setViewers(d.conversationPresence.viewers),
    );
    const leave = () => void request(LeftConversationDocument, { id }).catch(() => {});
    addEventListener('pagehide', leave);
    return () => {
      clearInterval(timer);
      stop();
      removeEventListener('pagehide', leave);
      leave();
      typing.current = false;
    };
  }, [id]);

  const me = readSession()?.viewerId;
  return {
    others: viewers.filter((v) => v.staffUserId !== me),
    setTyping(now) {
      if (now === typing.current) return;
      typing.current = now;
      beat.current();
    },
  };
}

const names = (vs: Viewer[]) =>
  vs.length === 1
    ? vs[0]!.name
    : `${vs
        .slice(0, -1)
        .map((v) => v.name)
        .join(', ')} and ${vs.at(-1)!.name}`;

/** "Ana is viewing", "Ana is typing…", in words, announced politely. */
export function PresenceLine({ others }: { others: Viewer[] }) {
  const typing = others.filter((v) => v.typing);
  const viewing = others.filter((v) => !v.typing);
  return (
    <p class="presence" role="status">
      {typing.length > 0 && <span class="typing">{`${names(typing)} ${typing.length === 1 ? 'is' : 'are'} typing…`}</span>}
      {typing.length > 0 && viewing.length > 0 && ' · '}
      {viewing.length > 0 && <span class="viewing">{`${names(viewing)} ${viewing.length === 1 ? 'is' : 'are'} viewing`}</span>}
    </p>
  );
}
