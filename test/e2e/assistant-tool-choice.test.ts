import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

/** A server of three tools, one of them titled. */
function threeTools(): PeerServer {
  const mcp = new McpServer({ name: 'kit', version: '1.0.0' }, { capabilities: { tools: {} } });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  mcp.registerTool('lookup', { title: 'Look up a word', inputSchema: { word: z.string() } }, async ({ word }) =>
    text(`Found ${word}`)
  );
  mcp.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => text(`Sunny in ${city}`));
  mcp.registerTool('clock', { inputSchema: {} }, async () => text('Noon'));
  return { ...peerServer('kit'), server: mcp.server };
}

/**
 * Which of a server's tools a conversation's model is offered: all by default, or those the
 * person ticks in the conversation's settings (a model with a small context holds a few).
 */
describe('choosing a server’s tools for a conversation, in headless Chromium against the real core', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  /** The function names the model was offered in its last request. */
  const offered = () =>
    ((llm.chatRequests.at(-1)!.body.tools as Array<{ function: { name: string } }> | undefined) ?? [])
      .map((tool) => tool.function.name)
      .sort();

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { kit: threeTools() },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  async function send(text: string, answer: string): Promise<void> {
    llm.enqueue({ kind: 'text', tokens: [answer] });
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
    await pane().locator('[data-role="assistant"]').getByText(answer).waitFor();
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
  }

  it('offers only the tools ticked, says so on the server’s row, and all of them again after Offer all', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Server kit', { exact: true }).setChecked(true);
    const row = settings().locator('.chat-server-row').filter({ hasText: 'Server kit' });
    assert.equal(await row.locator('.chat-server-tools > .muted').textContent(), 'All its tools');
    const choose = row.getByRole('button', { name: 'Choose tools… of Server kit' });
    assert.equal(await choose.getAttribute('aria-expanded'), 'false');
    await choose.click();
    const list = row.getByRole('group', { name: 'The tools of Server kit the model is offered' });
    await list.getByRole('checkbox').first().waitFor();
    // A titled tool by its title, its name beside it.
    assert.deepEqual(await list.locator('label').allTextContents(), ['Look up a word (lookup)', 'weather', 'clock']);
    for (const box of await list.getByRole('checkbox').all()) assert.equal(await box.isChecked(), true);
    await list.getByRole('checkbox', { name: 'weather' }).uncheck();
    await list.getByRole('checkbox', { name: 'clock' }).uncheck();
    assert.equal(await row.locator('.chat-server-tools > .muted').textContent(), 'Only 1 of its tools');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-tool-choice.png') });
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await settings().waitFor({ state: 'detached' });

    // The header says some of its tools only are offered.
    await pane().locator('.chat-header').getByText('Fake LLM · fake-small · tools of Server kit (1 chosen)').waitFor();
    await send('Look something up', 'Done.');
    assert.equal(offered().length, 1);
    assert.match(offered()[0]!, /lookup/);
    const id = (await pane().getAttribute('data-conversation-id'))!;
    assert.deepEqual((await d.fixture.host.call('assistant.get', { conversationId: id })).toolsOffered, {
      kit: ['lookup']
    });

    // A new chat starts with the choice of the one the person was in, as it takes its servers.
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    const fresh = (await pane().getAttribute('data-conversation-id'))!;
    assert.notEqual(fresh, id);
    assert.deepEqual((await d.fixture.host.call('assistant.get', { conversationId: fresh })).toolsOffered, {
      kit: ['lookup']
    });
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('option').last().click();
    await pane()
      .and(page.locator(`[data-conversation-id="${id}"]`))
      .waitFor();

    // Opened again: the row says what is offered; Offer all offers every tool, those added later too.
    await pane().getByRole('button', { name: 'Settings' }).click();
    assert.equal(await row.locator('.chat-server-tools > .muted').textContent(), 'Only 1 of its tools');
    await row.getByRole('button', { name: 'Choose tools… of Server kit' }).click();
    await list.getByRole('button', { name: 'Offer all' }).click();
    assert.equal(await row.locator('.chat-server-tools > .muted').textContent(), 'All its tools');
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await settings().waitFor({ state: 'detached' });
    await send('And now?', 'All of them.');
    assert.equal(offered().length, 3);
    assert.equal((await d.fixture.host.call('assistant.get', { conversationId: id })).toolsOffered, undefined);

    // A choice goes with its server: untick it (as Turn off tools and retry does) and tick it again,
    // and it offers all its tools, as on a first tick.
    await d.fixture.host.call('assistant.update', { conversationId: id, toolsOffered: { kit: ['clock'] } });
    await d.fixture.host.call('assistant.update', { conversationId: id, serverIds: [] });
    await d.fixture.host.call('assistant.update', { conversationId: id, serverIds: ['kit'] });
    assert.equal((await d.fixture.host.call('assistant.get', { conversationId: id })).toolsOffered, undefined);
    assert.deepEqual(d.pageErrors, []);
  });
});
