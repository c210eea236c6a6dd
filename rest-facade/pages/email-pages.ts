import type { EmailLists, EmailPage } from '../../src/domain/email/leave.js';
import type { Preferences } from '../../src/domain/preferences/read.js';
import { html, renderPage, type Html, type RenderedPage } from '../../src/lib/html/index.js';
import { emailWordsFor } from './email-words.js';

// The unsubscribe page and the preference centre: server-rendered in the app's brand, no script,
// plain forms posted to the email link routes (which answer 303 back here). The unsubscribe page
// asks before it unsubscribes (a GET never does); the preference centre shows every topic with a
// box per channel, and everything off apart, each box a choice of its own.

type Words = ReturnType<typeof emailWordsFor>;

function page(at: EmailPage | undefined, language: string, title: string, body: Html): RenderedPage {
  const words = emailWordsFor(language);
  return renderPage({
    lang: language,
    title: at ? `${title} · ${at.brand.name}` : title,
    noindex: true,
    brand: at ? at.brand : { name: title, color: '', logoUrl: null },
    homeHref: '#main',
    siteName: '',
    body: html`<main class="content" id="main">
      <div class="wrap email-page">
        ${at?.test ? html`<p class="email-note" role="note">${words.testCopy}</p>` : null} ${body}
      </div>
    </main>`,
  });
}

export function unsubscribePageHtml(input: {
  token: string;
  lists: EmailLists;
  page: EmailPage;
  language: string;
  left: boolean;
}): RenderedPage {
  const { lists, page: at, language } = input;
  const words: Words = emailWordsFor(language);
  const topic = lists.topic?.topic.name;
  const manage = html`<p><a href="/preferences/${at.preferencesToken}">${words.manage}</a></p>`;
  if (!topic || !lists.topic)
    return page(at, language, words.unsubscribeTitle, html`<h1>${words.unsubscribeTitle}</h1><p>${words.gone}</p>${manage}`);
  if (input.left || !lists.subscribed)
    return page(
      at,
      language,
      words.unsubscribeTitle,
      html`<h1>${words.left(topic)}</h1>
        <p>${words.leftDetail(at.address)}</p>
        ${manage}`,
    );
  return page(
    at,
    language,
    words.unsubscribeTitle,
    html`<h1>${words.askLeave(topic)}</h1>
      <p>${words.youGet(topic, at.address)}</p>
      <form method="post" action="/public/v1/email/unsubscribe/${input.token}?source=page">
        <input type="hidden" name="wording" value="${`${words.askLeave(topic)} ${words.leave}`}" />
        <button class="email-primary" type="submit">${words.leave}</button>
      </form>
      ${manage}`,
  );
}

export function preferencesPageHtml(input: {
  token: string;
  preferences: Preferences;
  page: EmailPage;
  language: string;
  saved: boolean;
}): RenderedPage {
  const { preferences, page: at, language } = input;
  const words: Words = emailWordsFor(language);
  const topics = preferences.topics.filter((t) => t.channels.length > 0);
  const box = (key: string, channel: string, subscribed: boolean, name: string) => {
    const id = `c-${key}-${channel}`;
    return html`<li>
      <input type="hidden" name="shown" value="${`${key}|${channel}`}" />
      <input type="checkbox" id="${id}" name="on" value="${`${key}|${channel}`}" ${subscribed ? html`checked` : null} />
      <label for="${id}">${name}</label>
    </li>`;
  };
  return page(
    at,
    language,
    words.preferencesTitle,
    html`<h1>${words.preferencesTitle}</h1>
      ${input.saved ? html`<p class="email-saved" role="status">${words.saved}</p>` : null}
      <p>${words.preferencesLead(at.address)}</p>
      <form method="post" action="/public/v1/preferences/${input.token}">
        <input type="hidden" name="wording" value="${`${words.preferencesTitle}: ${words.preferencesLead(at.address)}`}" />
        ${topics.length === 0 ? html`<p>${words.none}</p>` : null}
        ${topics.map(
          (t) =>
            html`<fieldset class="email-topic">
              <legend>${t.topic.name}</legend>
              ${t.topic.description ? html`<p class="email-hint">${t.topic.description}</p>` : null}
              <ul class="email-choices">
                ${t.channels.map((c) => box(t.topic.key, c.channel, c.subscribed, words.channels[c.channel] ?? c.channel))}
              </ul>
            </fieldset>`,
        )}
        <div class="email-topic">
          <ul class="email-choices">
            <li>
              <input type="checkbox" id="all-off" name="all_off" value="on" aria-describedby="all-off-hint" ${preferences.allOff ? html`checked` : null} />
              <label for="all-off">${words.allOff}</label>
            </li>
          </ul>
          <p class="email-hint" id="all-off-hint">${words.allOffHint}</p>
        </div>
        <button class="email-primary" type="submit">${words.save}</button>
      </form>`,
  );
}

/** What went wrong, as a page: a link that opens nothing (404), or too many requests (429). */
export function emailErrorPage(status: number, language: string): RenderedPage {
  const words = emailWordsFor(language);
  const title = status === 429 ? words.tooMany : words.notFound;
  return page(undefined, language, title, html`<h1>${title}</h1>${status === 429 ? null : html`<p>${words.notFoundHint}</p>`}`);
}
