import { useMemo, useSyncExternalStore } from 'react';
import type { HistorySummary, InboxItem } from '../../app/contract/host-api.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import type { HeldAnswer } from '../store/held-answers.js';
import { isTerminal } from '../store/task-status.js';
import { heldOutcome } from '../tasks/task-items.js';

/** What of an entry ties it to the Inbox's card of its task's request. */
type HeldEntry = Pick<HistorySummary, 'direction' | 'serverId' | 'taskId' | 'status'>;

/**
 * The person's Decline, Dismiss or Reject of a received task's question or model request while it
 * waits out its undo window in the Inbox (or is being sent), if any: the entry then says so, as
 * its row on the Tasks screen does (`heldLabel`, `heldOutcome`), not "Waiting for you". Only a
 * received task's: History has a tool task's server's question only once it ended.
 */
export function heldAnswerOfEntry(
  entry: HeldEntry,
  inbox: readonly InboxItem[],
  held: Readonly<Record<string, HeldAnswer>>
): HeldAnswer | undefined {
  if (entry.direction !== 'received' || entry.taskId === undefined || isTerminal(entry.status)) return undefined;
  const item = inbox.find((candidate) => candidate.taskId === entry.taskId && candidate.serverId === entry.serverId);
  return item && held[item.id];
}

/** The held answers and the Inbox, to tell entries by (`heldAnswerOfEntry`). */
export function useHeldAnswers(): (entry: HeldEntry) => HeldAnswer | undefined {
  const { store } = useDesk();
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const inbox = useDeskState((state) => state.inbox);
  return (entry) => heldAnswerOfEntry(entry, inbox, held);
}

/** What a held answer's entry says under its meta line, in its Tasks row's outcome words ("Declined: you can still undo it in the Inbox."). */
export function heldEntryWords(answer: HeldAnswer): string {
  const line = heldOutcome(answer, 'received');
  // Always a muted line (the answer is not the task's end).
  return typeof line === 'object' && 'muted' in line ? line.muted : '';
}

/**
 * The received tasks (their ids) whose question or model request has the person's answer held or
 * being sent: they wait on the person no more (as on the Tasks screen, `heldTasks`), which
 * History's "Waiting for you" asks the host to leave out (`HistoryFilter.heldTaskIds`).
 */
export function heldTaskIds(inbox: readonly InboxItem[], held: Readonly<Record<string, HeldAnswer>>): string[] {
  const ids: string[] = [];
  for (const item of inbox) if (item.taskId !== undefined && item.id in held) ids.push(item.taskId);
  return ids.sort();
}

/** {@link heldTaskIds}, the same array while they stay the same (a list read again only when they change). */
export function useHeldTaskIds(): readonly string[] {
  const { store } = useDesk();
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const inbox = useDeskState((state) => state.inbox);
  const key = JSON.stringify(heldTaskIds(inbox, held));
  return useMemo(() => JSON.parse(key) as string[], [key]);
}
