import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { passUndoWindow } from './undo-window.js';

const ask = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { note: { type: 'string', title: 'Note' } } },
    task: { ttl: 600_000 }
  }
});

/** The inbox id of the card that holds focus (the card itself or a control in it). */
const focusedCard = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId);

describe('the Inbox from the keyboard', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('keys-peer');
    fixture = await startHostWith({ keys: peer });
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      beforeLoad: (opened) => opened.clock.install()
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('moves with j/k and the arrows, opens, submits, declines, shows help on ?, and focuses the next item after an answer', async () => {
    const ids: string[] = [];
    for (const message of ['First', 'Second', 'Third']) {
      ids.push((await peer.server.request(ask(message), CreateTaskResultSchema)).task.taskId);
      await page.getByRole('article', { name: message }).waitFor();
    }
    // From the heading (where the Inbox puts the focus), a and d answer nothing: the first item
    // takes the focus, and the live region says the key acts on it next time.
    for (const key of ['a', 'd']) {
      await page.locator('#heading-inbox').focus();
      await page.keyboard.press(key);
      assert.equal(await focusedCard(page), ids[0]);
      await page.waitForFunction(
        (text) => document.querySelector('.sr-only[aria-live="polite"]')?.lastElementChild?.textContent === text,
        `On the first item. Press ${key} again to ${key === 'a' ? 'approve or submit' : 'decline or reject'} it.`
      );
    }
    assert.equal(await page.getByRole('article', { name: 'First' }).count(), 1, 'nothing was answered');
    // From the heading, o goes to the first item, as j does.
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('o');
    assert.equal(await focusedCard(page), ids[0]);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ARTICLE');
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('j');
    assert.equal(await focusedCard(page), ids[0]);
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedCard(page), ids[1]);
    await page.keyboard.press('j');
    assert.equal(await focusedCard(page), ids[2]);
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedCard(page), ids[0]);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Inbox keys' });
    await help.waitFor();
    assert.match(
      (await help.textContent()) ?? '',
      /Next item.*Previous item.*back to the item itself.*Approve or submit.*Decline or reject/
    );
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    // Enter opens the card: its first field takes the keys (and j types into it, as it should).
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'INPUT');
    await page.keyboard.type('j ok');
    const firstAnswer = peer.server.request(
      { method: 'tasks/result', params: { taskId: ids[0]! } },
      ElicitResultSchema
    );
    // Escape gives the keys back to the card, then a: submit.
    await page.keyboard.press('Escape');
    assert.equal(await focusedCard(page), ids[0]);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ARTICLE');
    await page.keyboard.press('a');
    const first = await firstAnswer;
    assert.deepEqual([first.action, first.content], ['accept', { note: 'j ok' }]);
    await page.getByRole('article', { name: 'First' }).waitFor({ state: 'detached' });
    // Focus went on to the next item itself, not into its field: the next key is the Inbox's.
    await page.waitForFunction(
      (id) => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId === id,
      ids[1]
    );
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ARTICLE');

    const secondAnswer = peer.server.request(
      { method: 'tasks/result', params: { taskId: ids[1]! } },
      ElicitResultSchema
    );
    await page.keyboard.press('d');
    await passUndoWindow(page);
    assert.equal((await secondAnswer).action, 'decline');
    await page.getByRole('article', { name: 'Second' }).waitFor({ state: 'detached' });
    // One key declined it: the Inbox says so where it was, naming the server and the question.
    await page
      .locator('.inbox-answered')
      .getByText(/^Declined .+’s question “Second”\. Go to its task\.$/)
      .waitFor();
    await page.waitForFunction(
      (id) => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId === id,
      ids[2]
    );
    // The declined form's field kept nothing of the d; o opens the next card as Enter does.
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ARTICLE');
    await page.keyboard.press('o');
    assert.deepEqual(
      await page.evaluate(() => [
        document.activeElement?.tagName,
        document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId
      ]),
      ['INPUT', ids[2]]
    );
    // What the last answer did is not kept above the Inbox's cards on a later visit.
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('link', { name: /Inbox/ }).click();
    await page.locator('#heading-inbox').waitFor();
    assert.equal(await page.locator('.inbox-answered').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('dismisses a question with x (no choice made: the server may ask again), listed among the keys', async () => {
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Inbox keys' });
    await help.waitFor();
    const rows = await help
      .locator('dl > div')
      .evaluateAll((found) =>
        found.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])
      );
    assert.deepEqual(
      rows.find(([key]) => key === 'x'),
      ['x', 'Dismiss a question: no choice made, the server may ask again']
    );
    // What the keys do before an item has the focus is said once, under the list, naming where the focus is.
    await help
      .getByText(
        'When no item has the focus yet (as when you open the Inbox), Enter, o, a, d and x go to the first item; press a, d or x again there to act on it.',
        { exact: true }
      )
      .waitFor();
    assert.doesNotMatch((await help.locator('dl').textContent()) ?? '', /from the heading/);
    // Each key is listed once: x is no other key's.
    assert.equal(new Set(rows.map(([key]) => key)).size, rows.length);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    for (const message of ['Sixth', 'Seventh']) {
      await peer.server.request(ask(message), CreateTaskResultSchema);
      await page.getByRole('article', { name: message }).waitFor();
    }
    // The items in order (those the tests before left, then these): each one's task id.
    const ids = await page
      .locator('[data-inbox-id]')
      .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.inboxId!));
    const result = (taskId: string) =>
      peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);
    // From the heading, x answers nothing: the first item takes the focus, and x acts on it next time.
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('x');
    assert.equal(await focusedCard(page), ids[0]);
    await page.locator('.inbox-key-hint').getByText('Press x again to dismiss it.').waitFor();
    const first = result(ids[0]!);
    await page.keyboard.press('x');
    await passUndoWindow(page);
    assert.equal((await first).action, 'cancel');
    await page
      .locator('.inbox-answered')
      .getByText(/^Dismissed .+’s question “.+”\. Go to its task\.$/)
      .waitFor();
    // The next item took the focus: x dismisses it too, from the card.
    await page.waitForFunction(
      (id) => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId === id,
      ids[1]
    );
    const second = result(ids[1]!);
    await page.keyboard.press('x');
    await passUndoWindow(page);
    assert.equal((await second).action, 'cancel');
    await page.locator(`[data-inbox-id="${ids[1]}"]`).waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('shows on the card what a or d from the heading left to do, until the key comes again or the focus leaves', async () => {
    for (const message of ['Fourth', 'Fifth']) {
      await peer.server.request(ask(message), CreateTaskResultSchema);
      await page.getByRole('article', { name: message }).waitFor();
    }
    const firstId = await page.locator('[data-inbox-id]').first().getAttribute('data-inbox-id');
    const hint = page.locator('.inbox-key-hint');
    /** The hint's text and card, and whether it is in sight in the window. */
    const shownHint = () =>
      hint.evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          return {
            text: element.textContent,
            card: element.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId,
            inSight: box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
          };
        })
      );
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('d');
    await hint.waitFor();
    assert.deepEqual(await shownHint(), [
      { text: 'Press d again to decline or reject it.', card: firstId, inSight: true }
    ]);
    // The focus leaves the card: the hint goes with it.
    await page.keyboard.press('j');
    await hint.waitFor({ state: 'detached' });

    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('a');
    await hint.waitFor();
    assert.deepEqual(await shownHint(), [
      { text: 'Press a again to approve or submit it.', card: firstId, inSight: true }
    ]);
    // The focus back on the heading: gone too; d from there says d's.
    await page.locator('#heading-inbox').focus();
    await hint.waitFor({ state: 'detached' });
    await page.keyboard.press('d');
    await hint.getByText('Press d again to decline or reject it.').waitFor();
    // The key again: the card is declined, and no hint stays on the next one.
    await page.keyboard.press('d');
    await passUndoWindow(page);
    await page.locator(`[data-inbox-id="${firstId}"]`).waitFor({ state: 'detached' });
    assert.equal(await hint.count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('a on a question with nothing typed yet sends nothing: the focus goes to its first empty field', async () => {
    /** Asks a form question as a task; its answer comes from `tasks/result`. */
    const question = async (message: string, properties: Record<string, unknown>) => {
      const { taskId } = (
        await peer.server.request(
          {
            method: 'elicitation/create',
            params: { mode: 'form', message, requestedSchema: { type: 'object', properties }, task: { ttl: 600_000 } }
          },
          CreateTaskResultSchema
        )
      ).task;
      const card = page.locator(`[data-inbox-id="${taskId}"]`);
      await card.waitFor();
      return {
        taskId,
        card,
        answer: peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema)
      };
    };
    const said = (text: string) =>
      page.waitForFunction(
        (expected) =>
          document.querySelector('.sr-only[aria-live="polite"]')?.lastElementChild?.textContent === expected,
        text
      );
    const notSent = 'Not sent: nothing is typed yet. Type your answer, then press Enter to submit it.';

    // A person on the card who starts typing their name: the a is not taken as Submit.
    const name = await question('What is your name?', {
      ready: { type: 'boolean', title: 'Ready' },
      name: { type: 'string', title: 'Name' }
    });
    await name.card.focus();
    await page.keyboard.press('a');
    assert.deepEqual(
      await page.evaluate(() => [
        document.activeElement?.tagName,
        document.activeElement?.getAttribute('name'),
        (document.activeElement as HTMLInputElement | null)?.value
      ]),
      ['INPUT', 'name', ''],
      'the focus is in the name field (past the Yes/No choice above it), with nothing typed'
    );
    await said(notSent);
    await name.card.locator('.inbox-key-hint').getByText(notSent).waitFor();
    // Nothing went to the server: the question is still waiting, in the core and on screen.
    assert.ok((await fixture.host.call('inbox.list', {})).some((item) => item.taskId === name.taskId));
    // The answer typed: its first letter too. The hint goes as the typing starts; Enter submits.
    await page.keyboard.type('alice');
    await name.card.locator('.inbox-key-hint').waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    const sent = await name.answer;
    assert.deepEqual([sent.action, sent.content], ['accept', { name: 'alice' }], 'the one answer is what was typed');
    await name.card.waitFor({ state: 'detached' });

    // A field with a default (SEP-1034) is filled from the start: the form is still untouched while
    // the field to type in is empty, and a goes to that field, past the filled one.
    const role = await question('Who are you?', {
      role: { type: 'string', title: 'Role', default: 'user' },
      name: { type: 'string', title: 'Name' }
    });
    await role.card.focus();
    await page.keyboard.press('a');
    assert.deepEqual(
      await page.evaluate(() => [
        document.activeElement?.getAttribute('name'),
        (document.activeElement as HTMLInputElement | null)?.value
      ]),
      ['name', ''],
      'the focus is in the empty name field, not the role filled by its default'
    );
    await said(notSent);
    await role.card.locator('.inbox-key-hint').getByText(notSent).waitFor();
    assert.ok((await fixture.host.call('inbox.list', {})).some((item) => item.taskId === role.taskId));
    await page.keyboard.type('alice');
    await page.keyboard.press('Enter');
    const named = await role.answer;
    assert.deepEqual([named.action, named.content], ['accept', { role: 'user', name: 'alice' }]);
    await role.card.waitFor({ state: 'detached' });
    // Every field to type in filled by its default: a submits the defaults at once.
    const filled = await question('Keep your role?', { role: { type: 'string', title: 'Role', default: 'user' } });
    await filled.card.focus();
    await page.keyboard.press('a');
    const keptRole = await filled.answer;
    assert.deepEqual([keptRole.action, keptRole.content], ['accept', { role: 'user' }]);

    // A form with something changed (here the Yes/No choice) is submitted by a as it is.
    const changed = await question('Shall we go on?', {
      go: { type: 'boolean', title: 'Go on' },
      note: { type: 'string', title: 'Note' }
    });
    await changed.card.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'go');
    // Chosen by its first letter, as a person would.
    await page.keyboard.press('y');
    assert.equal(await changed.card.getByLabel('Go on').inputValue(), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await focusedCard(page), await changed.card.getAttribute('data-inbox-id'));
    await page.keyboard.press('a');
    const went = await changed.answer;
    assert.deepEqual([went.action, went.content], ['accept', { go: true }]);

    // A question with no field to type in (a box to tick, or no field at all): a submits at once.
    const tick = await question('Keep the logs?', {
      keep: { type: 'boolean', title: 'Keep', default: true }
    });
    await tick.card.focus();
    await page.keyboard.press('a');
    const kept = await tick.answer;
    assert.deepEqual([kept.action, kept.content], ['accept', { keep: true }]);
    const none = await question('Carry on?', {});
    await none.card.focus();
    await page.keyboard.press('a');
    const carried = await none.answer;
    assert.deepEqual([carried.action, carried.content], ['accept', {}]);

    // The help says so.
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Inbox keys' });
    await help.waitFor();
    assert.match((await help.textContent()) ?? '', /a question with nothing typed yet: go to its first empty field/);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    assert.deepEqual(pageErrors, []);
  });
});

