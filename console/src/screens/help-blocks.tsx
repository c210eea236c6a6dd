import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import { CreateHelpPictureDocument, type HelpPictureType } from '../generated/graphql';
import { BLOCK_KINDS, emptyBlock, KIND_NAMES, type BlockKind, type EditBlock } from './help-content';

// The block editor: each block a box with its fields and its buttons (move up, move down,
// remove); "Add a block" puts a new one after the block last worked in. By keyboard, inside a
// block: Alt+↑ / Alt+↓ move it, Alt+Enter adds a paragraph after it, Alt+Shift+Backspace removes it.
// Words take marks (help-model.ts: **bold**, [words](https://…)…); Ctrl/⌘-B and -I put them in.
// Pictures are uploaded to the service (createHelpPicture) and named by the address it gives.

const PICTURE_TYPES: Record<string, HelpPictureType> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export function HelpBlocks(props: {
  blocks: EditBlock[];
  language: string;
  appModeId: string;
  onChange(blocks: EditBlock[]): void;
  /** Several editors on one page (a carousel's screens) each name their ids and heading apart. */
  prefix?: string;
  title?: string;
  /** Leaves out the keys' hint (said once elsewhere on the page). */
  noHint?: boolean;
}) {
  const { blocks } = props;
  const prefix = props.prefix ?? 'help';
  const lastWorked = useRef<string | undefined>(undefined);
  /** The field to give the focus after the next render (a new block's first field, a moved block's field). */
  const focusNext = useRef<string | undefined>(undefined);
  const [said, setSaid] = useState('');

  // At once after the render, not after the paint: keys typed right after Enter go to the new field.
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const el = document.getElementById(focusNext.current);
    focusNext.current = undefined;
    el?.focus();
  });

  const change = (key: string, patch: Partial<EditBlock>) => props.onChange(blocks.map((b) => (b.key === key ? { ...b, ...patch } : b)));
  const add = (type: BlockKind, after = lastWorked.current) => {
    const block = emptyBlock(type);
    const at = after ? blocks.findIndex((b) => b.key === after) + 1 : blocks.length;
    const next = [...blocks];
    next.splice(at > 0 ? at : blocks.length, 0, block);
    focusNext.current = fieldId(block.key, firstField(type));
    lastWorked.current = block.key;
    setSaid(`${KIND_NAMES[type]} added, block ${next.indexOf(block) + 1} of ${next.length}.`);
    props.onChange(next);
  };
  const move = (key: string, by: -1 | 1) => {
    const from = blocks.findIndex((b) => b.key === key);
    const to = from + by;
    if (from < 0 || to < 0 || to >= blocks.length) return;
    const next = [...blocks];
    [next[from], next[to]] = [next[to]!, next[from]!];
    const active = document.activeElement;
    focusNext.current = active instanceof HTMLElement && active.id ? active.id : undefined;
    setSaid(`Moved to block ${to + 1} of ${blocks.length}.`);
    props.onChange(next);
  };
  const remove = (key: string) => {
    const at = blocks.findIndex((b) => b.key === key);
    const next = blocks.filter((b) => b.key !== key);
    const neighbour = next[Math.min(at, next.length - 1)];
    focusNext.current = neighbour ? fieldId(neighbour.key, firstField(neighbour.type)) : `${prefix}-add-paragraph`;
    if (lastWorked.current === key) lastWorked.current = neighbour?.key;
    setSaid(`${KIND_NAMES[blocks[at]!.type]} removed.`);
    props.onChange(next);
  };

  return (
    <div class="help-blocks">
      <h2 id={`${prefix}-blocks-title`}>{props.title ?? 'Content'}</h2>
      {blocks.length === 0 && <p class="quiet-text">No block yet: add a paragraph, a heading, a list… below.</p>}
      <ol class="block-list" aria-labelledby={`${prefix}-blocks-title`}>
        {blocks.map((b, i) => (
          <li
            key={b.key}
            class={`block block-${b.type}`}
            onFocusIn={() => (lastWorked.current = b.key)}
            onKeyDown={(e) => {
              if (!e.altKey || e.ctrlKey || e.metaKey) return;
              if (e.code === 'ArrowUp' || e.code === 'ArrowDown') (e.preventDefault(), move(b.key, e.code === 'ArrowUp' ? -1 : 1));
              else if (e.code === 'Enter' || e.code === 'NumpadEnter') (e.preventDefault(), add('paragraph', b.key));
              else if (e.code === 'Backspace' && e.shiftKey) (e.preventDefault(), remove(b.key));
            }}
          >
            <div class="block-head">
              <span class="block-kind">
                {i + 1}. {KIND_NAMES[b.type]}
              </span>
              <span class="row-buttons">
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Move block ${i + 1} (${KIND_NAMES[b.type]}) up`}
                  disabled={i === 0}
                  onClick={() => move(b.key, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Move block ${i + 1} (${KIND_NAMES[b.type]}) down`}
                  disabled={i === blocks.length - 1}
                  onClick={() => move(b.key, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Remove block ${i + 1} (${KIND_NAMES[b.type]})`}
                  onClick={() => remove(b.key)}
                >
                  Remove
                </button>
              </span>
            </div>
            <BlockFields
              block={b}
              n={i + 1}
              language={props.language}
              appModeId={props.appModeId}
              onChange={(patch) => change(b.key, patch)}
            />
          </li>
        ))}
      </ol>
      <div class="add-block" role="group" aria-label="Add a block">
        <span>Add a block:</span>
        {BLOCK_KINDS.map((kind) => (
          <button key={kind} id={`${prefix}-add-${kind}`} type="button" class="quiet small" onClick={() => add(kind)}>
            {KIND_NAMES[kind]}
          </button>
        ))}
      </div>
      {!props.noHint && (
        <p class="hint">
          In a block: <kbd>Alt</kbd>+<kbd>↑</kbd>/<kbd>↓</kbd> move it, <kbd>Alt</kbd>+<kbd>Enter</kbd> adds a paragraph after it,{' '}
          <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>Backspace</kbd> removes it. <kbd>Ctrl</kbd>+<kbd>S</kbd> saves at once. In words:{' '}
          <code>**bold**</code> (<kbd>Ctrl</kbd>+<kbd>B</kbd>), <code>*italic*</code> (<kbd>Ctrl</kbd>+<kbd>I</kbd>),{' '}
          <code>__underline__</code>, <code>~~strike~~</code>, <code>==highlight==</code>, <code>[words](https://…)</code> for a link.
        </p>
      )}
      <p class="visually-hidden" role="status">
        {said}
      </p>
    </div>
  );
}

const fieldId = (key: string, field: string) => `block-${key}-${field}`;

/** Ctrl/⌘-B and Ctrl/⌘-I put the marks for bold and italic around what is selected (or at the caret). */
function markKeys(set: (text: string) => void) {
  return (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    const mark = e.code === 'KeyB' ? '**' : e.code === 'KeyI' ? '*' : undefined;
    const el = e.currentTarget;
    if (!mark || !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return;
    e.preventDefault();
    const from = el.selectionStart ?? el.value.length;
    const to = el.selectionEnd ?? from;
    el.value = `${el.value.slice(0, from)}${mark}${el.value.slice(from, to)}${mark}${el.value.slice(to)}`;
    el.setSelectionRange(from + mark.length, to + mark.length);
    set(el.value);
  };
}
const firstField = (type: BlockKind) => (type === 'link' ? 'label' : type === 'image' ? 'file' : 'text');

function BlockFields(props: {
  block: EditBlock;
  n: number;
  language: string;
  appModeId: string;
  onChange(patch: Partial<EditBlock>): void;
}) {
  const { block: b, n, onChange } = props;
  const id = (field: string) => fieldId(b.key, field);
  switch (b.type) {
    case 'heading':
      return (
        <div class="block-fields heading-fields">
          <label for={id('text')}>Heading (block {n})</label>
          <input
            id={id('text')}
            lang={props.language}
            value={b.text}
            onInput={(e) => onChange({ text: e.currentTarget.value })}
            onKeyDown={markKeys((text) => onChange({ text }))}
          />
          <label for={id('level')}>Level</label>
          <select id={id('level')} value={String(b.level)} onChange={(e) => onChange({ level: Number(e.currentTarget.value) })}>
            <option value="1">1 (section)</option>
            <option value="2">2 (sub-section)</option>
            <option value="3">3 (minor)</option>
          </select>
        </div>
      );
    case 'paragraph':
    case 'callout':
      return (
        <div class="block-fields">
          <label for={id('text')}>
            {b.type === 'callout' ? `Callout (block ${n}): set apart, for a tip or a warning` : `Paragraph (block ${n})`}
          </label>
          <textarea
            id={id('text')}
            lang={props.language}
            rows={Math.min(12, Math.max(2, Math.ceil(b.text.length / 90) + b.text.split('\n').length - 1))}
            value={b.text}
            onInput={(e) => onChange({ text: e.currentTarget.value })}
            onKeyDown={markKeys((text) => onChange({ text }))}
          />
        </div>
      );
    case 'list':
    case 'numbered_list':
      return (
        <div class="block-fields">
          <label for={id('text')}>
            {b.type === 'list' ? 'Bulleted' : 'Numbered'} list (block {n}): one item a line
          </label>
          <textarea
            id={id('text')}
            lang={props.language}
            rows={Math.min(12, Math.max(3, b.text.split('\n').length + 1))}
            value={b.text}
            onInput={(e) => onChange({ text: e.currentTarget.value })}
            onKeyDown={markKeys((text) => onChange({ text }))}
          />
        </div>
      );
    case 'image':
      return <PictureFields {...props} />;
    case 'link':
      return (
        <div class="block-fields link-fields">
          <label for={id('label')}>Button (block {n}): its words</label>
          <input id={id('label')} lang={props.language} value={b.label} onInput={(e) => onChange({ label: e.currentTarget.value })} />
          <label for={id('link')}>Its address (https://…)</label>
          <input id={id('link')} type="url" value={b.link} onInput={(e) => onChange({ link: e.currentTarget.value })} />
        </div>
      );
  }
}

function PictureFields(props: { block: EditBlock; n: number; appModeId: string; onChange(patch: Partial<EditBlock>): void }) {
  const { block: b, n, onChange } = props;
  const [state, setState] = useState<string | undefined>();
  const id = (field: string) => fieldId(b.key, field);
  const upload = async (file: File) => {
    const type = PICTURE_TYPES[file.type];
    if (!type) return setState('Choose a PNG, JPEG, GIF or WebP picture.');
    setState('Uploading…');
    try {
      const { createHelpPicture: up } = await request(CreateHelpPictureDocument, { appModeId: props.appModeId, size: file.size, type });
      const put = await fetch(up.uploadUrl, { method: up.uploadMethod, headers: up.uploadHeaders as Record<string, string>, body: file });
      if (!put.ok) throw new Error(`The upload was refused (${put.status}).`);
      onChange({ imageUrl: up.url, alt: b.alt || file.name.replace(/\.[a-z]+$/i, '').replace(/[-_]+/g, ' ') });
      setState('Uploaded.');
    } catch (err) {
      setState(err instanceof Refusal || err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div class="block-fields picture-fields">
      <label for={id('file')}>Picture (block {n}): upload one (PNG, JPEG, GIF or WebP, up to 10 MB)</label>
      <input
        id={id('file')}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      {state && <p role="status">{state}</p>}
      <label for={id('url')}>or its https address</label>
      <input id={id('url')} type="url" value={b.imageUrl} onInput={(e) => onChange({ imageUrl: e.currentTarget.value })} />
      <label for={id('alt')}>What it shows (for readers who cannot see it)</label>
      <input id={id('alt')} value={b.alt} onInput={(e) => onChange({ alt: e.currentTarget.value })} />
    </div>
  );
}
