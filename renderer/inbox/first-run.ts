import type { ServerView } from '../../app/contract/host-api.js';

/**
 * Whether the Desk is still new to its person: no server, or only servers Taskdesk added itself
 * (`addedBy: 'taskdesk'`: the demo server browser mode and a first start add, so a newcomer never
 * sees an empty list). Until the person adds a server of their own, the Inbox says what Taskdesk
 * is for. Told by who added it, not by its id: a server the person adds or imports may well be
 * called "everything" too.
 */
export function deskIsNew(servers: ReadonlyArray<Pick<ServerView, 'addedBy'>>): boolean {
  return servers.every((server) => server.addedBy === 'taskdesk');
}
