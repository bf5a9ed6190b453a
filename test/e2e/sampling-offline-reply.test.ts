import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/** A loopback port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;
  await new Promise<void>((resolve, reject) => listener.close((error) => (error ? reject(error) : resolve())));
  return port;
}

describe('a model request answered by a person when the provider cannot be reached', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('offline-peer');
    fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    // A provider set up, but down: its address answers nothing.
    await fixture.host.call('providers.save', {
      id: 'down',
      name: 'Down LLM',
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
      models: [{ name: 'gpt-4o-mini' }],
      defaultModel: 'gpt-4o-mini'
    });
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors));
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('after the approved run failed, the person writes the reply and the server gets it', async () => {
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of Norway?' } }],
          maxTokens: 10,
          task: { ttl: 120_000 }
        }
      },
      CreateTaskResultSchema
    );
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('What is the capital of Norway?').waitFor();
    await approval.getByRole('button', { name: 'Approve' }).click();
    const failed = approval.locator('.run-failed');
    // The provider fails since, with the run's words: said once, in this box, with the way to its card.
    await failed.getByRole('link', { name: 'Open Down LLM in LLM providers' }).waitFor();
    assert.match(
      (await failed.textContent()) ?? '',
      /^The run you approved on gpt-4o-mini \(Down LLM\) failed .+ Try it again, on another model or with the request changed, write the reply yourself, or reject it; Server p waits meanwhile\. Open Down LLM in LLM providers\.$/
    );
    assert.equal(await approval.locator('.provider-failing').count(), 0);

    await approval.getByRole('button', { name: 'Write the reply yourself…' }).click();
    const reply = approval.getByRole('textbox', { name: 'Your reply' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'reply');
    // The approval's own buttons are out of the way while the reply is written.
    assert.equal(await approval.getByRole('button', { name: 'Try again' }).count(), 0);
    await reply.fill('Oslo.');
    await approval.getByRole('button', { name: 'Send reply' }).click();

    const result = await peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'Oslo.' });
    assert.equal(result.model, 'human');
    await approval.waitFor({ state: 'detached' });

    // The audit log (newest first) says the person wrote it, as when no provider is set up.
    const audit = await fixture.host.call('audit.read', { taskId: task.taskId });
    // Each of the person's answers once, in its decision's entry, naming the server's question.
    assert.deepEqual(
      audit.filter((entry) => entry.type === 'inbox.answered'),
      [],
      'no second line for an answer'
    );
    const decided = audit.filter((entry) => entry.type === 'sampling.request');
    assert.deepEqual(
      decided.map((entry) => [entry.detail?.decision, entry.detail?.question]),
      [
        ['written-by-you', 'What is the capital of Norway?'],
        ['approved', 'What is the capital of Norway?']
      ]
    );
    assert.ok(audit.some((entry) => entry.type === 'sampling.llm' && entry.detail?.decision === 'failed'));
    assert.ok(!audit.some((entry) => entry.type === 'sampling.completion'), 'a reply of a person is not reviewed');

    // History keeps it as answered, with the person's reply.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const row = page.locator(`li[data-history-id="received:${task.taskId}"]`);
    await row.locator('[data-status="completed"]').waitFor();
    const entry = await fixture.host.call('history.get', { id: `received:${task.taskId}` });
    assert.equal(entry.status, 'completed');
    assert.deepEqual((entry.result as { content?: unknown; model?: unknown }).content, {
      type: 'text',
      text: 'Oslo.'
    });
    assert.equal((entry.result as { model?: unknown }).model, 'human');
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
  });

  it('before any run, the person may write the reply instead, or go back to running a model', async () => {
    const asked = peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 10 }
      },
      CreateMessageResultSchema
    );
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Say hello').waitFor();
    const write = approval.getByRole('button', { name: 'Write the reply yourself…' });
    await write.click();
    await approval.getByRole('textbox', { name: 'Your reply' }).fill('Hello by hand');
    // Back to the approval: the button that opened the form has the focus again.
    await approval.getByRole('button', { name: 'Run a model instead' }).click();
    await approval.getByRole('button', { name: 'Approve' }).waitFor();
    assert.equal(await write.evaluate((element) => element === document.activeElement), true);
    // Opened again, what was written is still there; an empty reply is refused on the form.
    await write.click();
    const reply = approval.getByRole('textbox', { name: 'Your reply' });
    assert.equal(await reply.inputValue(), 'Hello by hand');
    await reply.fill('');
    await approval.getByRole('button', { name: 'Send reply' }).click();
    await approval.locator('.field-error', { hasText: 'Write a reply, or reject the request.' }).waitFor();
    await reply.fill('Hello by hand');
    await approval.getByLabel('Model name').fill('me');
    await approval.getByRole('button', { name: 'Send reply' }).click();
    const result = await asked;
    assert.deepEqual(result.content, { type: 'text', text: 'Hello by hand' });
    assert.equal(result.model, 'me');
    assert.equal(fixture.host.inbox.size, 0);
  });

  it('Refuse still refuses: nobody is asked to write the reply', async () => {
    const waiting = fixture.host.inbox.size;
    await fixture.host.call('sampling.setPolicy', {
      serverId: 'p',
      policy: { mode: 'refuse', reviewCompletion: true }
    });
    try {
      await assert.rejects(
        peer.server.request(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text: 'Refused' } }], maxTokens: 10 }
          },
          CreateMessageResultSchema
        ),
        /Model requests from Server p are set to Refuse\./
      );
      assert.equal(fixture.host.inbox.size, waiting, 'nobody is asked to write it');
    } finally {
      await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    }
    assert.deepEqual(pageErrors, []);
  });
});
