import type { InboxItem, OutboundTaskView } from '../../app/contract/host-api.js';
import { isCancelling } from '../components/waiting-questions.js';
import type { HeldAnswer } from '../store/held-answers.js';
import { isTerminal } from '../store/task-status.js';

/** Where a running tool task stands with the person, as its row on the Tasks screen says it. */
export interface ToolTaskWait {
  /** Its server's question (or model request) waits on the person: its badge says "Waiting for you". */
  waits: boolean;
  /** That question, to link to in the Inbox. */
  question?: InboxItem | undefined;
  /** The person's Decline or Dismiss of its server's question, held for its undo window (or being sent). */
  held?: HeldAnswer | undefined;
}

/** A task that waits on nobody: ended, cancelled by the person, or gone. The same object each time. */
export const NOT_WAITING: ToolTaskWait = Object.freeze({ waits: false });

/**
 * Where a tool task stands with the person (see {@link ToolTaskWait}), decided as its Tasks row
 * decides it: a question whose Decline waits out its undo window in the Inbox waits on them no
 * more (the Inbox's count no longer has it), and is said as declined, which can still be undone.
 * Nothing once the task ended or the person asked to cancel it: no longer theirs to answer.
 *
 * One pass over the Inbox, as `taskQuestions` and `waitingTasks` tie an item to the task.
 */
export function toolTaskWait(
  task: OutboundTaskView | undefined,
  inbox: readonly InboxItem[],
  heldAnswers: Readonly<Record<string, HeldAnswer>>
): ToolTaskWait {
  if (!mayWait(task)) return NOT_WAITING;
  let waits = false;
  let question: InboxItem | undefined;
  let held: HeldAnswer | undefined;
  for (const item of inbox) {
    if (item.serverId !== task.serverId || item.relatedTaskId !== task.taskId) continue;
    const answer = heldAnswers[item.id];
    if (answer !== undefined) {
      held ??= answer;
      continue;
    }
    question ??= item;
    // A question of a request that is no task (`relatedCall`) is linked, but the badge waits on none.
    if (!item.relatedCall) waits = true;
  }
  return { waits, question, held };
}

/** Whether `task` may wait on the person at all: it runs, and the person did not ask to cancel it. */
export function mayWait(task: OutboundTaskView | undefined): task is OutboundTaskView {
  return task !== undefined && !isTerminal(task.state) && !isCancelling(task);
}

/** Whether two waits say the same: the same answer, question and held answer (by identity). */
function sameWait(a: ToolTaskWait, b: ToolTaskWait): boolean {
  return a.waits === b.waits && a.question === b.question && a.held === b.held;
}

/**
 * {@link toolTaskWait} of `task` as a store snapshot: the object it gave last while what it says
 * is the same, so that a change of the Inbox or of the held answers that is not this task's
 * (another server's question, another item's Decline) gives the very same value, and React does
 * not render the card again for it.
 */
export function toolTaskWaitSnapshot(
  task: OutboundTaskView | undefined
): (inbox: readonly InboxItem[], heldAnswers: Readonly<Record<string, HeldAnswer>>) => ToolTaskWait {
  let last = NOT_WAITING;
  // What it was worked out from: the store gives the same Inbox and held answers on every change
  // that is not theirs (a streamed token of a model's reply), which then costs no pass over them.
  let seen: { inbox: readonly InboxItem[]; heldAnswers: Readonly<Record<string, HeldAnswer>> } | undefined;
  return (inbox, heldAnswers) => {
    if (seen?.inbox === inbox && seen.heldAnswers === heldAnswers) return last;
    seen = { inbox, heldAnswers };
    const now = toolTaskWait(task, inbox, heldAnswers);
    if (!sameWait(now, last)) last = now;
    return last;
  };
}
