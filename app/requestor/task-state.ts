/**
 * Old path of `outbound-task-state.ts`, kept only because `task-follower.ts` (being changed on
 * another branch) still imports it from here. Point that import at `./outbound-task-state.js`
 * and delete this file.
 */
export { isServerTerminal } from './outbound-task-state.js';
