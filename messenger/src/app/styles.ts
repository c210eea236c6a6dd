/** The screens' style, added to the messenger's shadow root when they are first opened. */
export const SCREENS_CSS = `
* { box-sizing: border-box; }
.head { background: var(--brand); color: var(--on-brand); padding: 16px 20px; display: flex; align-items: center; gap: 12px; }
.head h2 { margin: 0; font-size: 17px; font-weight: 650; flex: 1; }
.head button { background: transparent; border: 0; color: inherit; font: inherit; cursor: pointer; padding: 6px 8px; border-radius: 8px; }
.head button:focus-visible, .body button:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.body { flex: 1; overflow: auto; padding: 16px 20px; display: flex; flex-direction: column; gap: 12px; }
.greeting { font-size: 22px; font-weight: 650; margin: 4px 0 0; white-space: pre-line; }
.reply-time { color: #4a4a4a; margin: 0; }
.faces { display: flex; gap: 4px; margin: 0; padding: 0; list-style: none; }
.face { width: 32px; height: 32px; border-radius: 50%; background: #e8e8e8; color: #1a1a1a; display: grid; place-items: center;
  font-size: 12px; font-weight: 650; overflow: hidden; }
.face img { width: 100%; height: 100%; object-fit: cover; }
.card { border: 1px solid #d0d0d0; border-radius: 12px; padding: 12px 14px; background: #fff; }
.card h3 { margin: 0 0 6px; font-size: 15px; }
.home-cards { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.home-card { display: flex; flex-direction: column; gap: 2px; width: 100%; text-align: start; font: inherit; color: inherit; cursor: pointer; }
.home-card:hover { border-color: var(--brand); }
.home-card-title { font-weight: 600; }
.home-card-text { color: #555; font-size: 14px; }
.list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.list button { width: 100%; text-align: start; background: #f4f4f4; border: 0; border-radius: 10px; padding: 10px 12px; font: inherit;
  color: inherit; cursor: pointer; display: flex; gap: 8px; align-items: center; }
.list .preview { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.unread { background: #c5221f; color: #fff; border-radius: 10px; min-width: 20px; padding: 0 6px; font-size: 12px; font-weight: 700; text-align: center; }
.primary { background: var(--brand); color: var(--on-brand); border: 0; border-radius: 10px; padding: 10px 16px; font: inherit;
  font-weight: 600; cursor: pointer; }
.parts { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.part { max-width: 80%; padding: 8px 12px; border-radius: 14px; background: #f0f0f0; align-self: flex-start; }
.part.mine { align-self: flex-end; background: var(--brand); color: var(--on-brand); }
.part.event { align-self: center; background: transparent; color: #4a4a4a; font-size: 13px; text-align: center; }
.part .who { display: block; font-size: 12px; font-weight: 600; margin-bottom: 2px; }
.part p { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.part a { color: inherit; }
.composer { display: flex; gap: 8px; padding: 12px; border-top: 1px solid #d0d0d0; align-items: flex-end; }
.composer textarea { flex: 1; resize: none; border: 1px solid #8a8a8a; border-radius: 10px; padding: 8px 10px; font: inherit; min-height: 40px;
  max-height: 120px; }
.error { color: #a3160f; margin: 0; padding: 0 12px; }
.status { color: #4a4a4a; margin: 0; padding: 0 12px; font-size: 13px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const COMPOSER_CSS = `
.composer-wrap { border-top: 1px solid #d0d0d0; }
.composer-wrap .composer { border-top: 0; }
.add-picture { display: grid; place-items: center; width: 40px; height: 40px; border-radius: 10px; border: 1px solid #8a8a8a; cursor: pointer;
  font-size: 20px; color: #1a1a1a; }
.add-picture:focus-within { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.add-picture.full { opacity: 0.5; cursor: not-allowed; }
.add-picture input { position: absolute; width: 1px; height: 1px; opacity: 0; }
.chosen { list-style: none; margin: 0; padding: 8px 12px 0; display: flex; gap: 8px; flex-wrap: wrap; }
.chosen li { position: relative; width: 64px; }
.chosen img { width: 64px; height: 64px; object-fit: cover; border-radius: 8px; display: block; }
.chosen .uploading img { opacity: 0.5; }
.chosen .failed img { outline: 2px solid #a3160f; }
.chosen .why { display: block; font-size: 11px; color: #a3160f; }
.chosen button { position: absolute; inset: -6px -6px auto auto; width: 24px; height: 24px; border-radius: 50%; border: 0; background: #1a1a1a;
  color: #fff; cursor: pointer; font-size: 12px; }
.part .pictures { display: flex; gap: 4px; flex-wrap: wrap; margin-top: 4px; }
.part .pictures img { max-width: 100%; max-height: 200px; height: auto; border-radius: 8px; }
.bot-buttons { display: flex; flex-wrap: wrap; gap: 6px; align-self: flex-start; }
.bot-buttons button { border: 1px solid var(--brand); color: #1a1a1a; background: #fff; border-radius: 16px; padding: 6px 12px; font: inherit;
  cursor: pointer; }
.rating { border: 1px solid #d0d0d0; border-radius: 12px; padding: 10px 12px; display: flex; gap: 6px; justify-content: center; }
.rating legend { padding: 0 4px; font-weight: 600; }
.rating button { font-size: 26px; background: transparent; border: 0; cursor: pointer; border-radius: 8px; padding: 2px 6px; }
`;

export const HELP_CSS = `
.search { width: 100%; border: 1px solid #8a8a8a; border-radius: 10px; padding: 8px 10px; font: inherit; margin-bottom: 8px; }
.search:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.article h3, .article h4, .article h5 { margin: 8px 0 0; }
.article .article-title { font-size: 20px; }
.article p, .article ul, .article ol { margin: 0; }
.block-image { max-width: 100%; height: auto; border-radius: 8px; }
.callout { background: #eef3fd; border-left: 4px solid var(--brand); padding: 8px 12px; border-radius: 6px; }
.helpful { display: flex; gap: 8px; align-items: center; border-top: 1px solid #d0d0d0; padding-top: 12px; }
.helpful button { border: 1px solid #8a8a8a; background: #fff; border-radius: 8px; padding: 4px 12px; font: inherit; cursor: pointer; color: #1a1a1a; }
.helpful p { margin: 0; }
mark { background: #fff3a3; color: inherit; }
`;

export const NOTICES_CSS = `
.notices { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.notices li { border: 1px solid #d0d0d0; border-radius: 10px; padding: 10px 12px; display: flex; flex-direction: column; gap: 4px; }
.notices li.unread-notice { border-color: var(--brand); box-shadow: inset 4px 0 0 var(--brand); }
.notices p { margin: 0; }
.notices time { color: #4a4a4a; font-size: 12px; }
.home-notices { display: flex; align-items: center; gap: 8px; }
`;

export const LINK_BUTTON_CSS = `
.link-button { background: transparent; border: 0; padding: 0; font: inherit; font-weight: 600; color: #1a1a1a; cursor: pointer; text-decoration: underline; }
.link-button:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
`;

/** Preferences and consent (switches), the help center's collections, and the rating's remark. */
export const PREFERENCES_CSS = `
.topic { margin: 0; display: flex; flex-direction: column; gap: 10px; min-width: 0; }
.topic legend { font-weight: 650; padding: 0 4px; }
.hint { color: #4a4a4a; font-size: 13px; margin: 0; }
.switch-row { display: grid; grid-template-columns: auto 1fr; align-items: center; gap: 2px 10px; }
.switch-row .hint { grid-column: 2; }
.switch-row label { cursor: pointer; }
input[role="switch"] { appearance: none; margin: 0; width: 44px; height: 26px; border-radius: 13px; background: #6b6b6b; position: relative;
  cursor: pointer; flex: none; }
input[role="switch"]::before { content: ''; position: absolute; top: 3px; left: 3px; width: 20px; height: 20px; border-radius: 50%;
  background: #fff; box-shadow: 0 1px 2px rgb(0 0 0 / 40%); }
input[role="switch"]:checked { background: var(--brand); box-shadow: inset 0 0 0 2px #1a1a1a; }
input[role="switch"]:checked::before { left: 21px; }
input[role="switch"]:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
@media (prefers-reduced-motion: no-preference) { input[role="switch"]::before { transition: left 120ms ease-out; } }
.saved-status { position: sticky; bottom: -16px; background: #fff; padding: 4px 0; }
.saved-status .error, .saved-status .status { padding: 0; }
.saved-status .status:empty { display: none; }
.saved-status:has(.error, .status:not(:empty)) { border-top: 1px solid #d0d0d0; }
.home-links { margin: 0; text-align: center; }
.browse { margin-top: 8px; }
.collections .collection-text { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.section-name { font-size: 15px; margin: 4px 0 6px; }
.rate { display: flex; flex-direction: column; gap: 8px; }
.rating button[aria-pressed="true"] { background: #ececec; box-shadow: inset 0 0 0 2px #1a1a1a; }
.rate label { font-weight: 600; }
.rate textarea { border: 1px solid #8a8a8a; border-radius: 10px; padding: 8px 10px; font: inherit; resize: vertical; min-height: 56px; }
.rate .primary { align-self: flex-end; }
`;
