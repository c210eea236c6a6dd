import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

// A choice by keyboard, as the command menu makes one: type to filter, arrows move, Enter
// chooses, Escape closes, and the focus goes back where it was. Assign (a) and snooze (s) use it.

export interface Choice {
  id: string;
  label: string;
  /** A second line, quieter: an email, "team". */
  hint?: string;
}

export function Chooser(props: { title: string; choices: Choice[]; loading?: boolean; onChoose(c: Choice): void; onClose(): void }) {
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Focused as it is drawn (not after the paint): keys pressed at once reach the filter.
  useLayoutEffect(() => {
    const before = document.activeElement;
    input.current?.focus();
    return () => before instanceof HTMLElement && before.focus();
  }, []);

  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = props.choices.filter((c) => words.every((w) => `${c.label} ${c.hint ?? ''}`.toLowerCase().includes(w)));
  const choose = (c: Choice | undefined) => c && (props.onClose(), props.onChoose(c));
  // Enter pressed before the choices came (a quick typist, a slow answer): chosen once they come.
  const enterWaiting = useRef(false);
  useEffect(() => {
    if (!enterWaiting.current || props.loading) return;
    enterWaiting.current = false;
    choose(shown[active]);
  });
  const onKey = (e: KeyboardEvent) => {
    if (e.code === 'Escape') return (e.preventDefault(), props.onClose());
    if (e.code === 'ArrowDown') return (e.preventDefault(), setActive((a) => Math.min(shown.length - 1, a + 1)));
    if (e.code === 'ArrowUp') return (e.preventDefault(), setActive((a) => Math.max(0, a - 1)));
    if (e.code === 'Enter' || e.code === 'NumpadEnter') {
      e.preventDefault();
      if (props.loading && !shown.length) enterWaiting.current = true;
      else choose(shown[active]);
    }
  };
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="command-menu" role="dialog" aria-modal="true" aria-label={props.title} onKeyDown={onKey}>
        <label for="chooser-filter" class="visually-hidden">
          {props.title}
        </label>
        <input
          id="chooser-filter"
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="chooser-list"
          aria-activedescendant={shown[active] ? `choice-${shown[active].id}` : undefined}
          placeholder={`${props.title}: type to filter`}
          autocomplete="off"
          value={filter}
          onInput={(e) => (setFilter(e.currentTarget.value), setActive(0))}
        />
        <ul id="chooser-list" role="listbox" aria-label={props.title}>
          {shown.map((c, i) => (
            <li
              key={c.id}
              id={`choice-${c.id}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'active' : ''}
              onClick={() => choose(c)}
            >
              <span>{c.label}</span>
              {c.hint && <span class="choice-hint">{c.hint}</span>}
            </li>
          ))}
          {shown.length === 0 && <li class="none">{props.loading ? 'Loading…' : 'Nothing matches.'}</li>}
        </ul>
      </div>
    </div>
  );
}
