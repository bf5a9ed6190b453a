import type { Page } from 'playwright-core';

/**
 * What the Desk's polite live region says, as a screen reader would hear it: every line added to
 * it, in order, from {@link recordSaid} on. Read from the region itself, a message could be
 * missed when the oldest lines were taken out before a locator looked.
 */
export function recordSaid(page: Page): Promise<void> {
  return page.evaluate(() => {
    const region = document.querySelector('.sr-only[aria-live="polite"]')!;
    const heard: string[] = [];
    (window as unknown as { said: string[] }).said = heard;
    // Each message is a line added to the region (see renderer/shell/live-region.tsx).
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes)) {
          const text = node.textContent ?? '';
          if (text) heard.push(text);
        }
    }).observe(region, { childList: true });
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

/**
 * What a screen reader would hear from now on, in order (as `window.heard`): each line added to a
 * region that says only its additions (the Desk's own, see {@link recordSaid}), the whole text of
 * any other live region (not `off`, not in a hidden screen) as it is set, and the words of each
 * element the focus lands on.
 */
export function recordHeard(page: Page): Promise<void> {
  return page.evaluate(() => {
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    new MutationObserver((records) => {
      const regions = new Set<Element>();
      for (const record of records) {
        const node = record.target instanceof Element ? record.target : record.target.parentElement;
        const region = node?.closest('[aria-live]');
        if (!region || region.getAttribute('aria-live') === 'off' || region.closest('[hidden]')) continue;
        if (region.getAttribute('aria-relevant') !== 'additions') regions.add(region);
        else if (record.target === region)
          for (const added of Array.from(record.addedNodes)) if (added.textContent) heard.push(added.textContent);
      }
      for (const region of regions) if (region.textContent) heard.push(region.textContent);
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
    document.addEventListener('focusin', (event) => heard.push((event.target as HTMLElement).textContent ?? ''));
  });
}
