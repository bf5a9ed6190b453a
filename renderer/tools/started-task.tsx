import { useEffect, useRef } from 'react';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { cancelledWords } from '../components/cancelled-words.js';
import { endMessage, failedReason } from '../components/end-message.js';
import { StatusBadge } from '../components/status-badge.js';
import { statusLabel } from '../components/status-words.js';
import { requestedTaskKey, taskDetailHref } from '../components/task-address.js';
import { taskIdTitle } from '../components/related-task-words.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { isTerminal } from '../store/task-status.js';
import { askedWords } from '../components/waiting-questions.js';
import { TaskOutcome } from './task-outcome.js';
import { WAITING_FOR_YOU_LABEL } from '../tasks/task-items.js';
import { HeldQuestionLine, useToolTaskWait } from './task-wait.js';

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

/** What a call form says first once its tool started as a task (its server's id for the task only in a tooltip). */
const STARTED_AS_A_TASK = 'Started as a task';

/**
 * What a call form says once its tool started as a task, under the form where the person pressed
 * Call tool: the task's status as it goes on, and once it ends, how (its result or why it failed),
 * as a plain call's result shows there. Its card in the Tool calls list (below every tool card, a
 * long scroll away on a server with many tools) and its detail on Tasks are a link away.
 */
export function StartedTask({ outboundId, taskId }: { outboundId: string; taskId: string }) {
  const task = useDeskState((desk) => desk.outbound[outboundId]);
  // Its server's question or model request while the task waits on it (input_required): said as
  // a plain call's wait is ("… has a question for you in the Inbox", "… a model request …"), with
  // the way to it. None once the person asked to cancel the task: no longer theirs to answer.
  // Its badge says "Waiting for you" while that waits on the person, as its card and its row on
  // Tasks do; while the person's Decline of it waits out its undo window, the line says that.
  const { waits, question, held } = useToolTaskWait(task);
  useAnnounceEnd(task);
  // In words, its server's id for the task in the tooltip (for who needs it), as its card says it.
  const started = (
    <span className="task-words" title={taskIdTitle(taskId)}>
      {STARTED_AS_A_TASK}
    </span>
  );
  if (task === undefined) return <p>{started}; Taskdesk has since forgotten it.</p>;
  const ended = isTerminal(task.state);
  // A message that came with the end (a server's word on why it cancelled), as the card shows it;
  // a failure's reason is said by `TaskOutcome`, with the error that failed it.
  const statusMessage = ended && failedReason(task) === undefined ? endMessage(task) : undefined;
  return (
    <>
      <p className="started-task">
        {started}: <StatusBadge status={task.state} label={waits ? WAITING_FOR_YOU_LABEL : undefined} />{' '}
        <button type="button" className="link-button" onClick={() => showToolCall(outboundId)}>
          Show it under Tool calls
        </button>
        , or see <a href={taskDetailHref(requestedTaskKey(outboundId))}>its detail on Tasks</a>.
      </p>
      {held ? <HeldQuestionLine held={held} className="started-task-waiting" /> : null}
      {question ? (
        <p className="started-task-waiting">
          {`${task.serverName} has a ${askedWords(question)} for you `}
          <a href={`#inbox/${encodeURIComponent(question.id)}`}>in the Inbox</a>.
        </p>
      ) : null}
      {ended ? (
        <div className="started-task-end">
          {task.state === 'cancelled' ? <p className="outcome-cancelled">{cancelledWords(task.cancelledBy)}</p> : null}
          {statusMessage ? <p className="status-message">{statusMessage}</p> : null}
          {task.reason ? <p className="reason">{task.reason}</p> : null}
          <TaskOutcome task={task} />
        </div>
      ) : null}
    </>
  );
}

/**
 * Says once, politely, that the task ended, for a person who pressed Call tool and waits by the
 * form. Not when the end was their own doing, nor when the focus is on the task's card or detail:
 * the Cancel or Check now they pressed there says it already.
 */
function useAnnounceEnd(task: OutboundTaskView | undefined): void {
  const { announce } = useDesk();
  const said = useRef(false);
  useEffect(() => {
    if (task === undefined || said.current || !isTerminal(task.state)) return;
    said.current = true;
    if (task.state === 'cancelled' && task.cancelledBy === 'you') return;
    const at = document.activeElement;
    const key = CSS.escape(task.outboundId);
    const requested = CSS.escape(`requested:${task.outboundId}`);
    if (at?.closest(`[data-outbound-id="${key}"], [data-task-key="${requested}"]`)) return;
    // Its server named, as a plain call's end is (see `callWords`): two servers may have the tool.
    announce(`The ${task.toolName} task on ${task.serverName} ended: ${statusLabel(task.state).toLowerCase()}.`);
  }, [task, announce]);
}
