import { shortId } from '../components/format.js';
import { StatusBadge } from '../components/status-badge.js';
import { useDeskState } from '../shell/desk-context.js';

/**
 * Puts the focus on a tool call's card in the Tool calls list and brings its top into sight under
 * the sticky bar (focus alone scrolls a card taller than the window only part way: its heading
 * stayed under the bar).
 */
export function showToolCall(outboundId: string): boolean {
  const card = document.querySelector<HTMLElement>(`li.outbound-task[data-outbound-id="${CSS.escape(outboundId)}"]`);
  card?.focus({ preventScroll: true });
  card?.scrollIntoView({ block: 'start' });
  return card !== null;
}

/**
 * What a call form says once its tool started as a task, under the form where the person pressed
 * Call tool: the task's status as it goes on, and a way to its card in the Tool calls list below
 * every tool card (a long scroll away on a server with many tools) and to its detail on Tasks.
 */
export function StartedTask({ outboundId, taskId }: { outboundId: string; taskId: string }) {
  const state = useDeskState((desk) => desk.outbound[outboundId]?.state);
  if (state === undefined) return <p>Started as task {shortId(taskId)}; Taskdesk has since forgotten it.</p>;
  return (
    <p className="started-task">
      Started as task {shortId(taskId)}: <StatusBadge status={state} />{' '}
      <button type="button" className="link-button" onClick={() => showToolCall(outboundId)}>
        Show it under Tool calls
      </button>
      , or see <a href={`#tasks/${encodeURIComponent(`requested:${outboundId}`)}`}>its detail on Tasks</a>.
    </p>
  );
}
