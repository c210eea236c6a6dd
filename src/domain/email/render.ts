// Placeholder until the MJML renderer lands: the same API, a plain rendering.

export const MAX_TRACKED_LINKS = 500;

export interface RenderInput {
  subject: string;
  preheader: string;
  blocks: unknown;
  brand: { name: string; color: string; logoUrl: string | null };
  language: string;
  topic: { name: string } | null;
}

export interface Rendered {
  html: string;
  text: string;
  links: string[];
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function renderEmail(input: RenderInput): Promise<Rendered> {
  const footer = input.topic ? `<a href="&crm-unsubscribe;">Unsubscribe</a> <a href="&crm-preferences;">Preferences</a>` : '';
  return {
    html: `<html><body><h1>${escape(input.subject)}</h1>${footer}<img src="&crm-open;" alt=""></body></html>`,
    text: `${input.subject}\n${input.topic ? 'Unsubscribe: &crm-unsubscribe;\n' : ''}`,
    links: [],
  };
}

export function personalise(
  rendered: { html: string; text: string },
  at: { links: string[]; open: string; unsubscribe?: string; preferences?: string },
): { html: string; text: string } {
  const fill = (s: string, attr: boolean) =>
    s.replace(/&crm-(link-(\d+)|open|unsubscribe|preferences);/g, (_, what: string, i?: string) => {
      const value =
        i !== undefined ? at.links[Number(i)] : what === 'open' ? at.open : what === 'unsubscribe' ? at.unsubscribe : at.preferences;
      return attr ? escape(value ?? '') : (value ?? '');
    });
  return { html: fill(rendered.html, true), text: fill(rendered.text, false) };
}
