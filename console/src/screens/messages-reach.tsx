import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { AudienceCountDocument, type AudienceCountQuery } from '../generated/graphql';

// How many people an audience reaches now (audienceCount), asked again 400 ms after the rule last
// changed. The service examines at most 20,000 people: beyond them it says "at least", and how
// many the app-mode holds. Conditions on what only a check-in says (platform, app version, screen)
// count as met.

const n = (x: number) => x.toLocaleString('en');
const people = (x: number) => `${n(x)} ${x === 1 ? 'person' : 'people'}`;

export function reachWords(c: AudienceCountQuery['audienceCount']): string {
  return c.exact
    ? `Reaches ${people(c.count)} now (of ${people(c.people)}).`
    : `Reaches at least ${people(c.count)} now: ${n(c.count)} of the first ${n(c.examined)} examined, of ${people(c.people)}.`;
}

export function AudienceReach({ appModeId, audience }: { appModeId: string; audience: unknown }) {
  const [said, setSaid] = useState<string>('Counting…');
  const rule = JSON.stringify(audience ?? null);
  useEffect(() => {
    let gone = false;
    const timer = setTimeout(() => {
      request(AudienceCountDocument, { appModeId, audience: JSON.parse(rule) })
        .then(({ audienceCount }) => !gone && setSaid(reachWords(audienceCount)))
        .catch((err) => !gone && setSaid(`Not counted: ${messageOf(err)}`));
    }, 400);
    return () => ((gone = true), clearTimeout(timer));
  }, [appModeId, rule]);
  return (
    <p class="audience-reach" role="status" aria-live="polite">
      {said}
    </p>
  );
}
