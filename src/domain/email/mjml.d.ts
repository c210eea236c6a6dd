// The part of MJML (the `mjml` package, which ships no types) that the email renderer uses: a
// document given as MJML's JSON form, rendered to HTML.

declare module 'mjml' {
  /** An MJML element in JSON form: `content` is the raw HTML of an ending tag (mj-text, mj-button, mj-raw…). */
  export interface MjmlNode {
    tagName: string;
    attributes?: Record<string, string>;
    children?: MjmlNode[];
    content?: string;
  }

  export interface MjmlOptions {
    validationLevel?: 'strict' | 'soft' | 'skip';
    /** Web fonts MJML links when a font-family names them; `{}` links none. */
    fonts?: Record<string, string>;
    keepComments?: boolean;
    beautify?: boolean;
    minify?: boolean;
  }

  export interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }

  export default function mjml2html(input: string | MjmlNode, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
}
