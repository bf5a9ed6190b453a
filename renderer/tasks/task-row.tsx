import { memo, type Ref } from 'react';
import { argumentsPreview } from '../../app/contract/request-preview.js';
import { ActionError, type Failure } from '../components/action-error.js';
import { cancelledByWords } from '../components/cancelled-words.js';
import { DateTime } from '../components/date-time.js';
import { shortId, truncate } from '../components/format.js';
import { MarkdownLine } from '../components/markdown-line.js';
import { ProgressLine } from '../components/progress-line.js';
import { ShortId } from '../components/short-id.js';
import { StatusBadge } from '../components/status-badge.js';
import { keptHold, minutesThenSeconds } from '../components/kept-words.js';
import { useDeskState } from '../shell/desk-context.js';
import { TaskKept } from '../components/task-kept.js';
import { TaskTitle } from '../components/task-title.js';
import { AnswerList } from '../history/result-view.js';
import type { LiveStream } from '../store/desk-state.js';
import type { HeldAnswer } from '../store/held-answers.js';
import type { OutcomeLine } from './outcome-summary.js';
import { KIND_WORDS } from '../components/kind-words.js';
import { fetchedRowWords } from './fetched-words.js';
import {
  heldLabel,
  heldOutcome,
  itemOutcome,
  receivedRowTitle,
  TASK_ARGUMENTS_CHARS,
  WAITING_FOR_YOU_LABEL,
  type TaskItem
} from './task-items.js';
import { CHANGED_BY_YOU } from './sent-and-ran-request.js';
import { BY_THE_ASSISTANT } from '../components/call-origin.js';
import { LiveWriting } from './live-writing.js';
import { notFetchedLine, type NotFetched } from './unfetched-answer.js';
import { cancelButtonWords } from './cancel-words.js';

/** The columns of the Tasks table, in order. */
export const TASK_COLUMNS = ['Task', 'Kind', 'Server', 'Status', 'Created', 'Kept', 'Outcome'] as const;

/**
 * The columns a narrow window leaves out (styles.css, `table.tasks .wide-only`): their words go
 * under the task's title instead, so that its Kept and Outcome are in sight without scrolling.
 */
export const WIDE_ONLY_COLUMNS: ReadonlySet<(typeof TASK_COLUMNS)[number]> = new Set(['Kind', 'Server', 'Created']);

