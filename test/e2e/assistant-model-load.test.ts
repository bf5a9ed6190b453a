import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { LOCAL_MODEL_BASE_URL } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { LocalModelError } from '../../app/sampling/local-model.js';
import { HeldModelLoads } from '../support/held-model-loads.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { assertNoViolations } from './axe-check.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, saidTimes } from './live-region.js';
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

const NO_TOOLS = 'no tools: the descriptions of your servers’ 8 tools do not fit this model’s context of 512 tokens';

/**
 * New chat on a model file whose load takes a while (held by the test, as a large model's is):
 * the chat shows at once, its header says the model is loading (a bar that moves, then how far)
 * and screen readers hear it; a message typed and sent meanwhile is answered once the model has
 * loaded, the header then saying why the chat offers no tools; a load that fails says why, and
 * Retry loads it again.
 */
describe('New chat on a model file while its model loads (stories260K, its load held)', () => {
  let d: DeskFixture;
  let page: Page;
  const loads = new HeldModelLoads();
  const pane = (): Locator => page.locator('section.chat-pane');
  const header = (): Locator => pane().locator('.chat-header');
  const modelLine = (): Locator => header().locator('p.muted').first();
  const loading = (): Locator => header().locator('.chat-model-load');
  const bar = (): Locator => header().getByRole('progressbar', { name: 'Loading stories260K…' });

  before(async () => {
    d = await startDesk(
      { docs: wordyServer() },
      { host: { keyStore: new InMemoryKeyStore(), modelFiles: loads }, viewport: { width: 1280, height: 800 } }
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
  });

  it('shows the chat at once, its model loading, takes a message meanwhile and answers it once loaded, saying why it offers no tools', async () => {
    await recordSaid(page);
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    const load = await loads.next();
    // Loading: a bar with no value moves without end, and which tools the chat offers is not said yet.
    assert.equal(await loading().textContent(), 'Loading stories260K…');
    assert.equal(await bar().getAttribute('value'), null, 'no progress told: busy, how long unknown');
    assert.equal(await modelLine().textContent(), 'Stories · stories260K');
    await saidTimes(page, /Loading stories260K…/);
    await assertNoViolations(page, 'a new chat whose model is loading');

    // The message box takes a message: it waits for the model.
    await pane().getByLabel('Your message').fill('Once upon a time');
    await pane().getByLabel('Your message').press('Enter');
    await pane().locator('[data-role="user"]').getByText('Once upon a time').waitFor();
    await pane().getByPlaceholder('The model is loading, then answers: wait, or stop it.').waitFor();

    load.progress(0.4);
    await loading().getByText('40%', { exact: true }).waitFor();
    assert.equal(await bar().evaluate((element) => (element as HTMLProgressElement).value), 0.4);
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-load.png') });

    load.release();
    await header().getByText(`Stories · stories260K · ${NO_TOOLS}`, { exact: true }).waitFor();
    assert.equal(await loading().count(), 0);
    await saidTimes(page, new RegExp(`stories260K is ready\\. No tools: ${NO_TOOLS.slice('no tools: '.length)}\\.`));
    // The message sent meanwhile is answered, not failed for the tools that do not fit.
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    const answer = pane().locator('[data-role="assistant"]:not([data-streaming])');
    assert.equal(await answer.count(), 1);
    assert.ok(((await answer.textContent()) ?? '').trim().length > 0, 'the model wrote a story');
    assert.equal(await pane().locator('.chat-error').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says why the model did not load, and Retry loads it again', async () => {
    await recordSaid(page);
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    const problem = `The model file ${MODEL} could not be loaded: not enough memory.`;
    (await loads.next()).fail(new LocalModelError(problem));
    const failed = header().locator('.chat-model-load-failed');
    await failed.getByText(`Could not load stories260K: ${problem}`, { exact: true }).waitFor();
    await saidTimes(page, /Could not load stories260K: The model file .* not enough memory\./);
    await assertNoViolations(page, 'a new chat whose model did not load');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-model-load-failed.png') });

    // Retry by keyboard: the focus goes with the line as it changes, not to the page.
    await failed.getByRole('button', { name: 'Retry' }).focus();
    await page.keyboard.press('Enter');
    await loading().getByText('Loading stories260K…', { exact: true }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.className);
    assert.equal(await focused(), 'chat-model-load small-text');
    // Said again: the load starts again.
    await saidTimes(page, /Loading stories260K…/, 2);
    (await loads.next()).release();
    await header().getByText(`Stories · stories260K · ${NO_TOOLS}`, { exact: true }).waitFor();
    assert.equal(await failed.count(), 0);
    // Loaded, the line goes: the focus is on the chat's title.
    assert.equal(await focused(), 'chat-title');
    assert.deepEqual(d.pageErrors, []);
  });
});
