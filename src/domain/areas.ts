import { appTargets } from './apps/staff-access.js';
import { conversationTargets } from './conversations/staff-access.js';
import { emailTargets } from './email/staff-access.js';
import { helpTargets } from './help/staff-access.js';
import { inAppTargets } from './inapp/staff-access.js';
import { preferenceTargets } from './preferences/staff-access.js';
import { registerTargets } from './staff/access-targets.js';
import { staffTargets } from './staff/staff-access.js';
import { ticketTargets } from './tickets/staff-access.js';
import { webhookTargets } from './webhooks/staff-access.js';
import { workflowTargets } from './workflows/staff-access.js';

// The registry of areas: what each area declares in its own folder, collected once here. An area
// whose things staff act on adds its staff-access.ts here (the kinds of id its staff fields take,
// and the workspace behind each); nothing else changes: the staff API's scope checks answer every
// kind alike (app-access.ts). What areas keep about a person is listed, in erasing order, in
// personal-data/areas.ts.

/** Every kind of id a staff field may name, with how its workspace is found: `ACCESS_TARGETS.ticketId`. */
export const ACCESS_TARGETS = registerTargets(
  staffTargets,
  appTargets,
  webhookTargets,
  conversationTargets,
  helpTargets,
  ticketTargets,
  preferenceTargets,
  inAppTargets,
  emailTargets,
  workflowTargets,
);
