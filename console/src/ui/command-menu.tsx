import { useEffect, useRef, useState } from 'preact/hooks';
import { useStore } from '../api/store';
import { actionCommands, commandMenuOpen, noticeCommands, screenCommands, type Command } from '../commands';

// Ctrl/⌘-K: every screen and the open screen's actions, filtered as you type; arrows move, Enter
// runs, Escape closes (focus goes back where it was).

export function CommandMenu() {
  const open = useStore(commandMenuOpen);
  const screens = useStore(screenCommands);
  const actions = useStore(actionCommands);
  const notices = useStore(noticeCommands);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const before = useRef<Element | null>(null);

  useEffect(() => {
    if (open) {
      before.current = document.activeElement;
      setFilter('');
      setActive(0);
      input.current?.focus();
    } else if (before.current instanceof HTMLElement && (!document.activeElement || document.activeElement === document.body))
      // Back where it was, unless the command run put it somewhere (a field it opened).
      before.current.focus();
  }, [open]);

  if (!open) return null;
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = [...actions, ...notices, ...screens].filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
  const close = () => commandMenuOpen.set(false);
  const run = (c: Command | undefined) => {
    if (!c) return;
    close();
    c.run();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.code === 'Escape') return (e.preventDefault(), close());
    if (e.code === 'ArrowDown') return (e.preventDefault(), setActive((a) => Math.min(shown.length - 1, a + 1)));
    if (e.code === 'ArrowUp') return (e.preventDefault(), setActive((a) => Math.max(0, a - 1)));
    if (e.code === 'Enter' || e.code === 'NumpadEnter') return (e.preventDefault(), run(shown[active]));
  };
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && close()}>
      <div class="command-menu" role="dialog" aria-modal="true" aria-label="Commands" onKeyDown={onKey}>
        <label for="command-filter" class="visually-hidden">
          Type a command
        </label>
        <input
          id="command-filter"
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="command-list"
          aria-activedescendant={shown[active] ? `command-${shown[active].id}` : undefined}
          placeholder="Type a command or screen"
          autocomplete="off"
          value={filter}
          onInput={(e) => (setFilter(e.currentTarget.value), setActive(0))}
        />
        <ul id="command-list" role="listbox" aria-label="Commands">
          {shown.map((c, i) => (
            <li
              key={c.id}
              id={`command-${c.id}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onClick={() => run(c)}
            >
              <span>{c.label}</span>
              {c.key && <kbd>{c.key}</kbd>}
            </li>
          ))}
          {shown.length === 0 && <li class="none">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}
