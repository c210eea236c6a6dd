import type { ComponentChildren } from 'preact';
import { fieldError, invalid, type Problem } from './settings-common';

// What the survey editor's parts share: a refusal's words beside the field it names (each marked
// with the field, so the editor can say above the form whatever no field shows), a control's
// invalid state, and a labelled input.

export { invalid, type Problem };

/** The words for `field` and the members under it, beside a control (`<id>-error`, which the control names). */
export function FieldSaid({ problem, field, id }: { problem: Problem | undefined; field: string; id: string }) {
  const words = fieldError(problem, field);
  if (!words) return null;
  return (
    <p class="field-error" id={`${id}-error`} data-field={field} data-under="yes">
      {words}
    </p>
  );
}

/**
 * The words for exactly `field` (a step's own `content.steps.2`, a list's bounds), not a member
 * under it: with no control of its own, it can take the focus itself.
 */
export function Said({ problem, field, id }: { problem: Problem | undefined; field: string; id?: string }) {
  const words = problem?.fields[field];
  if (!words) return null;
  return (
    <p class="field-error survey-said" id={id && `${id}-error`} data-field={field} tabIndex={-1}>
      {words}
    </p>
  );
}

/** The refusal's fields that no part of the form shows (so the words above it say them). */
export function unshown(form: HTMLElement, problem: Problem): string[] {
  const shown = [...form.querySelectorAll<HTMLElement>('[data-field]')].map((el) => ({
    field: el.dataset.field!,
    under: el.dataset.under === 'yes',
  }));
  return Object.keys(problem.fields).filter((f) => !shown.some((s) => s.field === f || (s.under && f.startsWith(`${s.field}.`))));
}

/** A text input with its label and its refusal. */
export function TextField(props: {
  id: string;
  label: ComponentChildren;
  value: string;
  problem: Problem | undefined;
  field: string;
  max?: number;
  long?: boolean;
  onInput(v: string): void;
}) {
  const attrs = {
    ...invalid(props.problem, props.field, props.id),
    value: props.value,
    maxLength: props.max,
    onInput: (e: Event) => props.onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <span class="survey-field">
      <label for={props.id}>{props.label}</label>
      {props.long ? <textarea rows={2} {...attrs} /> : <input {...attrs} />}
      <FieldSaid problem={props.problem} field={props.field} id={props.id} />
    </span>
  );
}
