import { store } from './api/store';

// What the command menu (Ctrl/⌘-K) lists: the screens always, and the actions the open screen
// registers while it is open (the conversation's reply, note, close, …).

export interface Command {
  id: string;
  label: string;
  /** The key that does it too, as shown. */
  key?: string;
  run(): void;
}

export const screenCommands = store<Command[]>([]);
export const actionCommands = store<Command[]>([]);
export const commandMenuOpen = store(false);
/** Commands of the notices above every screen while they show (accept or decline an invitation). */
export const noticeCommands = store<Command[]>([]);
