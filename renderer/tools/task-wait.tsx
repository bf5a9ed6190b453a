import { useSyncExternalStore } from 'react';
import type { InboxItem, OutboundTaskView } from '../../app/contract/host-api.js';
import { isCancelling, taskQuestions } from '../components/waiting-questions.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import type { HeldAnswer } from '../store/held-answers.js';
import { isTerminal } from '../store/task-status.js';
import { heldDone, toolTaskWaitsOnYou } from '../tasks/task-items.js';

/** Where a running tool task stands with the person, as its row on the Tasks screen says it. */
export interface ToolTaskWait {
  /** Its server's question (or model request) waits on the person: its badge says "Waiting for you". */
  waits: boolean;
  /** That question, to link to in the Inbox. */
  question?: InboxItem | undefined;
  /** The person's Decline or Dismiss of its server's question, held for its undo window (or being sent). */
  held?: HeldAnswer | undefined;
}

/**
 * Where a tool task stands with the person (see {@link ToolTaskWait}), decided as its Tasks row
 * decides it: a question whose Decline waits out its undo window in the Inbox waits on them no
 * more (the Inbox's count no longer has it), and is said as declined, which can still be undone.
 * Nothing once the task ended or the person asked to cancel it: no longer theirs to answer.
 */
export function toolTaskWait(
  task: OutboundTaskView | undefined,
  inbox: readonly InboxItem[],
  heldAnswers: Readonly<Record<string, HeldAnswer>>
): ToolTaskWait {
  if (task === undefined || isTerminal(task.state) || isCancelling(task)) return { waits: false };
  const questions = taskQuestions(task, inbox);
  const open = inbox.filter((item) => !(item.id in heldAnswers));
  const held = questions.find((item) => item.id in heldAnswers);
  return {
    waits: toolTaskWaitsOnYou(task, open),
    question: questions.find((item) => !(item.id in heldAnswers)),
    held: held && heldAnswers[held.id]
  };
}

/** {@link toolTaskWait} of `task`, kept in step with the Inbox and the answers held there. */
export function useToolTaskWait(task: OutboundTaskView | undefined): ToolTaskWait {
  const { store } = useDesk();
  const heldAnswers = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const inbox = useDeskState((state) => state.inbox);
  return toolTaskWait(task, inbox, heldAnswers);
}

/**
 * What a tool task's card and the line under its call form say while the person's Decline of its
 * server's question waits out its undo window, as its Tasks detail says it ("Declined its
 * server’s question: you can still undo it in the Inbox."), the link going to the Undo.
 */
export function HeldQuestionLine({ held, className }: { held: HeldAnswer; className: string }) {
  const done = heldDone(held, 'requested');
  return (
    <p className={className}>
      {held.phase === 'held' ? (
        <>
          {`${done}: you can still `}
          {/* The Inbox's address of the item focuses its line's Undo while there is one. */}
          <a href={`#inbox/${encodeURIComponent(held.id)}`}>undo it in the Inbox</a>.
        </>
      ) : (
        `${done}: on its way to the server.`
      )}
    </p>
  );
}
