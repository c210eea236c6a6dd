import type { SignupLinkState } from '../../src/domain/signup/confirm.js';
import { html, renderPage, type Html, type RenderedPage } from '../../src/lib/html/index.js';

// The page a sign-up's confirmation link leads to: server-rendered, no script. It shows what the
// link stands for and a button (a plain form posted to the page's own address); each other state
// (confirmed already, expired or replaced, the address taken meanwhile, a link that opens nothing)
// says so plainly with where to go next.

const TITLE = 'Confirm your sign-up';

function page(title: string, body: Html): RenderedPage {
  return renderPage({
    lang: 'en',
    title,
    noindex: true,
    brand: { name: 'Sign-up', color: '', logoUrl: null },
    homeHref: '#main',
    siteName: '',
    body: html`<main class="content" id="main">
      <div class="wrap email-page">${body}</div>
    </main>`,
  });
}

const signIn = (consolePath: string) => html`<p><a href="${consolePath}">Sign in to the staff console</a></p>`;

/** The page of a link, by what it stands for now; its HTTP status beside it. */
export function signupPage(state: SignupLinkState, input: { token: string; consolePath: string }): { status: number; page: RenderedPage } {
  switch (state.state) {
    case 'pending':
      return {
        status: 200,
        page: page(
          TITLE,
          html`<h1>${TITLE}</h1>
            <p>Confirming makes the workspace <strong>${state.workspaceName}</strong> with the app <strong>${state.appName}</strong>, and
              you, ${state.email}, its owner. You then sign in with the password you chose.</p>
            <form method="post" action="/signup/confirm/${input.token}">
              <button class="email-primary" type="submit">Confirm and create my workspace</button>
            </form>`,
        ),
      };
    case 'confirmed':
      return {
        status: 200,
        page: page(
          'Sign-up confirmed already',
          html`<h1>This sign-up is confirmed already</h1>
            <p>The workspace was made; nothing more is. Sign in as ${state.email} with the password you chose.</p>
            ${signIn(input.consolePath)}`,
        ),
      };
    case 'taken':
      return {
        status: 409,
        page: page(
          'You have an account',
          html`<h1>${state.email} has an account already</h1>
            <p>An account with this address was made since you signed up, so nothing was made. Sign in with it.</p>
            ${signIn(input.consolePath)}`,
        ),
      };
    case 'expired':
      return {
        status: 410,
        page: page(
          'This link has expired',
          html`<h1>This sign-up link has expired</h1>
            <p>A link works for a day, and only the latest sign-up's link works. Nothing was made: sign up again.</p>`,
        ),
      };
    case 'unknown':
      return {
        status: 404,
        page: page(
          'This link opens nothing',
          html`<h1>This link opens nothing</h1>
            <p>Check that the whole address from the mail was opened.</p>`,
        ),
      };
  }
}

export const tooManyPage = () => page('Too many requests', html`<h1>Too many requests</h1><p>Wait a minute, then try again.</p>`);
