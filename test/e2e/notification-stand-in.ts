import type { Page } from 'playwright-core';

/**
 * A stand-in `Notification` for the page: granted, and recording what the page shows
 * (`window.__notifications`); and the page's focus as the test sets it (`window.__focused`, see
 * {@link setFocused}; not focused at first).
 *
 * The browser's own cannot be used for either wherever the tests may run: the headless Chromium of
 * the npm fallback (`test/support/test-browser.ts`) answers `Notification.permission` "denied" for
 * an origin the context granted, and reports every page focused whichever is in front. These tests
 * are of what the Desk does with the permission and the focus, not of the browser's.
 */
export const NOTIFICATION_STAND_IN = `(() => {
  window.__notifications = [];
  window.__focused = false;
  class StandIn {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { window.__notifications.push({ title, body: options && options.body }); }
    close() {}
  }
  window.Notification = StandIn;
  Document.prototype.hasFocus = () => window.__focused;
})();`;

/** The notifications the page has shown so far, through the stand-in. */
export function shownNotifications(page: Page): Promise<Array<{ title: string; body?: string }>> {
  return page.evaluate(
    () => (window as unknown as { __notifications: Array<{ title: string; body?: string }> }).__notifications
  );
}

/** Resolves once the page has shown at least `count` notifications. */
export async function notificationsShown(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => (window as unknown as { __notifications: unknown[] }).__notifications.length >= n,
    count
  );
}

/** Whether the page has the focus, as `document.hasFocus()` tells the Desk. */
export async function setFocused(page: Page, focused: boolean): Promise<void> {
  await page.evaluate((value) => {
    (window as unknown as { __focused: boolean }).__focused = value;
  }, focused);
}
