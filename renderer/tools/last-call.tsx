import { memo, useEffect, useState } from 'react';
import type { HistorySummary } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import { lastCallLead, lastCallStatus, laterCallRuns, lowerFirst, runningStarts } from './last-call-status.js';
import { sameLastCalls } from './same-last-calls.js';
import { statusLabel } from '../components/status-words.js';
import { WAITING_FOR_YOU_LABEL } from '../tasks/task-items.js';
import { useToolTaskWait } from './task-wait.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { requestedTaskKey, taskDetailHref } from '../components/task-address.js';
import { isTerminal } from '../store/task-status.js';

/** How many of a server's latest tool calls History is asked for: the last call of each tool among them. */
export const LAST_CALLS_READ = 500;

/** A tool call's History title, as the core makes it ("Tool call: echo"): what ties an entry to its tool. */
export function toolCallTitle(toolName: string): string {
  return `Tool call: ${toolName}`;
}

/**
 * The newest History entry of each tool among `entries` (newest first, as `history.list` gives
 * them), by the tool's History title.
 */
export function lastCallsByTitle(entries: readonly HistorySummary[]): ReadonlyMap<string, HistorySummary> {
  const last = new Map<string, HistorySummary>();
  for (const entry of entries) {
    if (entry.kind !== 'tool-call' || entry.direction !== 'requested' || last.has(entry.title)) continue;
    last.set(entry.title, entry);
  }
  return last;
}

/** Where a History entry opens: the History screen with its detail (`#history/<id>`). */
export function historyHref(id: string): string {
  return `#history/${encodeURIComponent(id)}`;
}

/**
 * The last call of each tool of the server shown, as History keeps it (a plain call's result
 * shows on its tool's card only in the page that made it): read when the server is shown and
 * again whenever History changes, while the screen shows. Empty until read, or when it could
 * not be (the cards then say nothing of it).
 */
export function useLastCalls(serverId: string | undefined, active: boolean): ReadonlyMap<string, HistorySummary> {
  const { client } = useDesk();
  const revision = useDeskState((state) => state.historyRevision);
  const [read, setRead] = useState<{ serverId: string; last: ReadonlyMap<string, HistorySummary> } | undefined>();
  useEffect(() => {
    if (!active || serverId === undefined) return;
    let current = true;
    client
      .call('history.list', {
        filter: { serverId, kind: 'tool-call', direction: 'requested' },
        limit: LAST_CALLS_READ
      })
      .then(
        // The same map while nothing in it changed (a read again for History's other entries, a
        // question in the Inbox): the tools' cards and their lines do not render again for it.
        (page) =>
          current &&
          setRead((before) => {
            const last = sameLastCalls(
              before?.serverId === serverId ? before.last : NONE,
              lastCallsByTitle(page.entries)
            );
            return before?.serverId === serverId && last === before.last ? before : { serverId, last };
          }),
        // Nothing said on the cards: the call itself works, and History says why it cannot be read.
        () => undefined
      );
    return () => {
      current = false;
    };
  }, [client, serverId, active, revision]);
  return read !== undefined && read.serverId === serverId ? read.last : NONE;
}

const NONE: ReadonlyMap<string, HistorySummary> = new Map();

/**
 * "Last called at <time>: completed — see it in History", on a tool's card; for a task still
 * running, "see it on Tasks", where it is followed live (its History entry's id is its Tasks key,
 * `requested:<outboundId>`): "input required — see it in History" sent a person to a record of
 * what was waiting for them. "Previous call at …" while a later call of the tool runs on the card.
 */
export const LastCallLine = memo(function LastCallLine({
  entry,
  toolName
}: {
  entry: HistorySummary;
  /** The tool of the card (its calls running now are found by it). */
  toolName: string;
}) {
  // A task still running says where it stands now, in its badge's words ("Waiting for you" while
  // its server's question waits on the person), as its card and its row on Tasks do: History's
  // record said "input required" beside a card that said "Waiting for you". Not while the
  // person's Decline of that question waits out its undo window: it waits on them no more.
  const task = useDeskState((state) =>
    entry.id.startsWith(REQUESTED) ? state.outbound[entry.id.slice(REQUESTED.length)] : undefined
  );
  const { waits } = useToolTaskWait(task);
  const running =
    task === undefined || isTerminal(task.state) ? undefined : waits ? WAITING_FOR_YOU_LABEL : statusLabel(task.state);
  const status = running === undefined ? lastCallStatus(entry) : lowerFirst(running);
  // One lookup in an index built once for each state, not a scan of every task by each card.
  const laterRuns = useDeskState((state) => laterCallRuns(entry, toolName, runningStarts(state.calls, state.outbound)));
  return (
    <p className="muted small-text tool-last-call">
      {lastCallLead(laterRuns)} <DateTime iso={entry.createdAt} />: {status} —{' '}
      {running !== undefined ? (
        <a href={taskDetailHref(entry.id)}>see it on Tasks</a>
      ) : (
        <a href={historyHref(entry.id)}>see it in History</a>
      )}
    </p>
  );
});

const REQUESTED = requestedTaskKey('');
