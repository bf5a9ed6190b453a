/**
 * The plain calls a Tools form of this page started and waits on, by call id: the form says how
 * each ended ("The call of echo on Everything was cancelled."), so Running calls' Cancel does not
 * say it again; a call started elsewhere (another window) it does say.
 */
export const callsOfForms = new Set<string>();