/** The Inbox's j past the last card shown while more wait: the next ones show, and the next card takes the focus. */
describe('the Inbox’s keys past its first page of cards, in headless Chromium against the real core', () => {
  const peer = peerServer('pile-peer');
  let desk: DeskFixture;
  const asked: Array<Promise<unknown>> = [];

  before(async () => {
    desk = await startDesk({ pile: peer });
  });

  after(async () => {
    // Answered from the core, so that no request is left waiting.
    for (const item of await desk.fixture.host.call('inbox.list', {}))
      await desk.fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'cancel' } });
    await Promise.allSettled(asked);
    await desk?.close();
  });

  it('shows the next page and moves to its first card when j is pressed on the last card shown', async () => {
    const { page } = desk;
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    for (let n = 1; n <= 52; n++)
      asked.push(
        peer.server.request(
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Pile question ${n}?`,
              requestedSchema: { type: 'object', properties: {} }
            }
          },
          ElicitResultSchema
        )
      );
    await page.getByRole('button', { name: 'Show 2 more' }).waitFor();
    const cards = page.locator('article.inbox-item');
    assert.equal(await cards.count(), 50);
    await cards.nth(49).focus();
    await page.keyboard.press('j');
    await page.getByRole('button', { name: 'Show 2 more' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Pile question 51?') === true);
    assert.equal(await cards.count(), 52);
    // And on, as on the first page.
    await page.keyboard.press('j');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Pile question 52?') === true);
    assert.deepEqual(desk.pageErrors, []);
  });
});
