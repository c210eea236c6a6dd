// The parts of an app-mode that can be switched on and off, apart from settings.ts (and its
// validation library) so the `crm` command line is read without loading it.

/** The parts (messenger, help center, in-app messages) by the names staff and operators use. */
export const PARTS = { messenger: 'messengerOn', help: 'helpOn', inapp: 'inappOn' } as const;
