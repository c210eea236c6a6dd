import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import { actionCommands, type Command } from '../commands';
import { SettingsRoleDocument, type StaffRole } from '../generated/graphql';
import type { Place } from '../place';
import './settings.css';

// What every settings page shares: the viewer's role in the place's workspace (what it may not do
// is disabled, with the reason said), a refusal split by the fields it names (each shown beside
// its field, the rest above the form), a confirmation dialog, and a secret shown once.

export type Action = 'manage_settings' | 'manage_keys' | 'manage_members';
const ALLOWED: Record<StaffRole, Action[]> = {
  owner: ['manage_settings', 'manage_keys', 'manage_members'],
  admin: ['manage_settings', 'manage_keys'],
  agent: [],
};
const NEEDS: Record<Action, string> = {
  manage_settings: 'Only owners and admins may change settings.',
  manage_keys: 'Only owners and admins may make or revoke keys.',
  manage_members: 'Only owners may invite, change or remove members.',
};

/** The viewer's role in the place's workspace (undefined while it is read). */
export function useRole(place: Place): StaffRole | undefined {
  const [role, setRole] = useState<StaffRole | undefined>();
  useEffect(() => {
    request(SettingsRoleDocument, {})
      .then(({ viewer }) => setRole(viewer.memberships.edges.find((e) => e.node.workspace.id === place.workspaceId)?.node.role ?? 'agent'))
      .catch(() => setRole('agent'));
  }, [place.workspaceId]);
  return role;
}

/** Why the role may not do it, or undefined when it may (and while the role is read, nothing is allowed yet). */
export const refusedFor = (role: StaffRole | undefined, action: Action): string | undefined =>
  role === undefined ? 'Reading your role…' : ALLOWED[role].includes(action) ? undefined : NEEDS[action];

/** A refusal as a form shows it: the message, and each named field's own words. */
export interface Problem {
  message: string;
  code: string;
  fields: Record<string, string>;
}

export function problemOf(err: unknown): Problem {
  if (!(err instanceof Refusal)) return { message: String(err), code: 'error', fields: {} };
  const fields: Record<string, string> = {};
  for (const f of err.fields) {
    const words = (f as { message?: string }).message ?? f.detail ?? 'is not right';
    fields[f.field] = fields[f.field] ? `${fields[f.field]}; ${words}` : words;
  }
  return { message: err.message, code: err.code, fields };
}

/** The problem's words for `field` and the fields under it (`webOrigins` takes `webOrigins.2` too). */
export function fieldError(problem: Problem | undefined, field: string): string | undefined {
  if (!problem) return undefined;
  const found = Object.entries(problem.fields).filter(([f]) => f === field || f.startsWith(`${field}.`));
  return found.length ? found.map(([, words]) => words).join('; ') : undefined;
}

/** A field's error ids and state, for its input: `<input {...invalid(p, 'url', 'hook-url')} />`. */
export const invalid = (problem: Problem | undefined, field: string, id: string) =>
  fieldError(problem, field) ? { id, 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : { id };

/** A field's error, beside it. */
export function FieldError({ problem, field, id }: { problem: Problem | undefined; field: string; id: string }) {
  const words = fieldError(problem, field);
  if (!words) return null;
  return (
    <p class="field-error" id={`${id}-error`}>
      {words}
    </p>
  );
}

/** A refusal naming exactly this member (not one inside it), such as an opening's own `openings.2`. */
export function Exact({ problem, field }: { problem: Problem | undefined; field: string }) {
  const words = problem?.fields[field];
  return words ? <p class="field-error">{words}</p> : null;
}

/** The refusal above the form when it names none of the form's fields (or names no field at all). */
export function FormProblem({ problem, fields }: { problem: Problem | undefined; fields: string[] }) {
  const said = useRef<HTMLParagraphElement>(null);
  const named = !!problem && fields.some((f) => fieldError(problem, f));
  // The first field refused takes the focus: the keyboard is where the fix is.
  useEffect(() => {
    if (named) said.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problem]);
  if (!problem) return null;
  if (named)
    return (
      <p class="error" role="alert" ref={said}>
        Not saved: see the fields marked below.
      </p>
    );
  return (
    <p class="error" role="alert">
      {problem.message}
    </p>
  );
}

/** A secret shown this once: a warning, the value to select or copy, and a button that puts it away for good. */
export function OnceSecret({ label, secret, onDone, id = 'once-secret' }: { label: string; secret: string; onDone(): void; id?: string }) {
  const [copied, setCopied] = useState<string | undefined>();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied.');
    } catch {
      setCopied(document.execCommand('copy') ? 'Copied.' : 'Select the text and copy it yourself.');
    }
  };
  return (
    <section class="once-secret" role="region" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label}</h2>
      <p class="warning">
        <strong>Copy it now: it is shown this once.</strong> Only a sealed copy or a hash is kept; leaving this page forgets it, and it
        cannot be shown again (make a new one instead).
      </p>
      <div class="secret-line">
        <label for={`${id}-value`} class="visually-hidden">
          {label}
        </label>
        <input id={`${id}-value`} ref={field} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="quiet" onClick={onDone}>
          I have kept it
        </button>
      </div>
      <p role="status" class="copied">
        {copied}
      </p>
    </section>
  );
}

/** A page's frame: its title, what it is for, and what the role may not do. */
export function SettingsPage(props: { title: string; intro: ComponentChildren; class: string; children: ComponentChildren }) {
  return (
    <main class={`settings-page ${props.class}`} id="main">
      <h1>{props.title}</h1>
      <p class="intro">{props.intro}</p>
      {props.children}
    </main>
  );
}

/** Reads once as the page opens (and again when `deps` change); `problem` when refused. */
export function useRead<T>(read: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    read()
      .then((d) => current && (setData(d), setProblem(undefined)))
      .catch((err) => current && setProblem(problemOf(err)));
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { data, setData, problem, reload: () => setRound((r) => r + 1) };
}

/**
 * The page's actions in the command menu while it is open (Ctrl/⌘-K), each by the control it
 * focuses or presses: a control disabled for the viewer's role stays as inert from the menu.
 */
export function usePageActions(list: { id: string; label: string; focus?: string; press?: string }[]) {
  useEffect(() => {
    const commands: Command[] = list.map(({ id, label, focus, press }) => ({
      id: `settings-action-${id}`,
      label,
      run: () => {
        if (focus) document.getElementById(focus)?.focus();
        if (press) document.getElementById(press)?.click();
      },
    }));
    actionCommands.set(commands);
    return () => actionCommands.set([]);
  }, []);
}

/** Says why a control is disabled. */
export function Reason({ why }: { why: string | undefined }) {
  if (!why) return null;
  return <p class="reason">{why}</p>;
}
