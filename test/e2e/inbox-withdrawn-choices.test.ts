import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CancelTaskResultSchema, CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { passUndoWindow } from './undo-window.js';
import { root } from './renderer-build.js';

/** A select of two colours, shown by their titles. */
const colour = {
  type: 'string' as const,
  title: 'Colour',
  oneOf: [
    { const: 'red', title: 'Red' },
    { const: 'blue', title: 'Sky blue' }
  ]
};

/** A form of choices (a select, a checkbox, an optional Yes/No, checkboxes), a number, a date and a text field. */
const requestedSchema = {
  type: 'object',
  properties: {
    colour,
    news: { type: 'boolean', title: 'Subscribe to news', default: false },
    gift: { type: 'boolean', title: 'Gift wrap' },
    sizes: {
      type: 'array',
      title: 'Sizes',
      items: {
        anyOf: [
          { const: 's', title: 'Small' },
          { const: 'm', title: 'Medium' },
          { const: 'l', title: 'Large' }
        ]
      }
    },
    copies: { type: 'integer', title: 'Copies' },
    deliver: { type: 'string', format: 'date', title: 'Deliver on' },
    note: { type: 'string', title: 'Note' }
  }
};

/**
 * A question its server withdraws takes with it only what the person had not done: what they
 * chose in it (a select, a checkbox, checkboxes), as what they typed, stays in its notice to copy.
 */
describe('a question withdrawn with choices made in it', () => {
  let desk: DeskFixture;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('choices-peer');
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    desk = await startDesk({ b: peer }, { beforeLoad: (page) => page.clock.install() });
  });

  after(async () => {
    await desk?.close();
  });

  /** Asks a task-augmented question; resolves with its task's id. */
  const askTask = async (message: string) => {
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema, task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    return task.taskId;
  };
  /** The server takes its task's question back (`tasks/cancel`). */
  const cancelTask = (taskId: string) =>
    peer.server.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema);
  const announced = (text: string) => desk.page.locator('.sr-only[aria-live="polite"]').getByText(text).waitFor();

  it('leaves a notice for a task’s question its server cancelled after a choice and a tick, and keeps them in it', async () => {
    const { page } = desk;
    const taskId = await askTask('Which badge should we send?');
    const card = page.getByRole('article', { name: 'Which badge should we send?' });
    await card.waitFor();
    await card.getByLabel('Colour').selectOption('blue');
    await card.getByLabel('Subscribe to news').check();
    const notices = page.locator('.notice-withdrawn');
    const before = await notices.count();

    await cancelTask(taskId);
    await card.waitFor({ state: 'detached' });
    const notice = notices.filter({ hasText: 'Which badge should we send?' });
    await notice.waitFor();
    assert.equal(await notices.count(), before + 1);
    assert.equal(
      await notice.getByRole('group', { name: 'What you had written (not sent):' }).textContent(),
      'Colour: Sky blue\nSubscribe to news: Yes'
    );
    await announced(
      'Server b withdrew its question “Which badge should we send?”. What you had written is kept in its notice.'
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('keeps in its notice every kind of field changed, in the form’s order, by the titles shown', async () => {
    const { page } = desk;
    const taskId = await askTask('Which poster should we print?');
    const card = page.getByRole('article', { name: 'Which poster should we print?' });
    await card.waitFor();
    await card.getByLabel('Colour').selectOption({ label: 'Sky blue' });
    await card.getByLabel('Subscribe to news').check();
    await card.getByLabel('Gift wrap').selectOption({ label: 'No' });
    await card.getByLabel('Large').check();
    await card.getByLabel('Small').check();
    await card.getByLabel('Copies').fill('3');
    await card.getByLabel('Deliver on').fill('2026-12-05');

    await cancelTask(taskId);
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which poster should we print?' });
    await notice.waitFor();
    assert.match(
      (await notice.locator('p').textContent()) ?? '',
      /^Server b withdrew its question “Which poster should we print\?” before you answered/
    );
    // Booleans as Yes and No, choices by their titles and in the form's order, fields left alone not at all.
    assert.equal(
      await notice.getByRole('group', { name: 'What you had written (not sent):' }).textContent(),
      'Colour: Sky blue\nSubscribe to news: Yes\nGift wrap: No\nSizes: Small, Large\nCopies: 3\nDeliver on: 2026-12-05'
    );
    await announced(
      'Server b withdrew its question “Which poster should we print?”. What you had written is kept in its notice.'
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('keeps a choice of an ordinary question its server stopped waiting for; a choice put back as it came is not kept', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = peer.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which sticker goes on the box?',
          requestedSchema: {
            type: 'object',
            properties: {
              colour,
              urgent: { type: 'boolean', title: 'Urgent', default: true }
            }
          }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const card = page.getByRole('article', { name: 'Which sticker goes on the box?' });
    await card.waitFor();
    await card.getByLabel('Colour').selectOption({ label: 'Red' });
    await card.getByLabel('Urgent').uncheck();
    await card.getByLabel('Urgent').check();

    controller.abort('gave up');
    assert.ok((await asked) instanceof Error);
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which sticker goes on the box?' });
    await notice.waitFor();
    assert.equal(
      await notice.getByRole('group', { name: 'What you had written (not sent):' }).textContent(),
      'Colour: Red'
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('leaves no notice for a task’s question withdrawn as it came, and the focus on the next card itself, not in it', async () => {
    const { page } = desk;
    const first = await askTask('Which frame should we use?');
    const second = await askTask('Which shop should frame it?');
    const card = page.getByRole('article', { name: 'Which frame should we use?' });
    const next = page.getByRole('article', { name: 'Which shop should frame it?' });
    await next.waitFor();
    // A choice made, then put back: the card holds nothing of the person's.
    await card.getByLabel('Subscribe to news').check();
    await card.getByLabel('Subscribe to news').uncheck();
    await card.focus();
    const notices = await page.locator('.notice-withdrawn').count();

    await cancelTask(first);
    await card.waitFor({ state: 'detached' });
    await announced('Server b withdrew its question “Which frame should we use?”.');
    assert.equal(await page.locator('.notice-withdrawn').count(), notices);
    // As for a card answered (README, "When the card holding focus goes"): the next card itself
    // holds the focus, where the Inbox's keys act on it; not one of its fields or buttons.
    await page.waitForFunction(() => document.activeElement?.matches('[data-inbox-id]') === true);
    assert.equal(await next.evaluate((element) => element === document.activeElement), true);

    // A key meant for the card that went does not answer the next one, not looked at yet: it is
    // said, and asked again. Pressed again, it acts.
    await page.keyboard.press('d');
    await announced('The item you were on was withdrawn; this is the next one. Press d again to decline or reject it.');
    await next.getByText('The item you were on was withdrawn. Press d again to decline or reject it.').waitFor();
    assert.equal(await next.count(), 1, 'the next card is not declined');
    await page.screenshot({ path: path.join(root, '.tmp/inbox-withdrawn-press-again.png') });
    await page.keyboard.press('d');
    await passUndoWindow(page);
    await next.waitFor({ state: 'detached' });
    const answer = await peer.server.request(
      { method: 'tasks/result', params: { taskId: second } },
      ElicitResultSchema
    );
    assert.equal(answer.action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });
});
