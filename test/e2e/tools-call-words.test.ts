import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { nextEvent, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * A server whose one tool, `ask`, asks the person a question at once (as server-everything's
 * trigger-elicitation-request-async does) and returns a result that says how they answered.
 */
function askingPeer(name: string): PeerServer {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'ask', inputSchema: { type: 'object', properties: {} } }]
  }));
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `Which colour for ${name}?`,
          requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } }
        }
      },
      ElicitResultSchema
    );
    return { content: [{ type: 'text', text: `The person's answer: ${answer.action}` }] };
  });
  return { server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

describe('what the live region says of a plain tool call on the Tools screen', () => {
  let d: DeskFixture;

  before(async () => {
    // Two servers with a tool of the same name, as two copies of server-everything have.
    d = await startDesk({ alpha: askingPeer('alpha'), beta: askingPeer('beta') });
  });

  after(async () => {
    await d?.close();
  });

  /** Calls `ask` on `serverId` from its form; resolves with the Inbox item of its question. */
  async function callAsk(serverId: string) {
    const { page, fixture } = d;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption(serverId);
    const form = await openToolForm(tools, 'ask');
    const asked = nextEvent(fixture.host, 'inbox.added', ({ item }) => item.serverId === serverId);
    await form.getByRole('button', { name: 'Call tool' }).click();
    return (await asked).item;
  }

  it('says the call runs as it starts, before the question it caused, and says its end as a result returned', async () => {
    const { page, fixture } = d;
    await recordSaid(page);
    const item = await callAsk('alpha');
    await saidTimes(page, /New in the inbox: a question from Server alpha\./);
    await saidTimes(page, /ask on Server alpha is running\./);
    // Declined: the call returns a result that says so, which is not the question answered.
    await fixture.host.dispatch('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    await saidTimes(page, /^ask on Server alpha returned its result\.$/);
    const heard = await said(page);
    // In the order heard (two messages of one frame are one line, in the order given).
    const all = heard.join(' | ');
    assert.ok(
      all.indexOf('ask on Server alpha is running.') < all.indexOf('New in the inbox: a question from Server alpha.'),
      `"is running" before the question: ${all}`
    );
    assert.doesNotMatch(all, / answered\./);
    assert.equal(all.split('ask on Server alpha is running.').length - 1, 1, `said once: ${all}`);
    assert.deepEqual(d.pageErrors, []);
  });

  it('tells two calls of one tool name on two servers apart by their server', async () => {
    const { page, fixture } = d;
    await recordSaid(page);
    const first = await callAsk('alpha');
    const second = await callAsk('beta');
    await saidTimes(page, /ask on Server alpha is running\./);
    await saidTimes(page, /ask on Server beta is running\./);
    await fixture.host.dispatch('inbox.answer', { id: second.id, answer: { action: 'decline' } });
    await saidTimes(page, /^ask on Server beta returned its result\.$/);
    await fixture.host.dispatch('inbox.answer', { id: first.id, answer: { action: 'accept', content: {} } });
    await saidTimes(page, /^ask on Server alpha returned its result\.$/);
    const heard = await said(page);
    assert.equal(
      heard.filter((text) => /\bask (is running|returned its result)\./.test(text)).length,
      0,
      heard.join(' | ')
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('says a call cancelled from Running calls once, naming its server, whether its form or another window started it', async () => {
    const { page, fixture } = d;
    await recordSaid(page);
    await callAsk('beta');
    await page.evaluate(() => (location.hash = '#tools/running'));
    await page.getByRole('button', { name: /^Cancel ask on Server beta, started .*, in Running calls$/ }).click();
    await saidTimes(page, /The call of ask on Server beta was cancelled\./);
    // Started from its form here: the form says it, and Running calls does not say it again.
    assert.deepEqual(
      (await said(page)).filter((text) => text.includes('cancelled')),
      ['The call of ask on Server beta was cancelled.']
    );

    // Started elsewhere (another window, here the host itself): Running calls says it.
    await recordSaid(page);
    const asked = nextEvent(fixture.host, 'inbox.added', ({ item }) => item.serverId === 'alpha');
    const call = fixture.host.call('tools.call', {
      serverId: 'alpha',
      name: 'ask',
      arguments: {},
      callId: 'elsewhere-1'
    });
    const ended = call.then(
      () => undefined,
      (error: unknown) => error
    );
    await asked;
    await page.getByRole('button', { name: /^Cancel ask on Server alpha, started .*, in Running calls$/ }).click();
    await saidTimes(page, /^ask on Server alpha cancelled\.$/);
    await ended;
    assert.deepEqual(d.pageErrors, []);
  });
});
