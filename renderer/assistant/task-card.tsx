import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { ActionError, useFailure, type FailureState } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { StatusBadge } from '../components/status-badge.js';
import { TaskKept } from '../components/task-kept.js';
import { AskedTtl } from '../components/asked-ttl.js';
import { InboxItemCard } from '../inbox/inbox-item-card.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { isTerminal } from '../store/task-status.js';
import { isCancelling, taskQuestions } from '../components/waiting-questions.js';

/**
 * A tool call running as a task, live: status and status message, a progress bar, the time the
 * server keeps the task (and that it is less than was asked, when it is), the questions the
 * server asks while it runs (`input_required`), answerable here as in the Inbox, and Cancel: once
 * a task's immediate response has let the conversation go on, Stop is no longer offered, and
 * this is where the person ends it. Once the person has stopped the call or cancelled the task,
 * the card says it is being cancelled until the server's answer arrives, with neither Cancel nor
 * the task's questions (no longer the person's to answer).
 */
export function TaskCard({
  outboundId,
  toolName,
  stopped = false
}: {
  outboundId: string;
  toolName: string;
  /**
   * The person stopped the call and its task is being cancelled (the conversation says so before
   * the task's own end arrives); not when its cancel failed (`cancelFailed`): that task runs on.
   */
  stopped?: boolean;
}) {
  const task = useDeskState((state) => state.outbound[outboundId]);
  const group = useRef<HTMLDivElement>(null);
  const inbox = useDeskState((state) => state.inbox);
  const cancelling = task !== undefined && !isTerminal(task.state) && (stopped || isCancelling(task));
  const questions = useMemo(() => (cancelling ? [] : taskQuestions(task, inbox)), [cancelling, inbox, task]);
  /** Whether the focus is in a question's card: answered (Submit, Decline), the card goes with it. */
  const inQuestion = useRef(false);
  /** Whether the focus is in the card: on Cancel task or in a question, it goes with them once the task is being cancelled. */
  const inCard = useRef(false);
  const asked = useRef(questions.length);
  // Kept by the card, not by Cancel: the button goes as the cancel starts, and its failure would go with it.
  const cancelFailure = useFailure();
  useLayoutEffect(() => {
    if (!cancelling || !inCard.current) return;
    const now = document.activeElement;
    if (now === null || now === document.body || !now.isConnected) group.current?.focus();
  }, [cancelling]);
  useLayoutEffect(() => {
    const answered = questions.length < asked.current;
    asked.current = questions.length;
    if (!answered || !inQuestion.current) return;
    inQuestion.current = false;
    const now = document.activeElement;
    if (now !== null && now !== document.body && now.isConnected) return;
    // The next question's first field, else the task card, which says how the task goes on.
    const next = group.current?.querySelector<HTMLElement>(
      '.chat-questions :is(input, select, textarea, button):not([disabled])'
    );
    (next ?? group.current)?.focus();
  }, [questions.length]);
  if (!task) return <p className="muted small-text">Following the task…</p>;
  // Still running, and not on its way out: what it says of itself and what it asks still hold.
  const running = !isTerminal(task.state) && !cancelling;
  const latest = task.progress.latest;
  return (
    <div
      className="chat-task"
      data-task-state={task.state}
      aria-label={`Task of ${toolName}`}
      role="group"
      ref={group}
      tabIndex={-1}
      onFocus={() => (inCard.current = true)}
      // Removed with the focus in it, an element has none to hand it to (relatedTarget null).
      onBlur={(e) => {
        if (e.relatedTarget) inCard.current = false;
      }}
    >
      <p className="chat-task-line">
        <StatusBadge status={task.state} {...(cancelling && { label: 'Cancelling…' })} />
        {task.task.statusMessage && running ? (
          <span className="chat-task-message">{task.task.statusMessage}</span>
        ) : null}
        {running ? <TimeKept task={task} /> : null}
      </p>
      {latest && running ? (
        <div className="progress-line">
          {latest.total !== undefined && latest.total > 0 ? (
            <progress
              value={Math.min(latest.progress, latest.total)}
              max={latest.total}
              aria-label={`Progress of ${toolName}`}
            />
          ) : (
            <progress aria-label={`Progress of ${toolName}`} />
          )}
          <span className="progress-text">
            {latest.message ? `${latest.message} · ` : ''}
            {latest.total !== undefined ? `${latest.progress}/${latest.total}` : `${latest.progress}`}
          </span>
        </div>
      ) : null}
      {task.reason ? <p className="reason">{task.reason}</p> : null}
      {running ? (
        <CancelTask
          task={task}
          toolName={toolName}
          failure={cancelFailure}
          onCancelled={() => group.current?.focus()}
        />
      ) : null}
      <ActionError failure={cancelFailure.failure} onDismiss={cancelFailure.clear} />
      {questions.length > 0 ? (
        <div
          className="chat-questions"
          onFocus={() => (inQuestion.current = true)}
          // Removed with the focus in it, a card has no element to hand it to (relatedTarget null).
          onBlur={(e) => {
            if (e.relatedTarget) inQuestion.current = false;
          }}
        >
          <p className="small-text">The server asks, and its task waits for the answer:</p>
          {questions.map((item) => (
            <InboxItemCard key={item.id} item={item} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** Asks the server to cancel the task (`tasks/cancel`); its end then reaches the model as any end does. */
function CancelTask({
  task,
  toolName,
  failure: { fail, clear },
  onCancelled
}: {
  task: OutboundTaskView;
  toolName: string;
  /** Where a failed cancel is said (the card's: it outlives this button). */
  failure: FailureState;
  /** The button goes once the task has ended: focus moves to the card rather than to nowhere. */
  onCancelled: () => void;
}) {
  const { client, store, announce } = useDesk();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const view = await client.call('outbound.cancel', { outboundId: task.outboundId });
      store.apply('outbound.changed', { type: 'changed', task: view });
      onCancelled();
      announce(view.state === 'cancelled' ? `The ${toolName} task was cancelled.` : `${toolName}: ${view.state}.`);
    } catch (thrown) {
      fail(`The ${toolName} task was not cancelled.`, thrown);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="actions chat-task-actions">
      <button
        type="button"
        // The visible words first, so that "click Cancel task" (voice control) finds it.
        aria-label={`Cancel task of ${toolName}`}
        {...busyProps(busy)}
        onClick={() => void cancel()}
      >
        Cancel task
      </button>
    </div>
  );
}

/**
 * How long the server keeps the task and its result (its ttl from creation), counting down, in
 * the words every screen uses for a requested task's lifetime (`TaskKept`).
 */
function TimeKept({ task }: { task: OutboundTaskView }) {
  return (
    <span className="muted small-text" title={`TTL ${task.task.ttl ?? task.requestedTtl ?? '?'} ms`}>
      <TaskKept direction="requested" expiresAt={task.expiresAt ?? undefined} until={false} />
      <AskedTtl task={task} />
    </span>
  );
}
