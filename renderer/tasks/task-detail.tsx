import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HistoryEntry, InboundTask } from '../../app/contract/host-api.js';
import { cancelledByWords } from '../components/cancelled-words.js';
import { CopyButton } from '../components/copy-button.js';
import { keptHold, minutesThenSeconds } from '../components/kept-words.js';
import { TaskKept } from '../components/task-kept.js';
import { fetchState, notFetchedWords } from './fetched-words.js';
import { AskedTtl } from '../components/asked-ttl.js';
import { Timeline } from '../components/timeline.js';
import { DateTime } from '../components/date-time.js';
import { JsonView } from '../components/json-view.js';
import { RawToggle } from '../components/raw-toggle.js';
import { ScrollingPre } from '../components/scrolling-pre.js';
import { TaskProgress } from '../components/progress-line.js';
import { RUN_AS_A_TASK, SENT_AS_A_TASK, taskIdTitle } from '../components/related-task-words.js';
import { StatusBadge } from '../components/status-badge.js';
import { questionEndLabel, statusLabel } from '../components/status-words.js';
import { TaskTitle } from '../components/task-title.js';
import { ResultView, toolResultServer } from '../history/result-view.js';
import { RejectedAnswer } from '../history/rejected-answer.js';
import { answeredSteps, modelRequestEndLabel } from '../history/cancelled-label.js';
import { ActionError, useFailure, type Failure } from '../components/action-error.js';
import { INVALID_PARAMS, toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';
import { rejectionOf } from '../../app/contract/model-rejection.js';
import { lastRanRequest } from '../../app/contract/request-changes.js';
import { ErrorView } from '../tools/tool-result-view.js';
import { TaskErrorView } from '../tools/task-outcome.js';
import { escapeCloses } from '../components/escape-closes.js';
import { focusInSight } from '../components/focus-screen.js';
import { KIND_WORDS } from '../components/kind-words.js';
import {
  heldDone,
  heldLabel,
  receivedItem,
  requestedItem,
  WAITING_FOR_YOU_LABEL,
  type TaskItem
} from './task-items.js';
import { checkedWords, standingWords } from './checked-words.js';
import { CheckedLine } from './checked-line.js';
import { foundStill, type CheckFound } from './check-found.js';
import { askedWords, isCancelling } from '../components/waiting-questions.js';
import { serverMayGiveUp } from '../../app/contract/server-gives-up.js';
import { CHANGED_BEFORE_IT_RAN, SentAndRanRequest } from './sent-and-ran-request.js';
import { endMessage, failedReason, isNoResultStored } from '../components/end-message.js';
import { CallOriginLine } from '../components/call-origin.js';
import { CallAgainButton } from '../components/call-again.js';
import type { CallOrigin } from '../../app/contract/plain-calls.js';
import { LiveWriting } from './live-writing.js';
import { notFetchedNote } from './unfetched-answer.js';
import { toolTaskWait } from '../tools/task-wait.js';
import { cancelButtonWords } from './cancel-words.js';

/** What the detail shows, from the live task or (once it left the task store) its History entry. */
interface Shown {
  kind: TaskItem['kind'];
  direction: TaskItem['direction'];
  title: string;
  serverId: string;
  serverName: string;
  /** Absent for a History entry of a tool call that ran without a task. */
  taskId: string | undefined;
  status: string;
  cancelledBy: 'you' | 'server' | 'taskdesk' | undefined;
  statusMessage: string | undefined;
  createdAt: string;
  updatedAt: string;
  request: Record<string, unknown>;
  /** What ran, when the person changed a model request on the approval card (`request` is what the server sent). */
  ranRequest: Record<string, unknown> | undefined;
  /** `accept` for a model request the person answered (`InboundTask.answered`, History's `answer`): its badge says "Answered". */
  answer: 'accept' | 'decline' | 'cancel' | undefined;
  result: Record<string, unknown> | undefined;
  /** A model's answer the person rejected in review (History's `rejectedAnswer`): what its server never got. */
  rejectedAnswer: Record<string, unknown> | undefined;
  error: { code: number; message: string; data?: unknown } | undefined;
  /** The assistant's conversation a tool call was made for; absent for the person's own. */
  origin: CallOrigin | undefined;
  raw: unknown;
}

function fromItem(item: TaskItem, full: InboundTask | undefined): Shown {
  const inbound = full ?? item.inbound;
  // A question Taskdesk withdrew shows why, not the dismissal its server was told (as History does).
  const outcome = inbound?.withdrawn !== undefined ? undefined : inbound ? inbound.outcome : item.outbound!.outcome;
  const task = inbound?.task ?? item.outbound!.task;
  // The model's answer the person rejected, if so (what they rejected, in words: `rejection`, the core's).
  const rejection = inbound ? rejectionOf(inbound.kind, inbound.notes, outcome) : undefined;
  return {
    kind: item.kind,
    direction: item.direction,
    title: item.title,
    serverId: item.serverId,
    serverName: item.serverName,
    taskId: item.taskId,
    status: item.status,
    cancelledBy: item.cancelledBy,
    // A finished task shows its outcome, not its last interim status; an expired or lost one says
    // why, and a requested one the message that came with its end, as its card does (`endMessage`).
    statusMessage: item.running
      ? task.statusMessage
      : (inbound?.withdrawn ??
        inbound?.rejection ??
        item.outbound?.reason ??
        (item.outbound && endMessage(item.outbound))),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    request: inbound ? inbound.request : { name: item.outbound!.toolName, arguments: item.outbound!.arguments },
    // From the whole record: a list's copy may have shortened what ran, and would read as more changes.
    ranRequest: full ? lastRanRequest(full.notes) : inbound?.truncated ? undefined : lastRanRequest(inbound?.notes),
    answer: inbound?.answered === true ? 'accept' : undefined,
    result: outcome?.type === 'result' ? outcome.result : undefined,
    // From the whole record: a list's copy may have cut the answer's text short.
    rejectedAnswer: full || !inbound?.truncated ? rejection?.rejectedAnswer : undefined,
    // Beside a failure's reason, the generic "has no result stored" says nothing (`isNoResultStored`).
    error:
      outcome?.type === 'error' &&
      !(item.outbound && failedReason(item.outbound) !== undefined && isNoResultStored(outcome.error))
        ? outcome.error
        : undefined,
    origin: item.outbound?.origin,
    raw: inbound ?? item.outbound
  };
}

function fromEntry(entry: HistoryEntry): Shown {
  return {
    kind: entry.kind,
    direction: entry.direction,
    title: entry.title,
    serverId: entry.serverId,
    serverName: entry.serverName,
    taskId: entry.taskId,
    status: entry.status,
    cancelledBy: entry.cancelledBy,
    // Taskdesk's own cancel says why (a withdrawn question: its task ended), and a server's may;
    // the person's is said by "Cancelled by you", and a completed task shows its result.
    statusMessage:
      entry.status === 'completed' ||
      (entry.status === 'cancelled' && entry.cancelledBy !== 'taskdesk' && entry.cancelledBy !== 'server')
        ? undefined
        : entry.statusMessage,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    request: entry.request,
    ranRequest: entry.ranRequest,
    answer: entry.answer,
    result: entry.result,
    rejectedAnswer: entry.rejectedAnswer,
    // As a live task's (`fromItem`): the generic "has no result stored" says nothing beside a reason.
    error: entry.status === 'failed' && entry.statusMessage && isNoResultStored(entry.error) ? undefined : entry.error,
    origin: entry.origin,
    raw: entry
  };
}

/**
 * One task in full: status (and who cancelled it), times and how long the task is kept (for a
 * requested task, also that its server keeps it for less than was asked), progress, the timeline
 * of its status changes (from History), what was asked, the result rendered (Markdown, images,
 * resource links, structured content) and the raw JSON with Copy. `taskKey` is a History id
 * (`received:<taskId>` or `requested:<outboundId>`); a task that left the task store is shown
 * from its History entry.
 */
export function TaskDetail({
  taskKey,
  onClose,
  onCancel,
  cancelFailure,
  onDismiss
}: {
  taskKey: string;
  onClose: () => void;
  onCancel: (item: TaskItem) => void;
  /** Why the task's last Cancel did not work (the screen's, as its row says it too). */
  cancelFailure: Failure | undefined;
  onDismiss: (key: string) => void;
}) {
  const { client, store, announce } = useDesk();
  const checking = useFailure();
  /** What its last Check now found (see `CheckedLine`), for the task it was pressed on, until the task moves on. */
  const [checked, setChecked] = useState<(CheckFound & { taskKey: string }) | undefined>(undefined);
  /** Why its History entry (its timeline, or the task once it left the task store) could not be read. */
  const reading = useFailure();
  /** Bumped by Retry: reads the History entry again. */
  const [attempt, setAttempt] = useState(0);
  const separator = taskKey.indexOf(':');
  const direction = taskKey.slice(0, separator);
  const id = taskKey.slice(separator + 1);
  const inbound = useDeskState((state) => (direction === 'received' ? state.tasks[id] : undefined));
  const outbound = useDeskState((state) => (direction === 'requested' ? state.outbound[id] : undefined));
  const live = useDeskState((state) => (inbound ? state.live[inbound.task.taskId] : undefined));
  // The Inbox card that waits on the person for this task: a received task's own request, or a
  // question its server asked during a task Taskdesk requested (tied to it by the related-task id).
  const question = useDeskState((state) =>
    inbound
      ? state.inbox.find((card) => card.serverId === inbound.serverId && card.taskId === id)
      : outbound
        ? state.inbox.find((card) => card.serverId === outbound.serverId && card.relatedTaskId === outbound.taskId)
        : undefined
  );
  const revision = useDeskState((state) => state.historyRevision);
  // The task's server, for whether it was started again since the task (a requested task's Kept,
  // a received task's Fetched).
  const server = useDeskState((state) => {
    const serverId = (outbound ?? inbound)?.serverId;
    return serverId === undefined ? undefined : state.servers.find((candidate) => candidate.id === serverId);
  });
  const item = inbound ? receivedItem(inbound) : outbound ? requestedItem(outbound) : undefined;
  /** Its question or model request waits in the Inbox while it runs (not a tool task being cancelled). */
  const waitsHere =
    question !== undefined && item !== undefined && item.running && !(outbound && isCancelling(outbound));
  // The person's Decline, Dismiss or Reject of its request (or of its server's question during a
  // tool task), waiting out its undo window in the Inbox (or being sent): said in place of
  // "Waiting for you", as its row says it ("Declining" for a received task; a tool task's status,
  // as it runs on).
  const heldAnswers = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const heldAnswer = waitsHere ? heldAnswers[question.id] : undefined;
  /** What its badge says in place of its status while it waits on the person, or while their answer is held. */
  const waitLabel = !waitsHere
    ? undefined
    : !heldAnswer
      ? WAITING_FOR_YOU_LABEL
      : inbound
        ? heldLabel(heldAnswer)
        : undefined;
  /**
   * The Inbox card's sentence when its server will not fetch the answer (a stdio server started
   * again since it asked): said in place of the message that it waits for the person's answer.
   */
  const notFetched = waitsHere && inbound && !heldAnswer ? notFetchedNote(question, server) : undefined;
  const hold = keptHold(item?.status ?? '', outbound, server);
  // What Check now says of a tool task waiting on the person: the same test before and after it,
  // as its row decides it (not while the person's Decline of its question is held: "working").
  const inboxItems = useDeskState((state) => state.inbox);
  const toolTaskWaits = outbound !== undefined && toolTaskWait(outbound, inboxItems, heldAnswers).waits;
  // Once the task moves on from the state the check found, what it found goes for good: back in
  // that state later, the detail says nothing of a check made before the change (see `foundStill`).
  const toolTaskState = outbound?.state;
  useEffect(() => setChecked((found) => foundStill(found, toolTaskState)), [toolTaskState]);
  const lastCheck = checked?.taskKey === taskKey ? foundStill(checked, toolTaskState) : undefined;
  const [entry, setEntry] = useState<HistoryEntry | null | undefined>(undefined);
  const [full, setFull] = useState<InboundTask | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  /** The result as its raw JSON instead of rendered. */
  const [rawResult, setRawResult] = useState(false);
  const rawJsonId = useId();

  // Its heading in sight at the top of the view, focused, whichever link opened it: a plain focus
  // left the page where the screen the link was on had been scrolled (far down Tools, the heading
  // above the view), since the screens share the page's scrolling.
  useEffect(() => focusInSight('task-detail-title'), [taskKey]);
  // Check now and Cancel task go when the task ends: the focus they held goes to the title, above
  // the new status, rather than to the page, and not to Forget this task, which takes their place
  // (one Enter too many would forget the call).
  const running = item?.running ?? false;
  const runningActions = useRef<HTMLDivElement>(null);
  const actionsHadFocus = useRef(false);
  actionsHadFocus.current = !!runningActions.current?.contains(document.activeElement);
  const detail = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!running && actionsHadFocus.current && !detail.current?.contains(document.activeElement))
      heading.current?.focus();
  }, [running]);
  // The timeline is History's: read again whenever History changes.
  useEffect(() => {
    let current = true;
    client.call('history.get', { id: taskKey }).then(
      (found) => {
        if (!current) return;
        setEntry(found);
        reading.clear();
      },
      (error: unknown) => {
        if (!current) return;
        // Only an unknown id means History has no entry; any other failure is said as one.
        if (toHostCallError(error).code === INVALID_PARAMS) {
          setEntry(null);
          reading.clear();
        } else reading.fail('Could not read this task’s History entry.', error, 'Press Retry to read it again.');
      }
    );
    return () => {
      current = false;
    };
  }, [client, taskKey, revision, attempt, reading.clear, reading.fail]);
  const retryReading = () => {
    reading.clear();
    setAttempt((n) => n + 1);
  };
  // Lists carry a shortened task: the whole record (raw JSON, a large result) is asked for.
  const version = inbound?.task.lastUpdatedAt;
  useEffect(() => {
    setFull(undefined);
    if (direction !== 'received' || version === undefined) return;
    let current = true;
    client.call('tasks.get', { taskId: id }).then(
      (found) => current && setFull(found),
      () => undefined
    );
    return () => {
      current = false;
    };
  }, [client, direction, id, version]);

  const shown = item ? fromItem(item, full) : entry ? fromEntry(entry) : undefined;
  const check = () => {
    if (!outbound) return;
    checking.clear();
    // Where it stood as the person pressed Check now: the check's words say whether it changed.
    const before = standingWords(outbound.state, toolTaskWaits);
    void client.call('outbound.refresh', { outboundId: outbound.outboundId }).then(
      (view) => {
        store.apply('outbound.changed', { type: 'changed', task: view });
        setChecked({ at: new Date().toISOString(), before, state: view.state, taskKey });
        const after = standingWords(
          view.state,
          toolTaskWait(view, store.getState().inbox, store.held.getSnapshot()).waits
        );
        announce(checkedWords({ before, after, ago: 'just now', what: `the ${view.toolName} task` }));
      },
      (error: unknown) =>
        checking.fail(
          `Could not check ${outbound.toolName} with ${outbound.serverName}.`,
          error,
          'Press Check now to ask again.'
        )
    );
  };
  const progress = outbound?.progress;
  const forgetting = useFailure();
  /** The person forgot the task here: the detail, now its History entry's, says so rather than "expired or was forgotten". */
  const [forgot, setForgot] = useState(false);
  /**
   * Forgets an ended tool-call task (as the Tools screen's Forget does): it leaves this list, and
   * the detail goes on showing its History entry, with the focus on its title.
   */
  const forget = () => {
    if (!outbound) return;
    forgetting.clear();
    const { outboundId, serverId, toolName } = outbound;
    void client.call('outbound.forget', { outboundId }).then(
      () => {
        setForgot(true);
        store.apply('outbound.changed', { type: 'removed', outboundId, serverId });
        heading.current?.focus();
        announce(`Forgot the ${toolName} task; History keeps it.`);
      },
      (error: unknown) => forgetting.fail(`Could not forget the ${toolName} task.`, error)
    );
  };

  return (
    <section
      ref={detail}
      className="card task-detail"
      aria-labelledby="task-detail-title"
      data-task-key={taskKey}
      onKeyDown={escapeCloses(onClose)}
    >
      <header className="card-header">
        <h3 id="task-detail-title" tabIndex={-1} ref={heading}>
          {shown ? <TaskTitle kind={shown.kind} title={shown.title} /> : 'Task'}
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {!shown ? (
        reading.failure ? (
          // No Dismiss: nothing of the task could be read, and without the message it would read as loading.
          <ActionError failure={reading.failure} onRetry={retryReading} />
        ) : (
          <p className="muted">
            {entry === undefined ? 'Loading…' : 'Taskdesk no longer holds this task, and History has no entry for it.'}
          </p>
        )
      ) : (
        <>
          <p className="meta">
            {KIND_WORDS[shown.kind]} {shown.direction === 'received' ? 'received from' : 'requested of'}{' '}
            <strong>{shown.serverName}</strong> ·{' '}
            {shown.taskId !== undefined ? (
              // In the words the Inbox and the Tools screen say it by; its server's id for the task
              // in the tooltip (and in the raw JSON below), for who needs it.
              <span className="task-words" title={taskIdTitle(shown.taskId)}>
                {shown.direction === 'received' ? SENT_AS_A_TASK : RUN_AS_A_TASK}
              </span>
            ) : (
              'a call without a task'
            )}
            {shown.ranRequest ? ` · ${CHANGED_BEFORE_IT_RAN}` : null}
            {!item
              ? forgot
                ? ' · kept in History (you forgot the task itself)'
                : ' · kept in History (the task itself has expired or was forgotten)'
              : null}
          </p>
          <CallOriginLine origin={shown.origin} />
          <div className="detail-status">
            <StatusBadge
              status={shown.status}
              rejected={isRejectedSampling(shown)}
              label={questionEndLabel(shown) ?? modelRequestEndLabel(shown) ?? waitLabel}
            />
            {/* The badge says what the person is to do; the protocol's own status is said beside it. */}
            {waitLabel !== undefined ? (
              <span className="muted small-text protocol-status">{`Status: ${statusLabel(shown.status)}`}</span>
            ) : null}
            {/* Next to its "Cancelled" badge: only who did it. */}
            {shown.status === 'cancelled' && shown.cancelledBy ? (
              <span className="cancelled-by">{cancelledByWords(shown.cancelledBy)}</span>
            ) : null}
            {/* Not the message Taskdesk gave its server while the task waited on the person, who answered
                (a tool task's is its server's own words, and stays). */}
            {notFetched !== undefined ? (
              <p className="status-message task-not-fetched">{notFetched}</p>
            ) : shown.statusMessage && !(heldAnswer && inbound) ? (
              <p className="status-message">{shown.statusMessage}</p>
            ) : null}
            {heldAnswer ? (
              // The Inbox's address of the item focuses its line's Undo while there is one.
              <p className="status-message">
                {heldAnswer.phase === 'held' ? (
                  <>
                    {`${heldDone(heldAnswer, shown.direction)}: you can still `}
                    <a href={`#inbox/${encodeURIComponent(heldAnswer.id)}`}>undo it in the Inbox</a>.
                  </>
                ) : (
                  `${heldDone(heldAnswer, shown.direction)}: on its way to the server.`
                )}
              </p>
            ) : question ? (
              <p className="status-message">
                <a href={`#inbox/${encodeURIComponent(question.id)}`}>
                  {inbound
                    ? notFetched !== undefined
                      ? 'See it in the Inbox'
                      : 'Answer it in the Inbox'
                    : `Answer its server’s ${askedWords(question)} in the Inbox`}
                </a>
                {/* A legacy server's question for its task is an ordinary request, which it may give up on. */}
                {serverMayGiveUp(question, outbound) ? ' (servers often stop waiting after about a minute)' : null}
              </p>
            ) : null}
          </div>
          <dl className="detail-times">
            <div>
              <dt>{shown.direction === 'received' ? 'Asked' : 'Started'}</dt>
              <dd>
                <DateTime iso={shown.createdAt} />
              </dd>
            </div>
            <div>
              <dt>Last change</dt>
              <dd>
                <DateTime iso={shown.updatedAt} />
              </dd>
            </div>
            {item ? (
              <div>
                <dt>Kept</dt>
                <dd>
                  {/* In its row's words and counted as its row counts it (the same unit), so the two
                      agree; who keeps it is said after "Kept", and the date after the time. */}
                  <TaskKept
                    direction={item.direction}
                    compact
                    by
                    expiresAt={item.expiresAt}
                    warnAt={item.running ? item.warnAt : undefined}
                    unitMs={minutesThenSeconds}
                    {...hold}
                  />
                  {outbound ? <AskedTtl task={outbound} gone={hold.gone || hold.anew !== undefined} /> : null}
                </dd>
              </div>
            ) : null}
            {inbound && fetchState(inbound) !== undefined ? (
              <div className="detail-fetched">
                <dt>Fetched</dt>
                <dd>
                  {inbound.resultFetchedAt !== undefined ? (
                    <>
                      By {inbound.serverName}, <DateTime iso={inbound.resultFetchedAt} />
                    </>
                  ) : (
                    notFetchedWords(inbound, server)
                  )}
                </dd>
              </div>
            ) : null}
          </dl>
          {outbound && progress?.latest ? (
            <div className="detail-progress">
              {/* A bar while it runs; once it ended, where it got to in words, as its card on Tools says. */}
              <TaskProgress state={outbound.state} progress={progress.latest} label={`Progress of ${shown.title}`} />
              <p className="muted small-text">
                {progress.count} progress {progress.count === 1 ? 'update' : 'updates'}, the latest{' '}
                <DateTime iso={progress.latest.at} />
              </p>
            </div>
          ) : null}
          {item?.running && live ? <LiveWriting model={live.model} text={live.text} /> : null}
          <ActionError failure={checking.failure} onDismiss={checking.clear} />
          <ActionError failure={cancelFailure} onDismiss={() => onDismiss(taskKey)} />
          {outbound && item?.running && lastCheck ? (
            <CheckedLine found={lastCheck} after={standingWords(outbound.state, toolTaskWaits)} />
          ) : null}
          {item?.running ? (
            // Keyed apart from the ended task's actions: React would otherwise keep the focused
            // Cancel task button and turn it into Forget this task, the focus still on it.
            <div className="actions" key="running" ref={runningActions}>
              {outbound ? (
                <button type="button" onClick={check}>
                  Check now
                </button>
              ) : null}
              {/* A received task's, as its row names it: what it ends, and that it asks first. */}
              <button type="button" onClick={() => onCancel(item)}>
                {item.direction === 'received' ? cancelButtonWords(item.kind) : 'Cancel task'}
              </button>
            </div>
          ) : outbound ? (
            // An ended tool call stays until the person forgets it (the screen's lede says so).
            <div className="actions" key="ended">
              <CallAgainButton serverId={outbound.serverId} request={shown.request} />
              <button type="button" className="danger-link" onClick={forget}>
                Forget this task
              </button>
            </div>
          ) : shown.kind === 'tool-call' && shown.direction === 'requested' ? (
            // Kept in History only (forgotten, or a call without a task): it can still be made again.
            <div className="actions">
              <CallAgainButton serverId={shown.serverId} request={shown.request} />
            </div>
          ) : null}
          <ActionError failure={forgetting.failure} onDismiss={forgetting.clear} />
          <h4>Timeline</h4>
          {entry?.timeline.length ? (
            <Timeline steps={answeredSteps(entry)} rejected={isRejectedSampling(entry)} />
          ) : reading.failure ? null : (
            <p className="muted">{entry === undefined ? 'Loading…' : 'No status change recorded yet.'}</p>
          )}
          {/* Dismissable once a timeline was read: before that, the timeline would read as still loading. */}
          <ActionError
            failure={reading.failure}
            onDismiss={entry !== undefined ? reading.clear : undefined}
            onRetry={retryReading}
          />
          <SentAndRanRequest
            kind={shown.kind}
            request={shown.request}
            ranRequest={shown.ranRequest}
            idPrefix="task-detail"
          />
          {shown.rejectedAnswer ? (
            <RejectedAnswer answer={shown.rejectedAnswer} className="task-rejected-answer" />
          ) : null}
          <div className="raw-json-header">
            <h4>Result</h4>
            {shown.result ? <RawToggle raw={rawResult} onToggle={setRawResult} what="the result" /> : null}
          </div>
          {/* A tool task's error is led by what it is, as its card and row say it (`errorLead`): the
              tool failed, or its result could not be fetched. A model request turned down: the
              status line says who rejected what; this, what its server was told, as History says it. */}
          {shown.error && shown.status !== 'cancelled' ? (
            shown.kind === 'tool-call' && shown.taskId !== undefined ? (
              <TaskErrorView state={shown.status} error={shown.error} />
            ) : isRejectedSampling(shown) ? (
              <p className="task-told">Its server was told: “{shown.error.message}”.</p>
            ) : (
              <ErrorView error={shown.error} />
            )
          ) : null}
          {shown.result && rawResult ? (
            <div className="result-json">
              <JsonView value={shown.result} />
            </div>
          ) : shown.result ? (
            <ResultView
              result={shown.result}
              requestedSchema={shown.kind === 'elicitation' ? shown.request.requestedSchema : undefined}
              serverId={toolResultServer(shown)}
            />
          ) : shown.error && shown.status !== 'cancelled' ? null : (
            <p className="muted">
              {/* A cancelled task says who cancelled it under its badge, once. */}
              {item?.running ? 'Not yet.' : 'No result.'}
            </p>
          )}
          <div className="raw-json-header">
            <h4 id={rawJsonId}>Raw JSON</h4>
            <CopyButton text={JSON.stringify(shown.raw, null, 2)} label="Copy the raw JSON" />
          </div>
          <ScrollingPre className="json raw-json" text={JSON.stringify(shown.raw, null, 2)} labelledBy={rawJsonId} />
        </>
      )}
    </section>
  );
}
