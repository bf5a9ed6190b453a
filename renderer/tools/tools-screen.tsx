import { useEffect, useRef, useState } from 'react';
import type { RequestorTool, ServerView } from '../../app/contract/host-api.js';
import { FieldFrame } from '../forms/field-frame.js';
import { toHostCallError } from '../host-client.js';
import { useDesk, useDeskState, type ToolCallAgain } from '../shell/desk-context.js';
import { OutboundList } from './outbound-list.js';
import { RunningCalls } from './running-calls.js';
import { focusInSight } from '../components/focus-screen.js';
import { ServerTasksPanel } from './server-tasks-panel.js';
import { ToolItem } from './tool-item.js';
import { toolCallTitle, useLastCalls } from './last-call.js';

/**
 * Where a server's tool list stands. A loaded list is `stale` from when its server stops being
 * ready until it is listed anew: kept, hidden, so that its forms are still there.
 */
type ToolsLoad =
  | { kind: 'loading' }
  | { kind: 'loaded'; tools: RequestorTool[]; stale?: boolean }
  | { kind: 'failed'; message: string };

/**
 * The lists kept as the servers change: a server gone loses its list. One no longer connected
 * keeps its loaded list, stale, hidden with the forms in it (opened, typed in): once it is ready
 * again and listed anew, the forms of the tools it still lists are there as they were, and those
 * of a tool it no longer lists go with it. The same object when nothing changes.
 */
function keptLoads(loads: Record<string, ToolsLoad>, servers: readonly ServerView[]): Record<string, ToolsLoad> {
  const status = new Map(servers.map((s) => [s.id, s.state.status]));
  let changed = false;
  const kept: Record<string, ToolsLoad> = {};
  for (const [serverId, load] of Object.entries(loads)) {
    const now = status.get(serverId);
    if (now === undefined) {
      changed = true;
      continue;
    }
    if (now === 'ready' || (load.kind === 'loaded' && load.stale)) kept[serverId] = load;
    else if (load.kind === 'loaded') kept[serverId] = { ...load, stale: true };
    changed ||= kept[serverId] !== load;
  }
  return changed ? kept : loads;
}

/**
 * A request to show one server's tools (from the Servers screen), or one tool's form filled with
 * a call's arguments (`call`: Call again… in History or on the Tasks screen); `nonce` makes a
 * repeat a new one.
 */
export interface ToolsRequest {
  serverId: string;
  nonce: number;
  call?: ToolCallAgain;
}

/**
 * The Tools screen: a ready server's tools with a call form each, the server's own task list,
 * and the tool calls Taskdesk made as tasks.
 */
