import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { answered, echoServer, saveFakeProvider, settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * A tool call of the assistant that waits for the person waits as a question does: the Desk says
 * so from any screen (the Assistant's badge, the window's title, screen readers), not only in
 * its chat.
 */
describe('an assistant tool call waiting for approval, seen from another screen', () => {
  let d: DeskFixture;
  let llm: FakeOpenAIServer;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({ tools: echoServer() }, { host: { keyStore: new InMemoryKeyStore() } });
    await saveFakeProvider(d.fixture.host, llm.baseURL);
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('shows a badge on Assistant, counts it in the title, and tells screen readers which tool and chat', async () => {
    const { page } = d;
    const host = d.fixture.host;
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const chat = await host.call('assistant.create', {
      title: 'Trip plans',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['tools']
    });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_echo', name: 'tools__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['All', ' done.'] }
    );
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'Say hi through the tool' });
    await approval;

    const assistantLink = page.locator('nav a[data-screen="assistant"]');
    await assistantLink.getByLabel('1 tool call to approve').waitFor();
    assert.equal(await assistantLink.locator('.badge').textContent(), '1');
    await page.waitForFunction(() => document.title === '(1) Tasks · Taskdesk');
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('The assistant asks to run echo in “Trip plans”: approve or deny it on the Assistant screen.')
      .waitFor();

    await host.call('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'call_echo',
      decision: { action: 'deny' }
    });
    await settled(host, chat.id, answered);
    await assistantLink.locator('.badge').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.title === 'Tasks · Taskdesk');
    await page.locator('.sr-only[aria-live="polite"]').getByText('The answer in “Trip plans” is complete.').waitFor();
    assert.deepEqual(d.pageErrors, []);
  });
});
