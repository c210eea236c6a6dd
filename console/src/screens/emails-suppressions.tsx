import { useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  EmailSuppressionsDocument,
  SuppressEmailAddressDocument,
  UnsuppressEmailAddressDocument,
  type EmailSuppressionRowFragment,
} from '../generated/graphql';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen } from '../ui/row-keys';
import { fullTime } from '../ui/time';
import { FieldError, FormProblem, invalid, problemOf, type Problem } from './settings-common';
import { ListStatus } from '../ui/list-status';

// The app-mode's suppression list: addresses no email goes to (a bounce or a complaint put them there,
// or a member did). Listed by address, 50 to a page (the next read as the list's end comes into view);
// one found by its address; an address added (refused beside the field when it is not one) or taken
// off. Changing it is for owners and admins (`refused` says why not).

const PAGE = 50;
const REASON_WORDS: Record<string, string> = { bounce: 'Bounced', complaint: 'Marked as spam', manual: 'Added by a member' };

export function Suppressions({ modeId, refused }: { modeId: string; refused: string | undefined }) {
  const [find, setFind] = useState('');
  const [found, setFound] = useState('');
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState<string | undefined>();
  /** The address being taken off, and why: asked in its row before it goes. */
  const [removing, setRemoving] = useState<string | undefined>();
  const [why, setWhy] = useState('');
  const end = useRef<HTMLTableRowElement>(null);
  const { rows, next, loading, error, more, reload, readings } = usePagedList<EmailSuppressionRowFragment>({
    read: async (after, first = PAGE) =>
      pageOf((await request(EmailSuppressionsDocument, { appModeId: modeId, address: found || null, after, first })).emailSuppressions),
    merge: (old, page, more) => (more ? [...old, ...page.filter((p) => !old.some((o) => o.address === p.address))] : page),
    by: [modeId, found],
    clear: true,
  });
  useMoreWhenSeen(end, more, next !== null, rows, readings);

  const add = async (e: Event) => {
    e.preventDefault();
    try {
      const { suppressEmailAddress: row } = await request(SuppressEmailAddressDocument, { appModeId: modeId, address });
      setProblem(undefined);
      setAddress('');
      setSaid(`${row.address} is on the list: no email goes to it.`);
      void reload();
    } catch (err) {
      setSaid(undefined);
      setProblem(problemOf(err));
    }
  };
  const remove = async (e: Event, row: EmailSuppressionRowFragment) => {
    e.preventDefault();
    try {
      await request(UnsuppressEmailAddressDocument, { appModeId: modeId, address: row.address, reason: why });
      setRemoving(undefined);
      setWhy('');
      setSaid(`${row.address} is off the list: sendings reach it again.`);
      void reload();
    } catch (err) {
      setSaid(problemOf(err).message);
    }
  };

  return (
    <section class="suppressions" aria-labelledby="suppressions-title">
      <h2 id="suppressions-title">Suppression list</h2>
      <p class="quiet-note">
        No email goes to these addresses. A hard bounce or a complaint puts an address here; a sending skips it and counts it.
      </p>
      <form class="settings-form inline-form" aria-label="Add an address" onSubmit={add} noValidate>
        <FormProblem problem={problem} fields={['address']} />
        <label for="suppress-address">Address to add</label>
        <input
          {...invalid(problem, 'address', 'suppress-address')}
          type="email"
          value={address}
          disabled={!!refused}
          onInput={(e) => setAddress(e.currentTarget.value)}
        />
        <button type="submit" disabled={!!refused}>
          Add to the list
        </button>
        <FieldError problem={problem} field="address" id="suppress-address" />
      </form>
      <form
        class="settings-form inline-form"
        role="search"
        aria-label="Search the suppression list"
        onSubmit={(e) => (e.preventDefault(), setFound(find.trim()))}
      >
        <label for="suppress-find">Find an address</label>
        <input id="suppress-find" type="search" value={find} onInput={(e) => setFind(e.currentTarget.value)} />
        <button type="submit">Find</button>
        {found && (
          <button type="button" class="quiet" onClick={() => (setFind(''), setFound(''))}>
            Show every address
          </button>
        )}
      </form>
      <p role="status">{said}</p>
      <ListStatus
        error={error}
        loading={loading}
        count={rows.length}
        empty={found ? `${found} is not on the list.` : 'No address on the list.'}
      >
        <table class="suppression-rows">
          <caption class="visually-hidden">Addresses on the suppression list</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Why</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.address}>
                <td>{r.address}</td>
                <td>
                  {REASON_WORDS[r.reason] ?? r.reason}
                  {r.detail && <span class="quiet-text"> ({r.detail})</span>}
                </td>
                <td>
                  <time dateTime={r.createdAt}>{fullTime(r.createdAt)}</time>
                </td>
                <td>
                  {removing === r.address ? (
                    <form class="inline-form" aria-label={`Remove ${r.address}`} onSubmit={(e) => void remove(e, r)}>
                      <label for="suppress-why">Why take it off?</label>
                      <input id="suppress-why" required maxLength={500} value={why} onInput={(e) => setWhy(e.currentTarget.value)} />
                      <button type="submit" class="small" disabled={!why.trim()}>
                        Remove
                      </button>
                      <button type="button" class="quiet small" onClick={() => setRemoving(undefined)}>
                        Cancel
                      </button>
                    </form>
                  ) : (
                    <button
                      type="button"
                      class="quiet small"
                      disabled={!!refused}
                      aria-label={`Remove ${r.address}`}
                      onClick={() => (setRemoving(r.address), setWhy(''))}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {next && (
              <tr ref={end}>
                <td colSpan={4} class="quiet-text">
                  Loading more…
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </ListStatus>
    </section>
  );
}