export function ToolsScreen({
  active,
  request,
  headingRef,
  address
}: {
  /** Whether the screen is shown: a call to make again fills its form (and takes the focus) only then. */
  active: boolean;
  request: ToolsRequest | undefined;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** What follows `#tools/` in the address: `running` goes to the Running calls list (the Tasks screen's link). */
  address?: string | undefined;
}) {
  const { client } = useDesk();
  // Its heading takes the focus, in sight: the list is under every tool's card. The calls ended
  // meanwhile (no list), the screen's own heading does.
  useEffect(() => {
    if (address !== 'running') return;
    focusInSight(document.getElementById('heading-running-calls') ? 'heading-running-calls' : 'heading-tools');
  }, [address]);
  const servers = useDeskState((state) => state.servers);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  /**
   * Each server's list, by server id. A server looked at before keeps its list, mounted but
   * hidden, while another is shown or while it is not connected: its open forms, what was typed
   * in them and what they showed are there again when the person comes back to it, or it back.
   */
  const [loads, setLoads] = useState<Record<string, ToolsLoad>>({});
  useEffect(() => setLoads((old) => keptLoads(old, servers)), [servers]);
  const [reloads, setReloads] = useState({ count: 0, refresh: false });
  const [panelOpen, setPanelOpen] = useState(false);
  /**
   * The request whose call again is done with: its form was filled (once: a list shown again, after
   * another server or a reconnect, does not fill it again nor take the focus), or the person left
   * the screen after it (its line about a tool that went goes).
   */
  const [spent, setSpent] = useState<number | undefined>(undefined);
  const wasActive = useRef(active);
  const requestNonce = request?.nonce;
  useEffect(() => {
    if (wasActive.current && !active) setSpent(requestNonce);
    wasActive.current = active;
  }, [active, requestNonce]);

  useEffect(() => {
    if (request) {
      setChosen(request.serverId);
      setReloads((old) => ({ count: old.count + 1, refresh: false }));
    }
  }, [request]);

  // The chosen server, or (when it is gone or none was chosen) the first ready one.
  const server = servers.find((s) => s.id === chosen) ?? servers.find((s) => s.state.status === 'ready');
  const ready = server?.state.status === 'ready';
  const serverId = server?.id;
  // The server said its tools changed: listed again (the host forgot its cached list).
  const toolsRevision = useDeskState((state) => (serverId === undefined ? 0 : (state.toolsRevisions[serverId] ?? 0)));

  useEffect(() => {
    if (!serverId || !ready) return;
    let current = true;
    const settle = (load: ToolsLoad) => current && setLoads((old) => ({ ...old, [serverId]: load }));
    // A list read again (Refresh tools, its tools changed, the server chosen again or back after
    // a reconnect) stays meanwhile, shown unless stale: a form open in it, and what was typed
    // there, stays too.
    setLoads((old) => (old[serverId]?.kind === 'loaded' ? old : { ...old, [serverId]: { kind: 'loading' } }));
    client.call('tools.list', { serverId, ...(reloads.refresh && { refresh: true }) }).then(
      (tools) => settle({ kind: 'loaded', tools }),
      (error: unknown) => settle({ kind: 'failed', message: `Could not list tools: ${toHostCallError(error).message}` })
    );
    return () => {
      current = false;
    };
  }, [client, serverId, ready, reloads, toolsRevision]);

  const load = serverId === undefined ? undefined : loads[serverId];
  // A stale list is not the server's word yet: its tools are not counted (still loading).
  const loaded = load?.kind === 'loaded' && !load.stale ? load : undefined;
  // A call to make again, on the server shown: its tool's form opens filled; a tool the server no
  // longer offers is said instead of nothing happening.
  const again =
    active && request?.call && request.serverId === serverId && request.nonce !== spent ? request : undefined;
  const againGone =
    again && loaded && !loaded.tools.some((tool) => tool.name === again.call!.tool)
      ? `${server!.name} no longer offers ${again.call!.tool}: that call cannot be made again.`
      : undefined;

  // Without a server to show, the status says where to get one (below, with a link).
  const status = !server
    ? ''
    : !ready
      ? `${server.name} is not connected; its tools are listed once it is ready.`
      : load?.kind === 'failed'
        ? load.message
        : loaded
          ? loaded.tools.length === 0
            ? 'This server offers no tools.'
            : `${loaded.tools.length} tool${loaded.tools.length === 1 ? '' : 's'}.`
          : 'Loading tools…';
  const modern = server?.state.era === 'modern';
  const lastCalls = useLastCalls(ready ? serverId : undefined, active);

  return (
    <>
      <h2 id="heading-tools" tabIndex={-1} ref={headingRef}>
        Tools
      </h2>
      <p className="lede">
        Call a connected server’s tools. Tools that allow it run as tasks, followed below and on the{' '}
        <a href="#tasks">Tasks</a> screen.
      </p>
      <div className="tool-picker">
        <FieldFrame name="tools-server" label="Server" className="field-narrow">
          {(wiring) => (
            <select
              {...wiring}
              name="server"
              value={serverId ?? ''}
              onChange={(event) => setChosen(event.target.value)}
            >
              {servers.length === 0 ? <option value="">(no servers)</option> : null}
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.state.status === 'ready' ? s.name : `${s.name} (not connected)`}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <button
          type="button"
          disabled={!ready}
          onClick={() => setReloads((old) => ({ count: old.count + 1, refresh: true }))}
        >
          Refresh tools
        </button>
      </div>
      <p className="muted" role="status">
        {server ? (
          againGone ? (
            `${status} ${againGone}`
          ) : (
            status
          )
        ) : (
          <>
            {servers.length === 0 ? 'No server is configured: add one' : 'No server is connected: connect one'} on the{' '}
            <a href="#servers">Servers</a> screen.
          </>
        )}
      </p>
      {servers.map((s) => {
        const kept = loads[s.id];
        if (kept?.kind !== 'loaded') return null;
        const shown = s.id === serverId && s.state.status === 'ready' && !kept.stale;
        return (
          <ul key={s.id} className="cards tool-list" aria-label="Tools" hidden={!shown}>
            {kept.tools.map((tool) => (
              <ToolItem
                key={tool.name}
                serverId={s.id}
                tool={tool}
                modern={s.state.era === 'modern'}
                again={
                  shown && again?.call?.tool === tool.name
                    ? { ...(again.call.arguments && { arguments: again.call.arguments }), nonce: again.nonce }
                    : undefined
                }
                onFilled={setSpent}
                lastCall={shown ? lastCalls.get(toolCallTitle(tool.name)) : undefined}
              />
            ))}
          </ul>
        );
      })}
      {/* A 2026-07-28 server has no tasks/list (the tasks extension dropped it): no panel for it. */}
      {server && ready && !modern ? (
        <ServerTasksPanel key={server.id} server={server} open={panelOpen} onToggle={setPanelOpen} />
      ) : null}
      <RunningCalls />
      <OutboundList />
    </>
  );
}
