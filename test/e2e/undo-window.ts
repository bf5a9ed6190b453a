import type { Page } from 'playwright-core';
import { UNDO_WINDOW_MS } from '../../renderer/store/held-answers.js';

/**
 * Ends the undo window of the Decline, Reject or Dismiss just given in the Inbox: its answer goes
 * to the server now, as it would 5 seconds later, rather than the test waiting those 5 seconds.
 * The page's clock must be installed before the Desk loads (`beforeLoad: (page) =>
 * page.clock.install()`): it then runs with real time, and this moves it on past the window.
 */
export async function passUndoWindow(page: Page): Promise<void> {
  await page.clock.fastForward(UNDO_WINDOW_MS);
  // The page's Date back to this computer's (the host's) time, its timers left where they are:
  // times the page sets beside the host's (a Stop pressed, a countdown) must not run ahead of
  // them by 5 s at each window passed.
  await page.clock.setSystemTime(Date.now());
}
