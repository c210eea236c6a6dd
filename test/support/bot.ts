import { expect } from 'vitest';
import { staffApi } from './graphql.js';
import type { StaffApp } from './factories.js';
import type { TestServer } from './server.js';

// The help bot as tests set it up: a graph saved on the staff API as the app's owner.

export const para = (text: string) => ({ type: 'paragraph', spans: [{ text }] });

export const HELP_BOT =
  'appModeId name steps { edges { node { key blocks buttons { id label next } question { kind key next } handover { teamId } } } } openings { edges { node { id name language active version blocks buttons { id label next } } } }';

const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

export interface BotGraph {
  name: string;
  steps: Record<string, unknown>[];
  openings: Record<string, unknown>[];
}

/**
 * A billing help bot: Billing asks invoice or refund; an invoice asks the email, then the order
 * number, then hands over to the team given; a refund hands over at once. The opening also offers
 * a person straight away.
 */
export const billingBot = (teamId: string | null = null, openingName = 'Welcome'): BotGraph => ({
  name: 'Sunny',
  steps: [
    {
      key: 'billing',
      blocks: [para('Is it about an invoice or a refund?')],
      buttons: [
        { id: 'invoice', label: 'An invoice', next: 'ask_email' },
        { id: 'refund', label: 'A refund', next: 'to_billing' },
      ],
    },
    {
      key: 'ask_email',
      blocks: [para('What email is the invoice sent to?')],
      question: { kind: 'email', key: 'email', next: 'ask_order' },
    },
    { key: 'ask_order', blocks: [para('And the order number?')], question: { kind: 'number', key: 'order', next: 'to_billing' } },
    { key: 'to_billing', blocks: [para('Passing you to our billing people.')], handover: { teamId } },
  ],
  openings: [
    {
      name: openingName,
      active: true,
      blocks: [para('Hi! How can we help?')],
      buttons: [
        { id: 'billing', label: 'Billing', next: 'billing' },
        { id: 'human', label: 'Talk to a person', next: 'handover' },
      ],
    },
  ],
});

export function botOf(t: () => TestServer, app: () => StaffApp) {
  const api = staffApi(
    () => t().url,
    () => app().owner,
  );
  const save = (graph: BotGraph, appModeId = app().modes.live, token?: string) =>
    api.gql(
      `mutation($m: ID!, $n: String!, $s: [BotStepInput!]!, $o: [BotOpeningInput!]!) { saveHelpBot(appModeId: $m, name: $n, steps: $s, openings: $o) { ${HELP_BOT} } }`,
      { m: appModeId, n: graph.name, s: graph.steps, o: graph.openings },
      token ?? app().owner,
    );
  return {
    ...api,
    save,
    /** Saves a graph that must be taken; the bot as saved, its steps and openings as lists. */
    async saved(graph: BotGraph, appModeId?: string) {
      const r = await save(graph, appModeId);
      expect(r.errors).toBeUndefined();
      const bot = r.data.saveHelpBot;
      return { ...bot, steps: nodes(bot.steps), openings: nodes(bot.openings) };
    },
    /** A team of the app's workspace; its id. */
    async team(name: string) {
      return (
        await api.ok('mutation($w: ID!, $n: String!) { createTeam(workspaceId: $w, name: $n) { id } }', { w: app().workspaceId, n: name })
      ).createTeam.id as string;
    },
  };
}
