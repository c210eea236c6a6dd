import { store } from './api/store';
import type { WorkspacesQuery } from './generated/graphql';

// Where the console works: a workspace's app, in live or test mode. Kept per browser, so a reload
// (and another tab) opens the same app and mode.

export type Mode = 'live' | 'test';
type WorkspaceNode = WorkspacesQuery['workspaces']['edges'][number]['node'];
export type AppNode = WorkspaceNode['apps']['edges'][number]['node'];

export interface Place {
  workspaceId: string;
  workspaceName: string;
  app: AppNode;
  mode: Mode;
}

const KEY = 'crm.console.place';
export const place = store<Place | undefined>(undefined);
export const workspaces = store<WorkspaceNode[]>([]);

export const appModeId = (p: Place) => (p.mode === 'test' ? p.app.test.id : p.app.live.id);

/** The place kept from before when it is still among the workspaces, else the first app found. */
export function choosePlace(list: WorkspaceNode[]): Place | undefined {
  workspaces.set(list);
  let kept: { appId?: string; mode?: Mode } = {};
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? '{}');
  } catch {}
  const all = list.flatMap((w) => w.apps.edges.map((e) => ({ w, app: e.node })));
  const found = all.find((a) => a.app.id === kept.appId) ?? all[0];
  if (!found) return undefined;
  return { workspaceId: found.w.id, workspaceName: found.w.name, app: found.app, mode: kept.mode === 'test' ? 'test' : 'live' };
}

export function setPlace(next: Place | undefined) {
  if (next) localStorage.setItem(KEY, JSON.stringify({ appId: next.app.id, mode: next.mode }));
  place.set(next);
}

export function switchApp(appId: string) {
  for (const w of workspaces.get())
    for (const { node } of w.apps.edges)
      if (node.id === appId) setPlace({ workspaceId: w.id, workspaceName: w.name, app: node, mode: place.get()?.mode ?? 'live' });
}

export function switchMode(mode: Mode) {
  const p = place.get();
  if (p) setPlace({ ...p, mode });
}
