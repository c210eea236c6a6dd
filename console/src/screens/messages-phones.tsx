import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import {
  InAppTestPhoneListDocument,
  MarkTestPhoneDocument,
  UnmarkTestPhoneDocument,
  type InAppTestPhoneRowFragment,
} from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { when } from '../ui/time';

// The app-mode's test phones (inAppTestPhones): the people whose app gets test copies, with a
// label; marked by the person's user id (markTestPhone: marking again changes the label) and
// unmarked after asking (unmarkTestPhone). A change is told to the page (onChanged) so that a
// message's "Send a test" lists the phones anew.

export function TestPhones(props: { modeId: string; onChanged(): void; onClose(): void }) {
  const [phones, setPhones] = useState<InAppTestPhoneRowFragment[] | undefined>();
  const [externalId, setExternalId] = useState('');
  const [label, setLabel] = useState('');
  const [said, setSaid] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [unmarking, setUnmarking] = useState<InAppTestPhoneRowFragment | undefined>();
  const first = useRef<HTMLInputElement>(null);
  const read = () =>
    request(InAppTestPhoneListDocument, { appModeId: props.modeId })
      .then(({ inAppTestPhones }) => setPhones(inAppTestPhones.edges.map((e) => e.node)))
      .catch((err) => setError(messageOf(err)));
  useEffect(() => {
    void read();
    first.current?.focus();
  }, [props.modeId]);

  const mark = async (e: Event) => {
    e.preventDefault();
    try {
      const { markTestPhone } = await request(MarkTestPhoneDocument, { appModeId: props.modeId, externalId: externalId.trim(), label });
      setSaid(`${markTestPhone.label || markTestPhone.externalId} is a test phone.`);
      setError(undefined);
      setExternalId('');
      setLabel('');
      await read();
      props.onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <section
      class="test-phones"
      aria-labelledby="test-phones-title"
      onKeyDown={(e) => e.code === 'Escape' && !unmarking && (e.stopPropagation(), props.onClose())}
    >
      <h2 id="test-phones-title">Test phones</h2>
      {phones === undefined ? (
        <p class="quiet-text">Loading…</p>
      ) : phones.length === 0 ? (
        <p class="quiet-text">No test phones yet.</p>
      ) : (
        <ul aria-label="Test phones">
          {phones.map((p) => (
            <li key={p.externalId}>
              <span>
                <strong>{p.label || p.externalId}</strong> {p.label && <span class="quiet-text">{p.externalId}</span>} · since{' '}
                <time dateTime={p.createdAt}>{when(p.createdAt)}</time>
              </span>
              <button type="button" class="quiet small" aria-label={`Unmark ${p.label || p.externalId}`} onClick={() => setUnmarking(p)}>
                Unmark…
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="mark-phone" aria-label="Mark a test phone" onSubmit={mark}>
        <label>
          User id
          <input ref={first} required value={externalId} onInput={(e) => setExternalId(e.currentTarget.value)} />
        </label>
        <label>
          Label (optional)
          <input value={label} maxLength={100} onInput={(e) => setLabel(e.currentTarget.value)} />
        </label>
        <button type="submit">Mark as a test phone</button>
        <button type="button" class="quiet" onClick={props.onClose}>
          Close
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {said && <p role="status">{said}</p>}
      {unmarking && (
        <Confirm
          title={`Unmark ${unmarking.label || unmarking.externalId}?`}
          action="Unmark"
          onCancel={() => setUnmarking(undefined)}
          onConfirm={async () => {
            await request(UnmarkTestPhoneDocument, { appModeId: props.modeId, externalId: unmarking.externalId });
            setUnmarking(undefined);
            setSaid(`${unmarking.label || unmarking.externalId} is no longer a test phone.`);
            await read();
            props.onChanged();
          }}
        >
          <p>Its app gets no more test copies; copies sent and not yet delivered still come.</p>
        </Confirm>
      )}
    </section>
  );
}
