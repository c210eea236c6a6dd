/** In-app messages' style, in the messenger's shadow root. */
export const INAPP_CSS = `
.inapp-banner { position: fixed; left: 0; right: 0; z-index: 2147482999; display: flex; gap: 12px; align-items: center; padding: 10px 16px;
  background: var(--brand); color: var(--on-brand); font: 15px/1.4 system-ui, sans-serif; box-shadow: 0 2px 12px rgb(0 0 0 / 20%); }
.inapp-banner.top { top: 0; }
.inapp-banner.bottom { bottom: 0; }
.inapp-banner .inapp-words { flex: 1; }
.inapp-banner p { margin: 0; }
.inapp-banner a { color: inherit; font-weight: 600; }
.inapp-banner .inapp-close { background: transparent; border: 0; color: inherit; font: inherit; cursor: pointer; padding: 4px 8px; border-radius: 6px; }
.inapp-scrim { position: fixed; inset: 0; z-index: 2147483001; background: rgb(0 0 0 / 45%); display: grid; place-items: center; padding: 16px;
  font: 15px/1.45 system-ui, sans-serif; }
.inapp-post { box-sizing: border-box; position: relative; background: #fff; color: #1a1a1a; border-radius: 16px; width: min(440px, 100%); max-height: calc(100vh - 32px);
  overflow: auto; padding: 24px; display: flex; flex-direction: column; gap: 12px; }
.inapp-post h3, .inapp-post h4, .inapp-post h5 { margin: 0; }
.inapp-post p, .inapp-post ul, .inapp-post ol { margin: 0; }
.inapp-post .inapp-close { position: absolute; inset: 8px 8px auto auto; background: #f0f0f0; border: 0; border-radius: 50%; width: 32px; height: 32px;
  cursor: pointer; font: inherit; color: #1a1a1a; }
.inapp-image { width: 100%; border-radius: 10px; object-fit: cover; }
.inapp-buttons { display: flex; flex-direction: column; gap: 8px; }
.inapp-buttons button { border-radius: 10px; padding: 10px 16px; font: inherit; font-weight: 600; cursor: pointer; }
.inapp-buttons .main { background: var(--brand); color: var(--on-brand); border: 0; }
.inapp-buttons .other { background: #fff; color: #1a1a1a; border: 1px solid #8a8a8a; }
.inapp-banner :focus-visible, .inapp-post :focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.inapp-banner :focus-visible { outline-color: var(--on-brand); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const CAROUSEL_CSS = `
.carousel .carousel-screen { display: flex; flex-direction: column; gap: 12px; outline: none; }
.carousel .layout-image_full .inapp-image { margin: -24px -24px 0; width: calc(100% + 48px); border-radius: 16px 16px 0 0; }
.carousel .inapp-close.skip { width: auto; border-radius: 16px; padding: 0 12px; }
.carousel-choice { border: 0; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.carousel-choice button { text-align: start; border: 1px solid #8a8a8a; background: #fff; color: #1a1a1a; border-radius: 10px; padding: 10px 14px;
  font: inherit; cursor: pointer; }
.carousel-choice button[aria-pressed="true"] { border-color: var(--brand); box-shadow: inset 0 0 0 2px var(--brand); }
.carousel-progress { display: flex; justify-content: center; gap: 6px; }
.carousel-progress .dot { width: 8px; height: 8px; border-radius: 50%; background: #c4c4c4; }
.carousel-progress .dot.on { background: var(--brand); }
.carousel-progress.bar { height: 4px; background: #e4e4e4; border-radius: 2px; justify-content: flex-start; }
.carousel-progress .bar { height: 4px; background: var(--brand); border-radius: 2px; }
@media (max-width: 480px) { .inapp-scrim { align-items: end; padding: 0; } .inapp-post { border-radius: 16px 16px 0 0; width: 100%; } }
`;

/** A survey's questions: scales of buttons, choices, a dropdown and text boxes. */
export const SURVEY_CSS = `
.survey-step { display: flex; flex-direction: column; gap: 16px; outline: none; }
.survey-question { border: 0; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.survey-question legend, .survey-question > label { font-weight: 600; padding: 0; margin-bottom: 8px; }
.survey-hint { margin: 0; color: #555; font-size: 14px; }
.survey-scale { display: flex; flex-wrap: wrap; gap: 6px; }
.survey-scale button { min-width: 36px; min-height: 36px; border: 1px solid #8a8a8a; background: #fff; color: #1a1a1a; border-radius: 8px; font: inherit; cursor: pointer; }
.survey-scale.stars button, .survey-scale.emoji button { border-color: transparent; font-size: 24px; }
.survey-scale button[aria-pressed="true"] { border-color: var(--brand); box-shadow: inset 0 0 0 2px var(--brand); }
.survey-scale button:focus-visible, .survey-question input:focus-visible, .survey-question select:focus-visible, .survey-question textarea:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
.survey-ends { display: flex; justify-content: space-between; color: #555; font-size: 13px; }
.survey-options { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.survey-options label { display: flex; gap: 10px; align-items: center; min-height: 32px; cursor: pointer; }
.survey-options input { width: 18px; height: 18px; accent-color: var(--brand); }
.survey-question select, .survey-question input:not([type]), .survey-question textarea, .survey-other { font: inherit; padding: 8px 10px; border: 1px solid #8a8a8a; border-radius: 8px; background: #fff; color: #1a1a1a; }
.survey-question textarea { min-height: 96px; resize: vertical; }
.survey .error { color: #b00020; margin: 0; font-size: 14px; }
`;
