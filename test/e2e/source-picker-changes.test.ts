import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator } from 'playwright-core';
import { z } from 'zod';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * The Assistant's picker of prompts and resources lists them again when their server says they
 * changed (`notifications/prompts/list_changed`, `notifications/resources/list_changed`, told to
 * the Desk as `sources.changed`), as the Tools screen does for tools: it need not be closed and
 * opened again, and a prompt's form open in it stays, with what was typed.
 */
describe('the Assistant’s prompt and resource picker, when its server’s lists change', () => {
  let d: DeskFixture;
  const mcp = new McpServer(
    { name: 'library', version: '1.0.0' },
    { capabilities: { prompts: { listChanged: true }, resources: { listChanged: true } } }
  );
  mcp.registerPrompt(
    'summarize',
    { description: 'Summarize a topic', argsSchema: { topic: z.string() } },
    ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}.` } }]
    })
  );

  before(async () => {
    d = await startDesk(
      { library: { ...peerServer('library'), server: mcp.server } },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1200, height: 800 } }
    );
    const { host } = d.fixture;
    // Never asked here: nothing needs to answer at its address.
    await saveFakeProvider(host, 'http://127.0.0.1:9/v1');
    await host.call('assistant.create', {
      title: 'Reading',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['library']
    });
  });

  after(async () => {
    await d?.close();
  });

  it('shows a prompt and a resource the server adds while it is open, keeping a prompt’s form and what was typed', async () => {
    const { page, pageErrors } = d;
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('Reading', { exact: true }).click();
    const pane = page.locator('section.chat-pane');
    await pane.getByRole('heading', { name: 'Reading' }).waitFor();
    await pane.getByRole('button', { name: 'Attach a prompt or resource' }).click();
    const picker = pane.getByRole('dialog', { name: 'Add a prompt or resource' });
    const prompts = (): Locator => picker.getByRole('region', { name: 'Prompts' });
    const resources = (): Locator => picker.getByRole('region', { name: 'Resources' });
    await prompts().getByRole('button', { name: 'summarize' }).waitFor();
    await resources().getByText('None.').waitFor();

    // Registered while connected: the SDK server tells of it.
    mcp.registerPrompt('translate', { description: 'Translate a text' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Translate.' } }]
    }));
    await prompts().getByRole('button', { name: 'translate' }).waitFor();

    await prompts().getByRole('button', { name: 'summarize' }).click();
    const form = picker.getByRole('form', { name: 'Arguments of summarize' });
    await form.getByRole('textbox', { name: /^topic/ }).fill('tides');
    // Read again behind the form (the page asks the host), which stays with what was typed.
    const readAgain = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/call') && /"assistant\.sources"/.test(response.request().postData() ?? '')
    );
    mcp.registerResource('notes', 'notes://today', { mimeType: 'text/plain' }, () => ({
      contents: [{ uri: 'notes://today', text: 'Notes' }]
    }));
    await readAgain;
    assert.equal(await form.getByRole('textbox', { name: /^topic/ }).inputValue(), 'tides');
    await form.getByRole('button', { name: 'Back' }).click();
    await resources().getByRole('button', { name: 'notes', exact: true }).waitFor();
    assert.deepEqual(await prompts().getByRole('button').allTextContents(), ['summarize', 'translate']);
    assert.deepEqual(pageErrors, []);
  });
});
