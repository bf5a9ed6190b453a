import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import type { PeerServer } from '../support/host-fixture.js';

/** The WCAG 2.0 and 2.1 success criteria of levels A and AA, as axe-core tags its rules. */
export const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Rules whose "needs review" results count as violations here. axe-core leaves an `aria-label` on
 * an element with no role (a `<pre>`, a `<div>`) to review when the element holds text, as that
 * text might name it anyway; but ARIA 1.2 prohibits naming such an element, and a screen reader
 * drops the name, so a box the keyboard stops on is heard with no name at all.
 */
const REVIEWS_THAT_FAIL = new Set(['aria-prohibited-attr']);

/** The rules of {@link WCAG_A_AA} whose outcome depends on the colours: what the dark ones are checked by. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe-core on the page as it shows now, in the light colours and (its colour rules) in the dark ones, and fails
 * with each violation in words: the rule, its impact, what it asks for, and the elements that
 * break it ({@link REVIEWS_THAT_FAIL}: also what it leaves to review under those rules).
 */
export async function assertNoViolations(page: Page, where: string): Promise<void> {
  const said: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // In the dark colours, only the rules that read colours: the rest find the same either way,
    // and each pass of the whole set costs a second or two a screen.
    const builder = new AxeBuilder({ page }).withTags(WCAG_A_AA);
    const { violations, incomplete } = await (
      colorScheme === 'dark' ? builder.withRules(COLOUR_RULES) : builder
    ).analyze();
    const found = [
      ...violations.map((result) => ({ result, kind: '' })),
      ...incomplete
        .filter((result) => REVIEWS_THAT_FAIL.has(result.id))
        .map((result) => ({ result, kind: ', to review' }))
    ];
    for (const { result, kind } of found) {
      const targets = result.nodes.map((node) => `    ${node.target.join(' >> ')}`).join('\n');
      said.push(
        `${result.id} (${result.impact ?? 'no impact'}, ${colorScheme}${kind}, ${result.nodes.length}): ${result.help}\n${targets}`
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(said.length, 0, `axe-core found on ${where}:\n${said.join('\n')}`);
}

/** The window the Desk's screens are checked in first. */
export const WIDE = { width: 1200, height: 900 } as const;
/** The smallest window the Desk is made for: the sections in a narrow row, the chat list folded. */
export const NARROW = { width: 800, height: 600 } as const;

/** Resizes the window and waits for two frames: what measures itself (`useScrolls`) has re-rendered. */
export async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))
  );
}

/**
 * {@link assertNoViolations} in the {@link WIDE} window, then in the {@link NARROW} one, and back
 * to the wide one. `narrow` runs in the narrow window before its check (to open what only a narrow
 * window shows); what it returns runs after the check, still narrow (to close it again).
 */
export async function assertNoViolationsWideAndNarrow(
  page: Page,
  where: string,
  narrow?: () => Promise<(() => Promise<void>) | void>
): Promise<void> {
  await assertNoViolations(page, `${where} (${WIDE.width}×${WIDE.height})`);
  await resize(page, NARROW);
  try {
    const undo = await narrow?.();
    await assertNoViolations(page, `${where} (${NARROW.width}×${NARROW.height})`);
    await undo?.();
  } finally {
    await resize(page, WIDE);
  }
}

/** A form question with four kinds of field, one of them required, as a task that waits in the Inbox. */
export function weeklyReportQuestion(asker: PeerServer) {
  return asker.server.request(
    {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Where should the weekly report go?',
        requestedSchema: {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email', title: 'Email address', description: 'Sent every Monday.' },
            copies: { type: 'integer', minimum: 1, maximum: 5, title: 'Copies' },
            format: {
              type: 'string',
              title: 'Format',
              oneOf: [
                { const: 'pdf', title: 'PDF' },
                { const: 'html', title: 'Web page' }
              ]
            },
            urgent: { type: 'boolean', title: 'Urgent' }
          },
          required: ['email']
        },
        task: { ttl: 600_000 }
      }
    },
    CreateTaskResultSchema
  );
}
