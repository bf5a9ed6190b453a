import { useDeskState } from '../shell/desk-context.js';

/**
 * What an empty list says instead of "nothing here" when the Desk does not know: before the first
 * load ("Loading…"), or while Taskdesk cannot be reached or refuses this tab (the banner above
 * says why). Undefined once the lists are in and the host is heard: then an empty list is empty.
 */
export function useUnloadedWords(what: string): string | undefined {
  const ready = useDeskState((state) => state.ready);
  const problem = useDeskState((state) => state.problem !== undefined);
  if (problem)
    return ready
      ? `Taskdesk cannot be reached now: ${what} may have changed since (see the message above).`
      : `Taskdesk cannot be reached: ${what} cannot be shown until it is (see the message above).`;
  return ready ? undefined : 'Loading…';
}
