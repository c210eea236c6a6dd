import { useEffect } from 'preact/hooks';
import { actionCommands, type Command } from '../commands';

/**
 * Lists commands among the open screen's actions while the component is shown, beside those a
 * component around or inside it lists (a list and the page open beside it), and takes only its own
 * away when it goes.
 */
export function useActionCommands(commands: Command[], deps: unknown[] = []) {
  useEffect(() => {
    const ids = new Set(commands.map((c) => c.id));
    actionCommands.set([...actionCommands.get().filter((c) => !ids.has(c.id)), ...commands]);
    return () => actionCommands.set(actionCommands.get().filter((c) => !ids.has(c.id)));
  }, deps);
}
