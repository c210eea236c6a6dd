/** The launcher's style, in the messenger's shadow root: nothing of the page reaches in, nothing leaks out. */
export const LAUNCHER_CSS = `
:host { all: initial; }
.launcher { position: fixed; inset: auto 20px 20px auto; z-index: 2147483000; width: 56px; height: 56px; border-radius: 50%;
  border: 0; background: var(--brand); color: var(--on-brand); cursor: pointer; box-shadow: 0 4px 16px rgb(0 0 0 / 25%);
  display: grid; place-items: center; font: 600 14px/1 system-ui, sans-serif; }
.launcher:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 3px; }
.launcher svg { width: 28px; height: 28px; fill: currentColor; }
.badge { position: absolute; inset: -4px -4px auto auto; min-width: 20px; height: 20px; padding: 0 6px; box-sizing: border-box;
  border-radius: 10px; background: #c5221f; color: #fff; font: 700 12px/20px system-ui, sans-serif; text-align: center; }
.badge[hidden] { display: none; }
@media (prefers-reduced-motion: no-preference) { .launcher { transition: transform 120ms ease-out; } .launcher:hover { transform: scale(1.06); } }
`;

/** The panel the screens draw in: a sheet above the launcher, the whole screen on a phone. */
export const PANEL_CSS = `
.panel { position: fixed; inset: auto 20px 88px auto; z-index: 2147483000; width: 380px; height: min(640px, calc(100vh - 108px));
  display: flex; flex-direction: column; background: #fff; color: #1a1a1a; border-radius: 16px; overflow: hidden;
  box-shadow: 0 8px 40px rgb(0 0 0 / 25%); font: 15px/1.45 system-ui, sans-serif; }
.panel[hidden] { display: none; }
@media (max-width: 480px) { .panel { inset: 0; width: auto; height: auto; border-radius: 0; } }
`;

/** On a phone the open panel is the whole screen, with its own close button: the launcher steps aside. */
export const PHONE_CSS = `
@media (max-width: 480px) { .panel:not([hidden]) + .launcher { display: none; } }
`;
