/** The tickets' screens' style (the list, home's section, one ticket), added with the screens' own. */
export const TICKETS_CSS = `
.tickets .preview { display: flex; flex-direction: column; white-space: normal; }
.ticket-title { font-weight: 600; overflow-wrap: anywhere; }
.ticket-type { font-size: 12px; color: #4a4a4a; }
.ticket-state { border: 1px solid var(--brand); border-radius: 10px; padding: 1px 8px; font-size: 12px; font-weight: 600; color: #1a1a1a;
  background: #fff; white-space: nowrap; }
.ticket-state.final { border-color: #4a4a4a; background: #f0f0f0; }
.all-tickets { margin-top: 8px; }
.ticket dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 8px; font-size: 14px; }
.ticket dt { color: #4a4a4a; }
.ticket dd { margin: 0; overflow-wrap: anywhere; }
.ticket-description { margin: 0 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.steps { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; font-size: 12px; }
.steps li { padding: 2px 8px; border-radius: 10px; background: #f0f0f0; color: #4a4a4a; }
.steps li.current { background: var(--brand); color: var(--on-brand); font-weight: 600; }
`;
