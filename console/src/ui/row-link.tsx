import type { ComponentChildren } from 'preact';

// A list's row: a link to what it opens (so it can be opened in a new tab), opened in place by a click
// or Enter; `data-id` and `data-selected` are what j/k (row-keys.ts) move by.

export function RowLink(props: {
  id: string;
  href: string;
  selected: boolean;
  extraClass?: string;
  onOpen(id: string): void;
  children: ComponentChildren;
}) {
  const open = () => props.onOpen(props.id);
  return (
    <a
      class={`row${props.selected ? ' selected' : ''}${props.extraClass ? ` ${props.extraClass}` : ''}`}
      href={props.href}
      data-id={props.id}
      data-selected={props.selected ? 'yes' : undefined}
      aria-current={props.selected ? 'true' : undefined}
      onClick={(e) => (e.preventDefault(), open())}
      onKeyDown={(e) => {
        if (e.code === 'Enter' || e.code === 'NumpadEnter') (e.preventDefault(), open());
      }}
    >
      {props.children}
    </a>
  );
}
