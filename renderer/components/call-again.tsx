import { useDesk, useDeskState } from '../shell/desk-context.js';

/**
 * A tool call as a request records it (`{ name, arguments }`), when whole: a cut one cannot be
 * sent again. One whose arguments were not kept (`argumentsNotKept`: a call Taskdesk stopped
 * without closing while it ran) has none: its form opens saying so, not filled as if it had none.
 */
function callOf(request: unknown): { name: string; arguments?: Record<string, unknown> } | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return undefined;
  const { name, arguments: args, truncated, argumentsNotKept } = request as Record<string, unknown>;
  if (truncated === true || typeof name !== 'string') return undefined;
  if (args === undefined) return typeof argumentsNotKept === 'string' ? { name } : { name, arguments: {} };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { name, arguments: args as Record<string, unknown> };
}

/**
 * Call again…: to the Tools screen, the tool's form open and filled with the arguments of a call
 * Taskdesk made (a task that failed, a call to run once more), for the person to check or change
 * and send with Call tool. Nothing is sent from here. Absent when the call's server is no longer
 * configured or its request was too large to keep whole.
 */
export function CallAgainButton({ serverId, request }: { serverId: string; request: unknown }) {
  const { openTools } = useDesk();
  const configured = useDeskState((state) => state.servers.some((server) => server.id === serverId));
  const call = callOf(request);
  if (!configured || !call) return null;
  return (
    // The tool's name in the words shown, not in an aria-label only: the button is named by what a
    // person sees, and so by what they say to voice control to press it (WCAG 2.5.3).
    <button
      type="button"
      onClick={() => openTools(serverId, { tool: call.name, ...(call.arguments && { arguments: call.arguments }) })}
    >
      Call {call.name} again…
    </button>
  );
}
