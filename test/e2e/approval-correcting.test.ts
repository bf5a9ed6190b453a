import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { answered, saveFakeProvider, settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/** A room for a guest from a date, for a number of nights or to a leave date (not both). */
const reserveSchema = {
  type: 'object',
  properties: {
    guest: { type: 'string' },
    arrive: { type: 'string', format: 'date' },
    leave: { type: 'string', format: 'date' },
    nights: { type: 'integer', minimum: 1 }
  },
  required: ['guest', 'arrive'],
  not: { required: ['leave', 'nights'] }
};

/** A server whose one tool, `reserve`, says what it reserved. */
function hotel(): PeerServer {
  const server = new Server({ name: 'hotel', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'reserve', inputSchema: reserveSchema as { type: 'object' } }]
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: 'text', text: `Reserved ${JSON.stringify(request.params.arguments)}` }]
  }));
  return { ...peerServer('hotel'), server };
}

/**
 * A tool call's arguments edited in its form on the Assistant's approval card, with fields to
 * correct: each marked field says what it needs, and the summary under the buttons ("2 fields
 * need correcting.") follows the marks as the person corrects them, going once none is left,
 * as the Servers forms' does.
 */
describe('an approval card’s arguments to correct, in headless Chromium against the real core', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  let conversationId: string;
  const pane = (): Locator => page.locator('section.chat-pane');

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({ hotel: hotel() }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    ({ id: conversationId } = await d.fixture.host.call('assistant.create', {
      title: 'Rooms',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['hotel']
    }));
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Rooms' }).waitFor();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  /** The model asks to reserve with `args`; the card's form, opened by Edit arguments. */
  async function editCall(id: string, args: Record<string, unknown>, answer: string): Promise<Locator> {
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id, name: 'hotel__reserve', arguments: JSON.stringify(args) }] },
      { kind: 'text', tokens: [answer] }
    );
    await pane().getByLabel('Your message').fill('Book a room for Ada');
    await pane().getByLabel('Your message').press('Enter');
    const card = pane().getByRole('group', { name: 'Approve reserve?' });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    await card.getByRole('group', { name: 'Arguments', exact: true }).getByLabel('guest').waitFor();
    return card;
  }

  /** The message under the field `label` of `card`'s form. */
  const errorOf = async (card: Locator, label: string): Promise<Locator> =>
    card.locator(`#${await card.getByLabel(label).getAttribute('id')}-error`);

  it('counts the fields the form marked down as they are corrected, then takes the summary away', async () => {
    const card = await editCall('r1', { guest: 'Ada', arrive: '2026-03-01', nights: 3 }, 'Booked.');
    await card.getByLabel('guest').fill('');
    await card.getByLabel('arrive').fill('');
    await card.getByRole('button', { name: 'Approve with edits' }).click();
    const what = card.locator('.action-error-what');
    await what.filter({ hasText: '2 fields need correcting.' }).waitFor();
    assert.equal(await (await errorOf(card, 'guest')).textContent(), 'Required');

    await card.getByLabel('guest').fill('Ada Lovelace');
    await (await errorOf(card, 'guest')).waitFor({ state: 'hidden' });
    await what.filter({ hasText: 'One field needs correcting.' }).waitFor();

    await card.getByLabel('arrive').fill('2026-03-02');
    await (await errorOf(card, 'arrive')).waitFor({ state: 'hidden' });
    // Nothing is marked any more: no summary says one is.
    await what.waitFor({ state: 'detached' });
    assert.equal(await card.locator('.action-error').isVisible(), false);
    assert.equal(await card.locator('[aria-invalid="true"]').count(), 0);

    await card.getByRole('button', { name: 'Approve with edits' }).click();
    await pane().locator('[data-tool-call-id="r1"][data-state="completed"]').waitFor();
    await settled(d.fixture.host, conversationId, answered);
  });

  it('keeps the host’s message that no field holds as its count goes down after a refusal', async () => {
    const card = await editCall('r2', { guest: 'Ada', arrive: '2026-03-01', nights: 3 }, 'Booked again.');
    // Chromium's date input takes a five-digit year; the schema's format date does not: only the
    // host finds these, and that a leave date and nights were both given, which no field holds.
    await card.getByLabel('arrive').fill('41345-03-01');
    await card.getByLabel('leave').fill('41345-03-04');
    await card.getByRole('button', { name: 'Approve with edits' }).click();
    const what = card.locator('.action-error-what');
    await what.filter({ hasText: '2 fields need correcting.' }).waitFor();
    assert.equal(await what.textContent(), '2 fields need correcting. must NOT be valid.');
    assert.equal(await (await errorOf(card, 'arrive')).textContent(), 'Enter a valid date');

    await card.getByLabel('arrive').fill('2026-03-01');
    await (await errorOf(card, 'arrive')).waitFor({ state: 'hidden' });
    await what.filter({ hasText: 'One field needs correcting.' }).waitFor();
    assert.equal(await what.textContent(), 'One field needs correcting. must NOT be valid.');

    await card.getByLabel('leave').fill('2026-03-04');
    await (await errorOf(card, 'leave')).waitFor({ state: 'hidden' });
    await what.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'Deny…' }).click();
    await card.getByRole('button', { name: 'Deny the call' }).click();
    await pane().locator('[data-tool-call-id="r2"][data-state="denied"]').waitFor();
    await settled(d.fixture.host, conversationId, answered);
    assert.deepEqual(d.pageErrors, []);
  });
});
