import { useStore } from '../api/store';
import { place, switchApp, switchMode, workspaces } from '../place';

// The workspace and app (one list, apps grouped by workspace) and the live/test mode.

export function Switcher() {
  const here = useStore(place);
  const list = useStore(workspaces);
  if (!here) return <div class="switcher" />;
  return (
    <div class="switcher">
      <label for="app-switch">App</label>
      <select id="app-switch" value={here.app.id} onChange={(e) => switchApp(e.currentTarget.value)}>
        {list.map((w) => (
          <optgroup key={w.id} label={w.name}>
            {w.apps.edges.map(({ node }) => (
              <option key={node.id} value={node.id}>
                {node.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <fieldset class="mode">
        <legend>Mode</legend>
        {(['live', 'test'] as const).map((m) => (
          <label key={m} class={here.mode === m ? 'on' : ''}>
            <input type="radio" name="mode" value={m} checked={here.mode === m} onChange={() => switchMode(m)} />
            {m === 'live' ? 'Live' : 'Test'}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
