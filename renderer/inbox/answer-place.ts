import { createContext } from 'react';

/**
 * Whether the cards below are the Inbox's own. The Inbox screen says so; the same card shown
 * elsewhere (a task's question in the Assistant's chat) answers the same way, but what its answer
 * did is said there, not on the Inbox's line above its cards ("Answer sent to …"), which would
 * otherwise greet the person on their next visit with nothing waiting.
 */
export const InInbox = createContext(false);
