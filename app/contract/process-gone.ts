/**
 * The status message of a task a stdio server's process gave Taskdesk that ended with that
 * process (`Host`): "You disconnected Everything before it was answered", "Everything’s process
 * ended before it was answered". The Desk tells such a task by it: nobody will fetch its answer.
 * One module for both sides, so that the words and the test of them cannot drift apart.
 */
const ENDED_WITH_PROCESS = ' before it was answered';

/** The status message of a task that ended with its process, for `cause` ("You disconnected Everything"). */
export function endedWithProcessMessage(cause: string): string {
  return `${cause}${ENDED_WITH_PROCESS}`;
}

/** Whether a received task's status message says it ended with the process that asked for it. */
export function isEndedWithProcessMessage(message: string | undefined): boolean {
  return message?.endsWith(ENDED_WITH_PROCESS) === true;
}
