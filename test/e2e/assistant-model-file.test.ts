import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { LOCAL_MODEL_BASE_URL } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { assertNoViolations } from './axe-check.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

// The real tiny model beside the project (stories260K, a context of 512 tokens).
const MODEL = path.resolve(root, '../shared/models/stories260K.gguf');

/** A server whose tools' descriptions alone are longer than stories260K's 512 tokens, as server-everything's are. */
function wordyServer(): PeerServer {
  const mcp = new McpServer({ name: 'docs', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (let index = 0; index < 8; index++)
    mcp.registerTool(
      `look_up_${index}`,
      {
        description: 'Looks a thing up in a long and detailed way. '.repeat(12),
        inputSchema: { query: z.string().describe('What to look up') }
      },
      async ({ query }) => ({ content: [{ type: 'text', text: `Found ${query}.` }] })
    );
  return { ...peerServer('docs'), server: mcp.server };
}

/**
 * The Assistant's first chat on a model file, as a newcomer met it at 1280×800: the connected
 * server's tools, whose descriptions do not fit the model's context, are left out of the new chat,
 * its header says why, and the person can still tick them. Ticked, the card of the first message
 * says so once, in words for a model on this computer; a retry with tools that cannot fit is not
 * made; Turn off tools and retry gets the answer, and the next chat starts with the usual tools
 * again; a server's refusal keeps a provider's words. The list and the settings of that screen
 * show whole.
 */
describe('the Assistant on a model file whose context the tools do not fit (stories260K)', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const pane = (): Locator => page.locator('section.chat-pane');
  const header = (): Locator => pane().locator('.chat-header');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  const card = (): Locator => pane().locator('.chat-error');
  const box = async (locator: Locator) => {
    const found = await locator.boundingBox();
    assert.ok(found, 'it shows');
    return found;
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { docs: wordyServer() },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    await d.fixture.host.call('providers.save', {
      id: 'stories',
      name: 'Stories',
      baseURL: LOCAL_MODEL_BASE_URL,
      modelFile: MODEL,
      models: []
    });
    await page.locator('nav').getByRole('link', { name: 'Assistant', exact: true }).click();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('starts without the tools that do not fit, saying why; ticked, fails the first message with one advice in the model’s words; Choose tools… opens the servers, a retry that cannot fit is not made, Turn off tools and retry gets an answer and leaves new chats their tools; a server provider keeps its words', async () => {
    await page.getByRole('button', { name: '+ New chat' }).click();
    await header()
      .getByText(
        'Stories · stories260K · no tools: the descriptions of your servers’ 8 tools do not fit this model’s context of 512 tokens',
        { exact: true }
      )
      .waitFor();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-file-no-tools.png') });
    // The person can still offer them: ticked and saved, the chat offers them.
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByRole('checkbox', { name: 'Server docs' }).check();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header().getByText('Stories · stories260K · tools of Server docs', { exact: true }).waitFor();
    await pane().getByLabel('Your message').fill('Once upon a time');
    await pane().getByLabel('Your message').press('Enter');
    await card().waitFor();

    // Nothing remote refused it: the model on this computer could not take it.
    assert.equal(await card().locator('.chat-error-title').textContent(), 'The model could not take the request');
    // One advice: the model file's own, not a second, generic one after it.
    assert.equal(
      await card().locator('p').nth(1).textContent(),
      "Stories: The conversation, with the descriptions of the 8 tools it offers, does not fit the model's context of 512 tokens: offer fewer tools (or none), or use a model with a larger context."
    );
    assert.equal(await card().locator('p').count(), 2, 'asked once: no count of tries');
    const actions = card().locator('.actions button');
    assert.deepEqual(await actions.allTextContents(), ['Turn off tools and retry', 'Choose tools…', 'Retry']);
    await assertNoViolations(page, 'the Assistant with the card of a request the model could not take');

    // The list: the title whole, the state under it rather than cutting it.
    const item = page.locator('.chat-list-item').first();
    const itemTitle = item.locator('.chat-list-title');
    assert.equal(await itemTitle.textContent(), 'Once upon a time');
    assert.ok(
      await itemTitle.evaluate((element) => element.scrollWidth <= element.clientWidth),
      'the title shows whole, not cut'
    );
    const state = await box(item.locator('.chat-state-failed'));
    assert.equal(await item.locator('.chat-state-failed').textContent(), 'Needs attention');
    assert.ok(state.y >= (await box(itemTitle)).y + (await box(itemTitle)).height - 1, 'the state is under the title');
    assert.ok(state.x + state.width <= (await box(item)).x + (await box(item)).width, 'the state stays in its item');

    await card().getByRole('button', { name: 'Choose tools…' }).click();
    await settings().waitFor();
    const docs = settings().getByRole('checkbox', { name: 'Server docs' });
    assert.ok(await docs.isChecked());
    // The server's tool list opens, the focus on its first tool: where the tools are chosen.
    const toolList = settings().getByRole('group', { name: 'The tools of Server docs the model is offered' });
    const firstTool = toolList.getByRole('checkbox', { name: 'look_up_0' });
    await page.waitForFunction(
      () => document.activeElement?.closest('.chat-tool-list') !== null && document.activeElement?.matches('input'),
      undefined,
      { timeout: 10_000 }
    );
    assert.ok(await firstTool.evaluate((element) => element === document.activeElement), 'the focus on its first tool');
    // Unticked and ticked again, the server's list is closed, and its box keeps the focus.
    await docs.uncheck();
    await docs.check();
    assert.equal(await toolList.count(), 0, 'its list closed');
    assert.ok(await docs.evaluate((element) => element === document.activeElement), 'the focus on its box');
    await settings().getByRole('button', { name: 'Choose tools… of Server docs' }).click();
    await firstTool.waitFor();

    // The title, the provider and the model in a row, the prompt and the tool rounds under them:
    // each label on one line, the labels of a row at one height, the selects wide enough for a
    // provider's and a model's name.
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-file-settings.png') });
    const grid = settings().locator('.chat-settings-grid');
    const labels = grid.locator('label.field > span');
    assert.deepEqual(await labels.allTextContents(), [
      'Title',
      'Provider',
      'Model',
      'System prompt',
      'Tool rounds per message'
    ]);
    const boxes = await Promise.all([0, 1, 2, 3, 4].map((n) => box(labels.nth(n))));
    const names = ['Title', 'Provider', 'Model', 'System prompt', 'Tool rounds per message'];
    for (const [row, first] of [
      [[1, 2], 0],
      [[4], 3]
    ] as const)
      for (const n of row) {
        const [label, other] = [boxes[n]!, boxes[first]!];
        assert.ok(
          Math.abs(label.height - boxes[0]!.height) < 1,
          `${names[n]}: one line, as Title's (${label.height}, ${boxes[0]!.height})`
        );
        assert.ok(
          Math.abs(label.y - other.y) < 1,
          `${names[n]}: at the height of ${names[first]} (${label.y}, ${other.y})`
        );
      }
    const gridWidth = (await box(grid)).width;
    for (const n of [0, 1]) {
      const select = await box(grid.locator('select').nth(n));
      assert.ok(select.width >= gridWidth / 4, `select ${n}: ${select.width} px of ${gridWidth}`);
    }
    // One tool kept, saved, and Retry: its description alone is more than the context holds, so
    // the model is not asked again; the card says why, and that turning tools off is what is left.
    await toolList.getByRole('button', { name: 'Offer none' }).click();
    await firstTool.check();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header().getByText('Stories · stories260K · tools of Server docs (1 chosen)', { exact: true }).waitFor();
    const failedWords = await card().locator('p').nth(1).textContent();
    await card().getByRole('button', { name: 'Retry', exact: true }).click();
    const refused = card().locator('.action-error:not([hidden])');
    await refused.waitFor();
    assert.equal(
      await refused.locator('.action-error-what').textContent(),
      "The retry did not start. The description of the one tool this chat offers takes more than the model's context of 512 tokens by itself: turn off tools and retry."
    );
    assert.equal(
      await card()
        .getByText(/^Tried \d+ times\.$/)
        .count(),
      0,
      'not tried again'
    );
    assert.equal(await card().locator('p').nth(1).textContent(), failedWords, 'the card as it was');
    assert.equal(await pane().getAttribute('data-status'), 'failed');
    await assertNoViolations(page, 'the card of a retry that was not made');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-file-retried.png') });
    // Open again, with nothing changed in them: as the chat goes on, they close, leaving it in sight.
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().waitFor();
    await card().getByRole('button', { name: 'Turn off tools and retry' }).click();
    await header().getByText('Stories · stories260K · no tools', { exact: true }).waitFor();
    await settings().waitFor({ state: 'detached' });
    // The model has written its whole answer.
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    const answer = pane().locator('[data-role="assistant"]:not([data-streaming])');
    assert.equal(await answer.count(), 1);
    assert.ok(((await answer.textContent()) ?? '').trim().length > 0, 'the model wrote a story');
    assert.equal(await card().count(), 0);
    const id = (await pane().getAttribute('data-conversation-id'))!;
    const saved = await d.fixture.host.call('assistant.get', { conversationId: id });
    assert.deepEqual(saved.serverIds, []);
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-file-answer.png') });

    // Turning tools off was this chat's fix, not a choice for the next: on a model whose context
    // holds them, a new chat offers the server's tools as at first.
    await d.fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }]
    });
    await d.fixture.host.call('assistant.update', { conversationId: id, providerId: 'fake', model: 'fake-small' });
    await header().getByText('Fake LLM · fake-small · no tools', { exact: true }).waitFor();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await header().getByText('Fake LLM · fake-small · tools of Server docs', { exact: true }).waitFor();
    const next = (await pane().getAttribute('data-conversation-id'))!;
    assert.notEqual(next, id);
    assert.deepEqual((await d.fixture.host.call('assistant.get', { conversationId: next })).serverIds, ['docs']);

    // A server's refusal keeps the words of a provider and its advice, and offers no way out of tools.
    llm.enqueue({ kind: 'error', status: 400, message: 'Too many tokens.' });
    await pane().getByLabel('Your message').fill('And then?');
    await pane().getByLabel('Your message').press('Enter');
    await card().waitFor();
    assert.equal(await card().locator('.chat-error-title').textContent(), 'The provider refused the request');
    assert.match(
      (await card().locator('p').nth(1).textContent()) ?? '',
      /Too many tokens\. If the conversation is too long for the model, start a new one or choose a model with a larger context, then retry\.$/
    );
    assert.deepEqual(await card().locator('.actions button').allTextContents(), ['Retry']);
    // Back on the model file: a new chat on it starts without the tools that do not fit, saying why.
    await d.fixture.host.call('assistant.update', {
      conversationId: next,
      providerId: 'stories',
      model: 'stories260K',
      serverIds: []
    });
    await header().getByText('Stories · stories260K · no tools', { exact: true }).waitFor();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await header()
      .getByText(
        'Stories · stories260K · no tools: the descriptions of your servers’ 8 tools do not fit this model’s context of 512 tokens',
        { exact: true }
      )
      .waitFor();
    const fresh = await d.fixture.host.call('assistant.get', {
      conversationId: (await pane().getAttribute('data-conversation-id'))!
    });
    assert.deepEqual(fresh.serverIds, []);
    assert.deepEqual(d.pageErrors, []);
  });
});
