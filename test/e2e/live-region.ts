import type { Page } from 'playwright-core';

/**
 * What the Desk's polite live region says, as a screen reader would hear it: every text it is
 * set to, in order, from {@link recordSaid} on. Read from the region itself, a message could be
 * missed when the next one replaced it before a locator looked.
 */
export function recordSaid(page: Page): Promise<void> {
  return page.evaluate(() => {
    const region = document.querySelector('.sr-only[aria-live="polite"]')!;
    const heard: string[] = [];
    (window as unknown as { said: string[] }).said = heard;
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text) heard.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

/** Waits until the live region has said something matching `pattern` `times` times since {@link recordSaid}. */
export async function saidTimes(page: Page, pattern: RegExp, times = 1): Promise<void> {
  await page.waitForFunction(
    ([source, flags, count]) =>
      (window as unknown as { said: string[] }).said.filter((text) => new RegExp(source, flags).test(text)).length >=
      count,
    [pattern.source, pattern.flags, times] as const
  );
}

/** Everything the live region said since {@link recordSaid}. */
export function said(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { said: string[] }).said);
}
