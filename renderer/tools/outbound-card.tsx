import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { ActionError, failureOf, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { DateTime } from '../components/date-time.js';
import { JsonView } from '../components/json-view.js';
import { StatusBadge } from '../components/status-badge.js';
import { toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { askedWords } from '../components/waiting-questions.js';
import { isTerminal } from '../store/task-status.js';
import { cancelledWords } from '../components/cancelled-words.js';
import { TaskProgress } from '../components/progress-line.js';
import { keptHold, type KeptHold } from '../components/kept-words.js';
import { TaskKept } from '../components/task-kept.js';
import { AskedTtl } from '../components/asked-ttl.js';
import { endMessage, failedReason } from '../components/end-message.js';
import { TaskOutcome } from './task-outcome.js';
import { TASK_ARGUMENTS_CHARS, WAITING_FOR_YOU_LABEL } from '../tasks/task-items.js';
import { HeldQuestionLine, toolTaskWait, useToolTaskWait } from './task-wait.js';
import { checkedWords, standingWords } from '../tasks/checked-words.js';
import { CheckedLine } from '../tasks/checked-line.js';
import { foundStill, type CheckFound } from '../tasks/check-found.js';
import { toolCancelledWords } from '../tasks/cancel-words.js';
import { requestedTaskKey, taskDetailHref } from '../components/task-address.js';
import { argumentsPreview } from '../../app/contract/request-preview.js';
import { argumentsDescription, CallArguments } from './call-arguments.js';
import { taskCardLabel } from './call-labels.js';
import { RUN_AS_A_TASK, taskIdTitle } from '../components/related-task-words.js';

/** A message inside an error's data (`data.message`, or a string), when there is one. */
function dataMessage(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    if (typeof record.reason === 'string') return record.reason;
  }
  return undefined;
}

/**
 * One tool call Taskdesk made as a task: state and status message, progress, the immediate
 * response, the result or error, and Check now, Cancel and Forget.
 */
export const OutboundCard = memo(function OutboundCard({ task }: { task: OutboundTaskView }) {
  const { client, store, announce, confirm } = useDesk();
  const running = !isTerminal(task.state);
  /** What Check now, Cancel or Forget could not do: shown until dismissed, the next try, or a new state. */
  const { failure, fail, show, clear } = useFailure();
  /**
   * What Check now last found: when, where the task stood before it (see `standingWords`), and
   * the state it found. The card says so while the task stays in that state, as the check may
   * have changed nothing to see; once the task moves on, it is gone until the next check.
   */
  const [checked, setChecked] = useState<CheckFound | undefined>(undefined);
  /**
   * The one of Check now and Cancel that waits on the host. Only that button waits: a check on its
   * way is no reason not to cancel, nor a cancel on its way to look again.
   */
  const [busy, setBusy] = useState<'outbound.refresh' | 'outbound.cancel' | undefined>(undefined);
  const card = useRef<HTMLLIElement>(null);
  // Its buttons' names: by its tool and when it started, not by its server's id for the task.
  const label = taskCardLabel(task);
  // Its badge says "Waiting for you" while its server's question waits on the person, as its row
  // on Tasks says it (decided alike), rather than the protocol's "Input required"; not while the
  // person's Decline of it waits out its undo window in the Inbox, which the card says instead.
  // A question (or model request) its server asks while the task waits on it: answered in the
  // Inbox, linked from here, named as the Inbox names it (none once the person asked to cancel:
  // no longer theirs to answer).
  const { waits, question, held } = useToolTaskWait(task);

  useEffect(() => clear(), [task.state, clear]);
  // Once the task moves on from the state the check found, what it found goes for good: back in
  // that state later, the card says nothing of a check made before the change (see `foundStill`).
  useEffect(() => setChecked((found) => foundStill(found, task.state)), [task.state]);
  const lastCheck = foundStill(checked, task.state);

  // Check now and Cancel go when the task ends: the focus moves to the card's heading, beside its
  // new status, rather than to the page, and not to Forget (the first button left), where one
  // Enter too many would forget the call.
  const heading = useRef<HTMLHeadingElement>(null);
  const hadFocus = useRef(false);
  hadFocus.current = !!card.current?.contains(document.activeElement);
  useLayoutEffect(() => {
    if (!running && hadFocus.current && !card.current?.contains(document.activeElement)) heading.current?.focus();
  }, [running]);

  const act = async (method: 'outbound.refresh' | 'outbound.cancel') => {
    if (busy === method) return;
    setBusy(method);
    clear();
    // Where it stood as the person pressed Check now: the check's words say whether it changed.
    const before = standingWords(task.state, waits);
    try {
      const view = await client.call(method, { outboundId: task.outboundId });
      store.apply('outbound.changed', { type: 'changed', task: view });
      if (method === 'outbound.refresh') {
        setChecked({ at: new Date().toISOString(), before, state: view.state });
        const after = standingWords(
          view.state,
          toolTaskWait(view, store.getState().inbox, store.held.getSnapshot()).waits
        );
        announce(checkedWords({ before, after, ago: 'just now', what: `the ${task.toolName} task` }));
      } else {
        announce(toolCancelledWords(task.toolName, task.serverName, view.state));
      }
    } catch (thrown) {
      const refused = toHostCallError(thrown);
      if (method === 'outbound.refresh') {
        fail(`Could not check ${task.toolName} with ${task.serverName}.`, refused, 'Press Check now to ask again.');
      } else {
        const detail = dataMessage(refused.data);
        show({
          ...failureOf(`${task.toolName} was not cancelled.`, refused),
          why: `${refused.message}${detail && detail !== refused.message ? ` (${detail})` : ''}`
        });
      }
    } finally {
      setBusy((now) => (now === method ? undefined : now));
    }
  };

  const forget = async () => {
    if (running) {
      const agreed = await confirm({
        title: `Forget ${task.toolName}?`,
        body: (
          <p>
            The task is still running. Taskdesk stops following it and forgets it; the server is not asked to cancel it.
          </p>
        ),
        confirmLabel: 'Forget',
        // Not "Cancel": beside the task's own Cancel, it read as cancelling the task.
        cancelLabel: 'Keep following it',
        danger: true
      });
      if (!agreed) return;
    }
    clear();
    try {
      await client.call('outbound.forget', { outboundId: task.outboundId });
      store.apply('outbound.changed', { type: 'removed', outboundId: task.outboundId, serverId: task.serverId });
      announce(`Forgot the ${task.toolName} task.`);
    } catch (thrown) {
      fail(`Could not forget the ${task.toolName} task.`, thrown);
    }
  };

  const latest = task.progress.latest;
  // A cancelled task has no result: its card says in words that it was cancelled and who did it
  // (the core records that); `TaskOutcome` shows no stored error for it.
  const cancelled = task.state === 'cancelled';
  const failed = failedReason(task);
  // Which status message a finished task shows, as its row and detail do: see `endMessage`.
  const statusMessage = failed === undefined ? endMessage(task) : undefined;
  const headingId = `outbound-${task.outboundId}-title`;
  // Its arguments in a line (see `CallArguments`), as much as its Tasks row takes; the whole
  // arguments are folded away below.
  const preview = argumentsPreview(task.arguments, TASK_ARGUMENTS_CHARS);
  const argumentsId = `outbound-${encodeURIComponent(task.outboundId)}-arguments`;
  const described = argumentsDescription(preview, argumentsId);
  // Its server, for whether it was started again since the task (the keep-time clause).
  const server = useDeskState((state) => state.servers.find((candidate) => candidate.id === task.serverId));

  return (
    <li
      ref={card}
      className="card outbound-task"
      // Focusable from script only: it takes the focus when the card before it is forgotten.
      tabIndex={-1}
      data-outbound-id={task.outboundId}
      data-state={task.state}
      aria-labelledby={headingId}
    >
      <div className="card-header">
        {/* Focusable from script only: it takes the focus when Check now and Cancel go. */}
        <h3 id={headingId} tabIndex={-1} ref={heading}>
          <code>{task.toolName}</code>
          <span className="muted"> on {task.serverName}</span>
        </h3>
        <StatusBadge status={task.state} label={waits ? WAITING_FOR_YOU_LABEL : undefined} />
        <p className="meta">
          Started <DateTime iso={task.createdAt} />
          {' · '}
          {/* In words: its server's id for the task names nothing a person knows (in the tooltip, for who needs it). */}
          <span className="task-words" title={taskIdTitle(task.taskId)}>
            {RUN_AS_A_TASK}
          </span>
          {task.expiresAt ? (
            <KeptUntil task={task} expiresAt={task.expiresAt} hold={keptHold(task.state, task, server)} />
          ) : null}
        </p>
      </div>
      <CallArguments preview={preview} id={argumentsId} />
      {cancelled ? <p className="outcome-cancelled">{cancelledWords(task.cancelledBy)}</p> : null}
      {statusMessage ? <p className="status-message">{statusMessage}</p> : null}
      {held ? <HeldQuestionLine held={held} className="status-message" /> : null}
      {question ? (
        <p className="status-message">
          {/* The link not named like the Inbox's own in the navigation. */}
          <a
            href={`#inbox/${encodeURIComponent(question.id)}`}
          >{`Answer ${task.serverName}’s ${askedWords(question)}`}</a>
          {' (it waits in the Inbox)'}
        </p>
      ) : null}
      {task.reason ? <p className="reason">{task.reason}</p> : null}
      {latest ? <TaskProgress state={task.state} progress={latest} label={`Progress of ${task.toolName}`} /> : null}
      {task.immediateResponse ? (
        <div className="immediate">
          <p className="muted small-text">Immediate response:</p>
          <blockquote>{task.immediateResponse}</blockquote>
        </div>
      ) : null}
      {Object.keys(task.arguments).length > 0 ? (
        <JsonView value={task.arguments} summary="Arguments" className="arguments" />
      ) : null}
      <TaskOutcome task={task} fold />
      {task.lastError && running ? (
        <p className="muted small-text">{`Last ${task.lastError.method} failed: ${task.lastError.message}`}</p>
      ) : null}
      {lastCheck && running ? <CheckedLine found={lastCheck} after={standingWords(task.state, waits)} /> : null}
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        {running ? (
          <button
            type="button"
            aria-label={`Check ${label} now`}
            {...described}
            {...busyProps(busy === 'outbound.refresh')}
            onClick={() => void act('outbound.refresh')}
          >
            Check now
          </button>
        ) : null}
        {running ? (
          <button
            type="button"
            aria-label={`Cancel ${label}`}
            {...described}
            {...busyProps(busy === 'outbound.cancel')}
            onClick={() => void act('outbound.cancel')}
          >
            Cancel
          </button>
        ) : null}
        <a className="details-link" href={taskDetailHref(requestedTaskKey(task.outboundId))} {...described}>
          Details<span className="sr-only"> of {label}</span>
        </a>
        <button
          type="button"
          className="danger-link"
          aria-label={`Forget ${label}`}
          {...described}
          onClick={() => void forget()}
        >
          Forget
        </button>
      </div>
    </li>
  );
});

/**
 * How long the server keeps the task and its result (its TTL), counting down, and until when;
 * once that time has passed, that it has (a finished card stays on the list after it). In the
 * words every screen uses for a requested task's lifetime (`TaskKept`). Counted in minutes: a
 * card per task ticking every second would cost a long list for a precision nobody reads. A task
 * lost or expired (`gone`) is no longer kept: no countdown then; one that ended on a server
 * started again since says what Taskdesk kept (`anew`, see `keptHold`). When the server keeps it for less
 * than Taskdesk asked, the same clause says what was asked (`AskedTtl`): a line of its own would
 * say the task's lifetime twice.
 */
function KeptUntil({ task, expiresAt, hold }: { task: OutboundTaskView; expiresAt: string; hold: KeptHold }) {
  return (
    <>
      {' · '}
      <TaskKept direction="requested" expiresAt={expiresAt} unitMs={60_000} midLine {...hold} />
      <AskedTtl task={task} gone={hold.gone || hold.anew !== undefined} />
    </>
  );
}
