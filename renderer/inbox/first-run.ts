import type { ServerView } from '../../app/contract/host-api.js';

/**
 * The id Taskdesk saves the bundled demo server under when it adds it on a first launch
 * (`DEMO_SERVER_ID` in `app/cli/demo-server.ts`, which the page cannot import; a unit test holds
 * the two together).
 */
export const DEMO_SERVER_ID = 'everything';

/**
 * Whether the Desk is still new to its person: no server, or only the demo server Taskdesk added
 * itself (browser mode and a first start add it, so a newcomer never sees an empty list). Until
 * the person adds a server of their own, the Inbox says what Taskdesk is for.
 */
export function deskIsNew(servers: ReadonlyArray<Pick<ServerView, 'id' | 'configured'>>): boolean {
  return servers.every((server) => server.id === DEMO_SERVER_ID && !server.configured);
}
