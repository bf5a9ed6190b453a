import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * A server's task-augmented request waits in the Inbox; the person cancels its task on the Tasks
 * screen. That is their own doing, not the server's: nothing says the server withdrew it, and a
 * screen reader hears that they cancelled it. What they had typed into its card is not lost.
 */
describe('a received task the person cancels while its request waits in the Inbox', () => {
  let desk: DeskFixture;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('own-cancel-peer');
    desk = await startDesk({ a: peer });
    await recordSaid(desk.page);
  });

  after(async () => {
    await desk?.close();
  });

  /** Cancels the received task `taskId` with its row's Cancel on the Tasks screen, then goes back to the Inbox. */
  const cancelOnTasksScreen = async (page: Page, taskId: string) => {
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.locator(`tr[data-task-key="received:${taskId}"]`);
    await row.getByRole('button', { name: /^Cancel / }).click();
    // Asked first (what the server is told, that it cannot be undone).
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Cancel (question|model request)$/ })
      .click();
    await row.locator('.cancelled-by', { hasText: /^by you$/ }).waitFor();
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
  };

  it('keeps the reply typed into a model request in a notice that says the person cancelled it, not its server', async () => {
    const { page } = desk;
    const created = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the quarter for the board.' } }],
          maxTokens: 60,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const card = page.getByRole('article', { name: 'Server a asks for a model reply' });
    await card.waitFor();
    const typed = 'Revenue up 4%,\ncosts flat.';
    await card.getByLabel('Your reply').fill(typed);

    await cancelOnTasksScreen(page, created.task.taskId);
    await card.waitFor({ state: 'detached' });
    // Said once the card went (it names what it asked; its arrival did not).
    await saidTimes(page, /Taskdesk withdrew Server a’s request for a model reply to “Summarise the quarter/);
    // Messages of one frame are said together (the Tasks screen's "Cancelled Server a’s model
    // request “…”." may join it).
    const heard = (await said(page)).filter((text) => text.includes('Summarise the quarter for the board.')).join(' ');
    assert.ok(
      heard.includes(
        'Taskdesk withdrew Server a’s request for a model reply to “Summarise the quarter for the board.”: Its task was cancelled by you. What you had written is kept in its notice.'
      ),
      `heard: ${heard}`
    );
    assert.doesNotMatch(heard, /Server a withdrew/);

    // One notice, for what was typed: it names the person's cancel, and blames no server.
    const notices = page.locator('.notice-withdrawn');
    await notices.first().waitFor();
    assert.equal(await notices.count(), 1);
    const words = (await notices.locator('p').first().textContent()) ?? '';
    assert.equal(
      words,
      'Taskdesk withdrew Server a’s request for a model reply to “Summarise the quarter for the board.”: Its task was cancelled by you.'
    );
    assert.doesNotMatch(words, /Server a withdrew|before you answered/);
    assert.equal(await notices.getByRole('group', { name: 'What you had written (not sent):' }).textContent(), typed);
    await notices.getByRole('button', { name: 'Close notice' }).click();
    await notices.first().waitFor({ state: 'detached' });
    // The audit log tells it once, as the person's cancel of the task; no withdrawal besides.
    const audited = desk.fixture.host.audit.read({ taskId: created.task.taskId }).map((entry) => entry.type);
    assert.ok(audited.includes('task.cancelled'), audited.join(', '));
    assert.ok(!audited.includes('inbox.withdrawn'), audited.join(', '));
    assert.deepEqual(desk.pageErrors, []);
  });

  it('shows no notice for a question the person had typed nothing into: a screen reader hears they cancelled it', async () => {
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

    await cancelOnTasksScreen(page, created.task.taskId);
    await card.waitFor({ state: 'detached' });
    await saidTimes(page, /Taskdesk withdrew Server a’s question “Which dock for the crates\?”/);
    const heard = (await said(page)).filter((text) => text.includes('Which dock for the crates?')).join(' ');
    assert.ok(
      heard.includes(
        'Taskdesk withdrew Server a’s question “Which dock for the crates?”: Its task was cancelled by you.'
      ),
      `heard: ${heard}`
    );
    assert.doesNotMatch(heard, /Server a withdrew|kept in its notice/);
    assert.equal(await page.locator('.notice-withdrawn').count(), 0, 'no notice of what the person did');
    assert.equal(await page.locator('.inbox-item').count(), 0);
    assert.deepEqual(desk.pageErrors, []);
  });
});
