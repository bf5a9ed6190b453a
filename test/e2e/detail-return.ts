import type { Page } from 'playwright-core';

/** What the Tasks and History detail-return tests share: a question asked as a task, the address, a scroll. */

/** A question asked as a task, with one text field (Region). */
export const question = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form' as const,
    message,
    requestedSchema: { type: 'object' as const, properties: { region: { type: 'string' as const, title: 'Region' } } },
    task: { ttl: 600_000 }
  }
});

/** The page's address, as the Desk reads it. */
export const hash = (page: Page) => page.evaluate(() => location.hash);

/** Scrolls the page to `y` and waits for the scroll to be told to the page's listeners. */
export const scrollTo = (page: Page, y: number) =>
  page.evaluate(
    (to) =>
      new Promise<number>((resolve) => {
        window.addEventListener('scroll', () => resolve(window.scrollY), { once: true });
        window.scrollTo(0, to);
      }),
    y
  );
