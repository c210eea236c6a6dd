import { appModeId, type Place } from '../place';
import { ComplaintRate } from './emails-complaints';
import { Suppressions } from './emails-suppressions';
import { InboundEmail } from './settings-inbound';
import { Reason, refusedFor, SettingsPage, usePageActions, useRole } from './settings-common';
import './emails.css';

// Email settings of the mode the console is in: the complaint rate of the last 30 days with its level
// in words, the suppression list (found by address, added to, taken from: owners and admins), and
// email in (the inbox address, the inbound secret rolled).

export function SettingsEmail({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
  const keysRefused = refusedFor(role, 'manage_keys');
  usePageActions([
    { id: 'suppress', label: 'Add an address to the suppression list', focus: 'suppress-address' },
    { id: 'suppress-find', label: 'Find an address on the suppression list', focus: 'suppress-find' },
  ]);
  return (
    <SettingsPage
      title="Email"
      class="settings-email"
      intro={`How the emails of ${place.mode} mode are received: people who marked them as spam, and the addresses nothing is sent to.`}
    >
      <h2>Complaints</h2>
      <ComplaintRate modeId={modeId} />
      <Reason why={role && refused} />
      <Suppressions modeId={modeId} refused={role ? refused : 'Reading your role…'} />
      <InboundEmail modeId={modeId} refused={role ? keysRefused : 'Reading your role…'} reason={role && keysRefused} />
    </SettingsPage>
  );
}
