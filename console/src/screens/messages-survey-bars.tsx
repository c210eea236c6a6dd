import type { SurveyQuestionResultsRowFragment } from '../generated/graphql';

// A question's answers drawn as bars: a table (answer, people, share) whose share cell carries a
// bar that is only a picture of its number (hidden from screen readers, the number is in text), and
// an NPS score with its promoters, passives and detractors. Bar widths are set through the style
// object (CSSOM), which the console's policy (no inline style attributes) allows.

type Question = SurveyQuestionResultsRowFragment;

export const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 1000) / 10}%` : '0%');

/** The answers to one question: each value of its scale or each option, with how many gave it. */
export function Distribution({ q, label }: { q: Question; label(value: string): string }) {
  // A multiple choice counts each option picked: shares are of the people who answered.
  const whole = q.answered;
  return (
    <table class="survey-bars">
      <caption class="visually-hidden">Answers to “{q.title}”</caption>
      <thead>
        <tr>
          <th scope="col">Answer</th>
          <th scope="col">People</th>
          <th scope="col">Share of those who answered</th>
        </tr>
      </thead>
      <tbody>
        {q.distribution.map((d) => (
          <tr key={d.value}>
            <th scope="row">{label(d.value)}</th>
            <td class="survey-count">{d.count}</td>
            <td>
              <span class="survey-bar" aria-hidden="true">
                <span style={{ width: whole ? `${(d.count / whole) * 100}%` : '0' }} />
              </span>
              <span class="survey-share">{percent(d.count, whole)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** NPS: the share of 9–10 minus the share of 0–6, with the three groups. */
export function NpsScore({ nps, id }: { nps: NonNullable<Question['nps']>; id: string }) {
  const groups = [
    { key: 'promoters', name: 'Promoters (9–10)', count: nps.promoters },
    { key: 'passives', name: 'Passives (7–8)', count: nps.passives },
    { key: 'detractors', name: 'Detractors (0–6)', count: nps.detractors },
  ];
  return (
    <div class="survey-nps" role="group" aria-labelledby={`${id}-nps`}>
      <p id={`${id}-nps`}>
        <strong>NPS {signed(nps.score)}</strong> <span class="quiet-text">of {nps.answered} answered (from -100 to +100)</span>
      </p>
      <span class="survey-nps-bar" aria-hidden="true">
        {groups.map((g) => (
          <span key={g.key} class={`nps-${g.key}`} style={{ width: nps.answered ? `${(g.count / nps.answered) * 100}%` : '0' }} />
        ))}
      </span>
      <ul class="survey-nps-groups">
        {groups.map((g) => (
          <li key={g.key}>
            <span class={`nps-key nps-${g.key}`} aria-hidden="true" /> {g.name}: {g.count} ({percent(g.count, nps.answered)})
          </li>
        ))}
      </ul>
    </div>
  );
}
