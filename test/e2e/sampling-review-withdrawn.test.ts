import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * A model's answer under review whose server stops waiting for it (an SDK server gives up after
 * its timeout, and says so with notifications/cancelled): the notice says so in one sentence,
 * the same as the live region, and its Show all names what it shows.
 */
describe('an answer under review whose server stopped waiting, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let llm: FakeOpenAIServer;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    built = await buildRenderer();
    // A real OpenAI-compatible server on loopback: the network is faked, not the app.
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    peer = peerServer('review-peer');
    fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    await fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, []));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    await llm?.close();
    built?.remove();
  });

  /**
   * Server p asks for a model reply (an ordinary request, not a task); the person approves it, and
   * once its answer waits for review, the server cancels the request with `reason`.
   */
  const reviewWithdrawn = async (text: string, reason: unknown) => {
    llm.enqueue({ kind: 'text', tokens: ['A cat', ' sleeps.'] });
    const controller = new AbortController();
    const asked = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 }
        },
        CreateMessageResultSchema,
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText(text).waitFor();
    await approval.getByRole('button', { name: 'Approve' }).click();
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.getByLabel('Answer from fake-small (you may edit it)').waitFor();
    // The SDK sends notifications/cancelled with the abort's reason.
    controller.abort(reason);
    assert.ok((await asked) instanceof Error, 'the server side saw its request end');
    await review.waitFor({ state: 'detached' });
  };

  it('says in one sentence, on screen and aloud, that the server stopped waiting for an answer under review', async () => {
    await recordSaid(page);
    const text = 'Resource trigger-sampling-request context: Tell me about a cat, and about its long afternoon naps';
    // A cancellation that does not say why: what is known is that the server no longer waits.
    await reviewWithdrawn(text, 'the server gave up');

    const sentence = `Server p stopped waiting for a model reply to “${text}” before you sent the answer you were reviewing.`;
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Tell me about a' });
    await notice.waitFor();
    // Cut short at first: its button says what it shows the whole of, a model request.
    const words = notice.locator('p span[id]');
    assert.match(
      (await words.textContent()) ?? '',
      /^Server p stopped waiting for a model reply to “.+…” before you sent the answer you were reviewing\.$/
    );
    await notice.getByRole('button', { name: 'Show all of the model request' }).click();
    assert.equal(await words.textContent(), sentence);
    await notice.getByRole('button', { name: 'Show less of the model request' }).waitFor();
    // The live region says the same sentence (no ", with the answer you were reviewing." of its own).
    await saidTimes(page, /stopped waiting for a model reply/);
    const heard = (await said(page)).filter((line) => line.includes('Tell me about a cat'));
    assert.deepEqual(heard, [sentence]);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
  });

  it('says the request timed out when the server’s cancellation says so, as the SDK’s timeout does', async () => {
    await recordSaid(page);
    // What an SDK server's timeout cancels with: notifications/cancelled says "MCP error -32001: Request timed out".
    await reviewWithdrawn(
      'Name a dog',
      new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 60_000 })
    );
    const sentence =
      'Server p’s request for a model reply to “Name a dog” timed out before you sent the answer you were reviewing.';
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Name a dog' });
    await notice.waitFor();
    assert.equal(await notice.locator('p').first().textContent(), sentence);
    await saidTimes(page, /Name a dog/);
    assert.deepEqual(
      (await said(page)).filter((line) => line.includes('Name a dog')),
      [sentence]
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
  });
});
