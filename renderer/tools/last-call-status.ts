import type { HistorySummary, OutboundTaskView, PlainCallView } from '../../app/contract/host-api.js';
import { statusLabel } from '../components/status-words.js';
import { endLabel } from '../history/cancelled-label.js';
import { derivedOfBoth } from '../store/derived.js';
import { isTerminal } from '../store/task-status.js';

/**
 * How a call ended, or stands, in the words of its History badge ("completed", "cancelled by you"),
 * within a sentence: its first letter only in lower case ("cancelled by Taskdesk", a name kept).
 */
export function lastCallStatus(entry: HistorySummary): string {
  return lowerFirst(endLabel(entry) ?? statusLabel(entry.status));
}

/**
 * When the latest call of each tool that still runs started, by server and tool (see
 * {@link laterCallRuns}): a plain call (`calls`, which holds only running ones) or a task not
 * ended. Use {@link runningStarts}, which builds it once for each state.
 */
export function buildRunningStarts(
  calls: Readonly<Record<string, PlainCallView>>,
  tasks: Readonly<Record<string, OutboundTaskView>>
): RunningStarts {
  const starts = new Map<string, string>();
  const add = (call: { serverId: string; toolName: string }, startedAt: string) => {
    const key = toolKey(call.serverId, call.toolName);
    const latest = starts.get(key);
    if (latest === undefined || startedAt > latest) starts.set(key, startedAt);
  };
  for (const call of Object.values(calls)) add(call, call.startedAt);
  for (const task of Object.values(tasks)) if (!isTerminal(task.state)) add(task, task.createdAt);
  return starts;
}

/** When the latest running call of each tool started ({@link buildRunningStarts}), keyed by {@link toolKey}. */
export type RunningStarts = ReadonlyMap<string, string>;

/**
 * {@link buildRunningStarts} once for each state of the Desk's `calls` and `outbound`: every
 * tool card reads it on every store update (each progress notification), and scanned every task
 * for itself (50 cards and 2,000 tasks took about 10 ms an update).
 */
export const runningStarts = derivedOfBoth(buildRunningStarts);

/** A tool of a server, as {@link RunningStarts} keys it. */
function toolKey(serverId: string, toolName: string): string {
  return `${serverId}\u0000${toolName}`;
}

/**
 * Whether a call of `toolName` on the server of `entry` started after the call `entry` records
 * and runs still: a plain call or a task, as `starts` ({@link runningStarts}) has them. The
 * tool's card shows that call running below its "Last called" line, which then speaks of the one
 * before it.
 */
export function laterCallRuns(
  entry: Pick<HistorySummary, 'serverId' | 'createdAt'>,
  toolName: string,
  starts: RunningStarts
): boolean {
  const latest = starts.get(toolKey(entry.serverId, toolName));
  return latest !== undefined && latest > entry.createdAt;
}

/**
 * How a tool card's line about its last call in History starts: "Last called at", or, while a
 * later call of the tool runs (see {@link laterCallRuns}), "Previous call at": the line said
 * "Last called at …: completed" just above "… running for 2 s", as if that were where things stood.
 */
export function lastCallLead(laterRuns: boolean): string {
  return laterRuns ? 'Previous call at' : 'Last called at';
}

/** A badge's words within a sentence: "Waiting for you" as "waiting for you". */
export function lowerFirst(label: string): string {
  return `${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}

/**
 * A call in the live region's words: its tool and, always, its server ("echo on Server a"), as the
 * Running calls line names it. The page cannot know whether another server has a tool of that name
 * without listing every server's tools, and a long call's end may come while the person looks at
 * another server's tools or another screen: two calls of one name were told apart by nothing.
 */
export function callWords(toolName: string, serverName: string): string {
  return `${toolName} on ${serverName}`;
}

/** What the live region says as a plain call starts: "echo on Server a is running." */
export function callRunningWords(toolName: string, serverName: string): string {
  return `${callWords(toolName, serverName)} is running.`;
}

/**
 * What the live region says once a plain call's result is in: "echo on Server a returned its
 * result.", or, for a result the tool marked as an error (`isError`), "… reported an error." as
 * the result says it. Not "answered": said just after the Inbox's "Declined …’s question" (the
 * question the call asked), it read as if the question had been answered.
 */
export function callResultWords(
  toolName: string,
  serverName: string,
  result: { isError?: boolean | undefined }
): string {
  const call = callWords(toolName, serverName);
  return result.isError === true ? `${call} reported an error.` : `${call} returned its result.`;
}
