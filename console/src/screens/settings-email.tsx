import { appModeId, type Place } from '../place';
import { ComplaintRate } from './emails-complaints';
import { Suppressions } from './emails-suppressions';
import { Reason, refusedFor, SettingsPage, usePageActions, useRole } from './settings-common';
import './emails.css';

// Email settings of the mode the console is in: the complaint rate of the last 30 days with its level
// in words, and the suppression list (found by address, added to, taken from: owners and admins).

export function SettingsEmail({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
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
    </SettingsPage>
  );
}
