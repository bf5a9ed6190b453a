import type { DeskState } from '../store/desk-state.js';

/**
 * What the Inbox says once an approval is taken, its line just put above the cards: `running`
 * ("… is running") while the run goes on, or, the run over already, how it ended (its line).
 * Nothing when it ended with no line to show (its task cancelled or failed, History's entry not
 * answered): it is not running, and no words say how it ended.
 */
export function runLineSaid(
  state: Pick<DeskState, 'answeredRun' | 'lastAnswered'>,
  running: string
): string | undefined {
  return state.answeredRun === undefined ? state.lastAnswered : running;
}
