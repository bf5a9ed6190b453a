import { useDeskState } from '../shell/desk-context.js';
import { unfetchedOf, type AskedTask, type Unfetched } from './unfetched-answer.js';

/** {@link unfetchedOf} over the Desk's Inbox and servers, to tell tasks (History's entries) by. */
export function useUnfetched(): (task: AskedTask) => Unfetched | undefined {
  const inbox = useDeskState((state) => state.inbox);
  const servers = useDeskState((state) => state.servers);
  return (task) => unfetchedOf(task, inbox, servers);
}
