import { useMemo, useSyncExternalStore } from 'react';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { useDesk } from '../shell/desk-context.js';
import type { HeldAnswer } from '../store/held-answers.js';
import { heldDone } from '../tasks/task-items.js';
import { mayWait, NOT_WAITING, toolTaskWaitSnapshot, type ToolTaskWait } from './task-wait-state.js';

export { toolTaskWait, type ToolTaskWait } from './task-wait-state.js';

const NO_SUBSCRIPTION = () => () => undefined;

/**
 * {@link toolTaskWait} of `task`, kept in step with the Inbox and the answers held there: renders
 * again only when what it says of this task changes. No subscription at all while the task
 * cannot wait on the person (none, ended, or being cancelled).
 */
export function useToolTaskWait(task: OutboundTaskView | undefined): ToolTaskWait {
  const { store } = useDesk();
  const live = mayWait(task);
  const subscribe = useMemo(
    () =>
      live
        ? (listener: () => void) => {
            const offDesk = store.subscribe(listener);
            const offHeld = store.held.subscribe(listener);
            return () => {
              offDesk();
              offHeld();
            };
          }
        : NO_SUBSCRIPTION,
    [store, live]
  );
  const getSnapshot = useMemo(() => {
    if (!live) return () => NOT_WAITING;
    const snapshot = toolTaskWaitSnapshot(task);
    return () => snapshot(store.getState().inbox, store.held.getSnapshot());
  }, [store, task, live]);
  return useSyncExternalStore(subscribe, getSnapshot);
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
