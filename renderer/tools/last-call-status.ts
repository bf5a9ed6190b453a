import type { HistorySummary } from '../../app/contract/host-api.js';
import { statusLabel } from '../components/status-words.js';
import { endLabel } from '../history/cancelled-label.js';

/**
 * How a call ended, or stands, in the words of its History badge ("completed", "cancelled by you"),
 * within a sentence: its first letter only in lower case ("cancelled by Taskdesk", a name kept).
 */
export function lastCallStatus(entry: HistorySummary): string {
  return lowerFirst(endLabel(entry) ?? statusLabel(entry.status));
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
