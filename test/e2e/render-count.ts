import type { Page } from 'playwright-core';

/**
 * Counts, in the page, how many times React renders the components that draw the elements
 * `selectors` match (the nearest function component above each such element), as React
 * DevTools tells renders apart: through its global hook, which React calls at every commit,
 * in a production build too. Install before the Desk loads (`beforeLoad`).
 *
 * A component counts as rendered in a commit when its fiber did work in it (`PerformedWork`)
 * and is not the very fiber of the commit before (one React did not visit keeps its old flags).
 */
export async function countRenders(page: Page, selectors: readonly string[]): Promise<void> {
  // A string, as NOTIFICATION_STAND_IN is: a function would be wrapped in the bundler's `__name`, unknown to the page.
  await page.addInitScript(`(() => {
    const watched = ${JSON.stringify(selectors)};
    const FUNCTION_TAGS = new Set([0, 11, 14, 15]); // function, forwardRef, memo, simple memo
    const HOST_COMPONENT = 5;
    const PERFORMED_WORK = 1;
    const counts = Object.fromEntries(watched.map((selector) => [selector, 0]));
    let before = new Set();
    window.__renderCounts = counts;
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      isDisabled: false,
      renderers: new Map(),
      inject() { return 1; },
      checkDCE() {},
      onScheduleFiberRoot() {},
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      onCommitFiberRoot(id, root) {
        const seen = new Set();
        const stack = [root.current];
        while (stack.length > 0) {
          const fiber = stack.pop();
          seen.add(fiber);
          if (fiber.sibling) stack.push(fiber.sibling);
          if (fiber.child) stack.push(fiber.child);
          if (fiber.tag !== HOST_COMPONENT || !(fiber.stateNode instanceof Element)) continue;
          const selector = watched.find((candidate) => fiber.stateNode.matches(candidate));
          if (selector === undefined) continue;
          let owner = fiber.return;
          while (owner && !FUNCTION_TAGS.has(owner.tag)) owner = owner.return;
          if (owner && (owner.flags & PERFORMED_WORK) !== 0 && !before.has(owner)) counts[selector] += 1;
        }
        before = seen;
      }
    };
  })();`);
}

/** The renders counted by {@link countRenders} since the last call, by selector; counting starts again. */
export async function takeRenders(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const counts = (window as unknown as { __renderCounts: Record<string, number> }).__renderCounts;
    const taken = { ...counts };
    for (const key of Object.keys(counts)) counts[key] = 0;
    return taken;
  });
}
