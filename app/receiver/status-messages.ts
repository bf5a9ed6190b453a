/**
 * Status messages the receiver gives a received task's server that are Taskdesk's own words of
 * routine, not news of the task: History reads them by these constants to say the step as what
 * happened instead (see `TaskHistory.recordReceived`).
 */

/**
 * A received task's status message as it is made (and when it works again after a wait), until
 * its runner says what it does: the Inbox's wait, a model writing the answer.
 */
export const WORKING_ON_IT = 'Taskdesk is working on the request.';

/** A received task's status message once the person cancelled it in Taskdesk (`TaskReceiver.cancelById`). */
export const CANCELLED_IN_TASKDESK = 'Cancelled by the user in Taskdesk.';