/** One task as a table row: its status (and who cancelled it), progress or the text its model writes, and its actions. */
export const TaskRow = memo(function TaskRow({
  item,
  live,
  waitsOnYou,
  notFetched,
  held,
  index,
  rowRef,
  open,
  failure,
  onOpen,
  onCancel,
  onDismiss
}: {
  item: TaskItem;
  live: LiveStream | undefined;
  /** Its question or model request (or its server's question) waits in the Inbox: see `waitsOnYou`. */
  waitsOnYou: boolean;
  /** Why its server will not fetch the answer it waits on the person for (see `notFetchedTasks`), if so. */
  notFetched: NotFetched | undefined;
  /** The person's Decline, Dismiss or Reject of its request, held for its undo window in the Inbox or being sent. */
  held: HeldAnswer | undefined;
  index: number;
  rowRef: Ref<HTMLTableRowElement>;
  open: boolean;
  /** Why its Cancel did not work, until dismissed or tried again. */
  failure: Failure | undefined;
  onOpen: (key: string) => void;
  onCancel: (item: TaskItem) => void;
  onDismiss: (key: string) => void;
}) {
  const progress = item.running ? item.outbound?.progress.latest : undefined;
  // The task's server: for a requested task, whether it was started again since the task (its
  // Kept); for a received one, whether it will ever fetch its result.
  const server = useDeskState((state) => state.servers.find((candidate) => candidate.id === item.serverId));
  // A tool call's title is its tool: its arguments tell calls of one tool apart. As much of them
  // as two lines of the cell hold (styles.css, `.task-preview`), cut there by the browser rather
  // than at a count of characters, which left a narrow cell "durationMs:…"; the tooltip has more.
  const preview =
    item.kind === 'tool-call' ? argumentsPreview(item.outbound?.arguments, TASK_ARGUMENTS_CHARS) : undefined;
  // A received task that waits on the person says so in its badge ("Waiting for you"): the
  // message Taskdesk gave its server for that ("Waiting for your answer in the Inbox") would say it
  // twice (so would it while the person's Decline of it is held: its badge says "Declining"). A
  // requested task's message is its server's own words, and stays; its badge says its status while
  // the person's Decline of its server's question is held (the task runs on), its outcome that.
  const statusMessage =
    item.running && !((waitsOnYou || held) && item.inbound)
      ? (item.inbound?.task ?? item.outbound?.task)?.statusMessage
      : undefined;
  const fetched = item.inbound ? fetchedRowWords(item.inbound, server) : undefined;
  // What Details names: the kind, the tool or the question (cut short: a screen reader's list of
  // buttons tells rows of one server apart by it), and the id.
  const said = item.title.replace(/\s+/g, ' ').trim();
  const what = item.kind === 'tool-call' || said === '' ? said : `“${truncate(said, 60)}”`;
  const name = `${KIND_WORDS[item.kind]} ${what} ${shortId(item.taskId)}`.replace(/\s+/g, ' ');
  return (
    <tr
      data-task-id={item.taskId}
      data-task-key={item.key}
      data-index={index}
      ref={rowRef}
      aria-current={open ? 'true' : undefined}
    >
      <td className="task-cell">
        {/* A tool call's title is its tool at every width, its arguments the line under it. */}
        {item.kind !== 'tool-call' ? (
          <span className="task-title">
            <TaskTitle kind={item.kind} title={receivedRowTitle(item)} />
          </span>
        ) : (
          <>
            <code className="task-title task-tool">{item.title}</code>
            {preview !== undefined ? (
              <code className="task-title task-preview" title={preview}>
                {preview}
              </code>
            ) : null}
          </>
        )}
        <ShortId id={item.taskId} />
        {/* What the narrow window's table leaves out of its columns (see WIDE_ONLY_COLUMNS). */}
        <div className="narrow-only muted small-text task-meta">
          {/* A tool call's tool is its title just above. */}
          {KIND_WORDS[item.kind]}
          {` · ${item.direction === 'received' ? 'Received from' : 'Requested of'} ${item.serverName} · `}
          <DateTime iso={item.createdAt} />
          {item.edited ? ` · ${CHANGED_BY_YOU}` : null}
          {item.outbound?.origin ? ` · ${BY_THE_ASSISTANT}` : null}
        </div>
      </td>
      <td className="kind wide-only">
        {/* The tool is the title in the Task column: no need to say it twice. */}
        {KIND_WORDS[item.kind]}
        <div className="muted small-text">
          {item.direction === 'received' ? 'Received' : 'Requested'}
          {item.edited ? ` · ${CHANGED_BY_YOU}` : null}
          {item.outbound?.origin ? ` · ${BY_THE_ASSISTANT}` : null}
        </div>
      </td>
      <td className="server wide-only">{item.serverName}</td>
      <td>
        {/* What the person needs to know, not the protocol's "Working" (its detail says that too). */}
        <StatusBadge
          status={item.status}
          rejected={item.rejected}
          label={
            item.label ?? (held && item.inbound ? heldLabel(held) : waitsOnYou ? WAITING_FOR_YOU_LABEL : undefined)
          }
        />
        {/* The badge says "Cancelled": under it, only who did it. */}
        {item.status === 'cancelled' && item.cancelledBy ? (
          <div className="small-text cancelled-by">{cancelledByWords(item.cancelledBy)}</div>
        ) : null}
        {statusMessage ? <div className="muted small-text">{statusMessage}</div> : null}
        {/* As the Inbox's card warns: nobody answers it believing the answer goes anywhere. */}
        {waitsOnYou && !held && notFetched ? (
          <div className="small-text task-not-fetched">{notFetchedLine(item.serverName, notFetched)}</div>
        ) : null}
        {progress ? <ProgressLine progress={progress} label={`Progress of ${item.title}`} /> : null}
        {item.running && live ? <LiveWriting model={live.model} text={live.text} /> : null}
      </td>
      <td className="when wide-only">
        <DateTime iso={item.createdAt} />
      </td>
      <td className="when">
        {/* Every row in minutes, and in seconds in its last minute: the column reads alike down its rows. */}
        <TaskKept
          direction={item.direction}
          expiresAt={item.expiresAt}
          warnAt={item.running ? item.warnAt : undefined}
          unitMs={minutesThenSeconds}
          until={false}
          compact
          {...keptHold(item.status, item.outbound, server)}
        />
        {/* Whether its server collected what Taskdesk keeps for it. */}
        {fetched !== undefined ? <div className="muted small-text task-fetched">{fetched}</div> : null}
      </td>
      <td className="outcome">
        <Outcome line={held ? heldOutcome(held, item.direction) : itemOutcome(item)} />
      </td>
      <td className="row-actions">
        <button type="button" className="small" aria-label={`Details of ${name}`} onClick={() => onOpen(item.key)}>
          Details
        </button>
        {item.running ? (
          // A received task's says what it ends ("Cancel question…"), and asks first (see `cancelReceivedAsk`).
          <button type="button" className="small" aria-label={`Cancel ${name}`} onClick={() => onCancel(item)}>
            {cancelButtonWords(item.kind)}
          </button>
        ) : null}
        <ActionError className="compact" failure={failure} onDismiss={() => onDismiss(item.key)} />
      </td>
    </tr>
  );
});

/** Answered fields a row shows; the rest are in the task's details. */
const ROW_FIELDS = 4;

/**
 * An outcome in the table: a result's Markdown read as a few lines of plain words, its note
 * below; a form's answer as its action and the first fields answered.
 */
function Outcome({ line }: { line: OutcomeLine }) {
  if (typeof line === 'string') return line;
  if ('muted' in line) return <span className="muted">{line.muted}</span>;
  // A server's reason is the one useful sentence of a failed task: whole, not cut to lines.
  if ('text' in line)
    return (
      <>
        <span className="outcome-reason">{line.text}</span>
        {line.note ? <span className="muted small-text">{line.note}</span> : null}
      </>
    );
  if ('action' in line)
    return (
      <>
        <span className="outcome-text">{line.action}</span>
        {line.fields.length > 0 ? <AnswerList className="compact" fields={line.fields.slice(0, ROW_FIELDS)} /> : null}
        {line.fields.length > ROW_FIELDS ? (
          <span className="muted small-text">{`and ${line.fields.length - ROW_FIELDS} more in its details`}</span>
        ) : null}
      </>
    );
  return (
    <>
      <span className="outcome-text">
        {line.before}
        <MarkdownLine text={line.markdown} />
      </span>
      {line.after ? <span className="muted small-text">{line.after}</span> : null}
    </>
  );
}
