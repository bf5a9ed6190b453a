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
 * What the live region says once a plain call's result is in: "echo answered.", or, for a result
 * the tool marked as an error (`isError`), "echo reported an error." as the result says it: a
 * failed call was said to have answered.
 */
export function callResultWords(toolName: string, result: { isError?: boolean | undefined }): string {
  return result.isError === true ? `${toolName} reported an error.` : `${toolName} answered.`;
}
