import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { passUndoWindow } from './undo-window.js';

/**
 * An ordinary (not task) request waits on the person only as long as its server does: an SDK
 * server gives up after a minute by default. Its card says so, more plainly once it has waited
 * 40 s, and when the server withdraws it, what the person had typed stays in the notice to copy.
 */
describe('an ordinary request its server may stop waiting for', () => {
  let desk: DeskFixture;
  let peer: PeerServer;
  /**
   * The server that gives up on its request in the first test: Taskdesk then warns of it from a
   * little before that wait (see inbox-server-waits), and the other tests' server is one it knows nothing of.
   */
  let givesUp: PeerServer;

  before(async () => {
    peer = peerServer('wait-peer');
    givesUp = peerServer('gives-up-peer');
    desk = await startDesk(
      { a: peer, b: givesUp },
      {
        // The page's clock is driven here: no real minute passes.
        beforeLoad: (page) => page.clock.install(),
        context: { permissions: ['clipboard-read', 'clipboard-write'] }
      }
    );
  });

  after(async () => {
    await desk?.close();
  });

  it('says servers often stop waiting after about a minute, warns from 40 s, and keeps the typed reply when withdrawn', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = givesUp.server
      .request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the quarter in a line.' } }],
            maxTokens: 60
          }
        },
        CreateMessageResultSchema,
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const card = page.getByRole('article', { name: 'Server b asks for a model reply' });
    await card.waitFor();
    const note = card.locator('.wait-note');
    assert.equal(
      await note.textContent(),
      'Servers often stop waiting after about a minute (the MCP SDK’s default timeout).'
    );
    assert.equal(await note.getAttribute('class'), 'muted small-text wait-note');

    const typed = 'Revenue up 4%,\ncosts flat.';
    await card.getByLabel('Your reply').fill(typed);
    await page.clock.fastForward(41_000);
    await card.locator('.wait-note.banner-warning').waitFor();
    assert.equal(
      await note.textContent(),
      '⚠ Servers often stop waiting after about a minute (the MCP SDK’s default timeout): this one may give up soon. If it does, what you wrote here stays in its notice, to copy.'
    );
    assert.match((await card.locator('.waiting-since').textContent()) ?? '', /^waiting for 4\d s$/);
    // Still waiting well past the minute: the server set a longer timeout, and the warning would not be true.
    await page.clock.fastForward(50_000);
    await card.locator('.wait-note:not(.banner-warning)').waitFor();
    assert.equal(
      await note.textContent(),
      'Servers often stop waiting after about a minute (the MCP SDK’s default timeout); this one has waited longer, so it likely waits on, though it may still give up.'
    );

    // The server gives up (as its request timeout would, saying so): the card goes, the reply does not.
    controller.abort('timed out');
    assert.ok((await asked) instanceof Error);
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Summarise the quarter in a line.' });
    await notice.waitFor();
    const kept = notice.getByRole('group', { name: 'What you had written (not sent):' });
    assert.equal(await kept.textContent(), typed);
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText(
        'Server b’s request for a model reply to “Summarise the quarter in a line.” timed out. What you had written is kept in its notice.'
      )
      .waitFor();
    await notice.getByRole('button', { name: 'Copy what you had written' }).click();
    await notice.getByRole('button', { name: 'Copy what you had written' }).getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), typed);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('keeps what was typed into a question’s text fields, and says nothing of fields left as they came', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = peer.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Where should the crates go?',
          requestedSchema: {
            type: 'object',
            properties: {
              place: { type: 'string', title: 'Place' },
              count: { type: 'integer', title: 'Count' },
              note: { type: 'string', title: 'Note', default: 'none' }
            }
          }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const card = page.locator('.inbox-item').filter({ hasText: 'Where should the crates go?' });
    await card.waitFor();
    await card.getByLabel('Place').fill('Dock 4');
    await card.getByLabel('Count').fill('12');
    controller.abort('gave up');
    await asked;
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Where should the crates go?' });
    await notice.waitFor();
    assert.equal(
      await notice.getByRole('group', { name: 'What you had written (not sent):' }).textContent(),
      'Place: Dock 4\nCount: 12'
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();

    // Nothing typed: the notice says only that it went.
    const other = new AbortController();
    const untouched = peer.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which crate first?',
          requestedSchema: { type: 'object', properties: { crate: { type: 'string' } } }
        },
        { signal: other.signal }
      )
      .catch((error: unknown) => error);
    await page.locator('.inbox-item').filter({ hasText: 'Which crate first?' }).waitFor();
    other.abort('gave up');
    await untouched;
    const plain = page.locator('.notice-withdrawn').filter({ hasText: 'Which crate first?' });
    await plain.waitFor();
    assert.equal(await plain.locator('.withdrawn-draft').count(), 0);
    await plain.getByRole('button', { name: 'Close notice' }).click();
    assert.deepEqual(desk.pageErrors, []);
  });

  it('warns on a question a server asks for its task too: the request itself is ordinary, and may time out', async () => {
    const { page } = desk;
    // The first test moved the page's clock on; back to the core's time, so this card starts at a second or two.
    await page.clock.setSystemTime(Date.now());
    // A 2025-11-25 server's question for its task (related-task `_meta`), sent as an ordinary request:
    // the server's SDK gives up on it after its request timeout, as on any other.
    const asked = peer.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which shelf for the crates?',
            requestedSchema: { type: 'object', properties: { shelf: { type: 'string' } } },
            _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'task-of-the-server' } }
          }
        },
        ElicitResultSchema
      )
      .catch((error: unknown) => error);
    const card = page.getByRole('article', { name: 'Which shelf for the crates?' });
    await card.waitFor();
    // A task the Desk does not know as a call of Taskdesk's: named by its server, its id only in a tooltip.
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      / · asked .+ · one of Server a’s tasks waits on it · /
    );
    assert.equal(
      await card.locator('.meta span', { hasText: 'one of Server a’s tasks waits on it' }).getAttribute('title'),
      'Task task-of-the-server'
    );
    await card.locator('.wait-note:not(.banner-warning)').waitFor();
    assert.equal(
      await card.locator('.wait-note').textContent(),
      'Servers often stop waiting after about a minute (the MCP SDK’s default timeout).'
    );
    await page.clock.fastForward(41_000);
    await card.locator('.wait-note.banner-warning').waitFor();
    assert.equal(
      await card.locator('.wait-note').textContent(),
      '⚠ Servers often stop waiting after about a minute (the MCP SDK’s default timeout): this one may give up soon. If it does, what you wrote here stays in its notice, to copy.'
    );
    await card.getByRole('button', { name: 'Decline' }).click();
    await passUndoWindow(page);
    assert.equal(((await asked) as { action?: string }).action, 'decline');
    // History says it in the Inbox's words, not by the task's id.
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'History', exact: true })
      .click();
    const entry = page
      .getByRole('region', { name: 'History' })
      .locator('.history-list li', { has: page.locator('.history-title', { hasText: 'Which shelf for the crates?' }) });
    const meta = entry.locator('.meta');
    await meta.waitFor();
    assert.match(
      (await meta.textContent()) ?? '',
      /^Question for one of Server a’s tasks · from Server a · Declined · /
    );
    assert.equal(
      await meta.locator('span', { hasText: 'for one of Server a’s tasks' }).getAttribute('title'),
      'Task task-of-the-server'
    );
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: /^Inbox/ })
      .click();
    assert.deepEqual(desk.pageErrors, []);
  });

  it('does not warn of a timeout on a task-augmented question: Taskdesk’s own task, which its server polls', async () => {
    const { page } = desk;
    const created = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which dock for the crates?',
          requestedSchema: { type: 'object', properties: { dock: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const card = page.getByRole('article', { name: 'Which dock for the crates?' });
    await card.waitFor();
    // Sent as a task, which Taskdesk keeps: said in words, its id only in a tooltip.
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      / · asked .+ · sent as a task · Taskdesk keeps the task/
    );
    assert.equal(
      await card.locator('.meta span', { hasText: 'sent as a task' }).getAttribute('title'),
      `Task ${created.task.taskId}`
    );
    await page.clock.fastForward(41_000);
    // Its task's time is counted instead, and no note says the server may stop waiting.
    await card.locator('.meta', { hasText: /Taskdesk keeps the task and its result for \d+ min/ }).waitFor();
    assert.equal(await card.locator('.wait-note').count(), 0);
    await card.getByRole('button', { name: 'Decline' }).click();
    await card.waitFor({ state: 'detached' });
    assert.equal(typeof created.task.taskId, 'string');
    assert.deepEqual(desk.pageErrors, []);
  });
});
