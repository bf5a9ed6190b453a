import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { HostResult, InboxItem } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';
import { signedOutDataDir, urlRequiredServerConfig } from '../../support/url-required-config.js';

/**
 * MCP 2025-11-25's URL-elicitation-required error (client/elicitation): a server that cannot go
 * on until the person has signed in somewhere answers −32042 with the links to open. Against a
 * real SDK 1.x server over stdio (test/support/url-required-server.ts): each link is asked in the
 * Inbox; once the person agreed to open it the request waits for them, and is sent again, as it
 * was, when they say they are done or when the server says so (`notifications/elicitation/complete`);
 * a declined link ends the request with the server's reason; a task-augmented call becomes its
 * task; a prompt asks too; and a request waiting at a restart still waits after it.
 */

const serverConfig = urlRequiredServerConfig;

function textOf(outcome: HostResult<'tools.call'>): string {
  assert.equal(outcome.type, 'result', 'a plain result');
  if (outcome.type !== 'result') return '';
  assert.notEqual(outcome.result.isError, true, JSON.stringify(outcome.result));
  return (outcome.result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

/** The next Inbox item of the server whose link matches. */
function asked(host: Host, site: string): Promise<InboxItem> {
  const matches = (item: InboxItem) => item.serverId === 'files' && String(item.request.url).includes(site);
  const listed = host.inbox.list().find(matches);
  if (listed) return Promise.resolve(listed);
  return nextEvent(host, 'inbox.added', ({ item }) => matches(item)).then(({ item }) => item);
}

/** Accepts the link to `site`; resolves with the exchange once it waits for the person. */
async function agreeToOpen(host: Host, site: string) {
  const item = await asked(host, site);
  const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
  await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
  return { item, exchange: (await waiting).exchange! };
}

describe('a 2025-11-25 server that needs a link opened first (URL elicitation required, −32042)', () => {
  let host: Host;
  const data = tempDir();
  const stateFile = path.join(data.dir, '..', `${path.basename(data.dir)}-signed-in.json`);

  before(async () => {
    host = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await host.call('servers.add', serverConfig(stateFile));
    const view = await host.connect('files');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
  });

  beforeEach(() => fs.writeFileSync(stateFile, '[]'));

  after(async () => {
    await host.close();
    data.remove();
    fs.rmSync(stateFile, { force: true });
  });

  const call = (name: string, args: Record<string, unknown> = {}, asTask?: boolean) =>
    host.call('tools.call', { serverId: 'files', name, arguments: args, ...(asTask !== undefined && { asTask }) });

  it('asks the link in the Inbox, waits for the person, and sends the call again when the server says the sign-in is done', async () => {
    const calling = call('list-files');
    const { item, exchange } = await agreeToOpen(host, 'files.example.com');
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.origin, 'tool list-files');
    assert.equal(item.request.mode, 'url');
    assert.equal(item.request.elicitationId, 'files-link');
    assert.equal(item.request.message, 'Sign in to Example files so that this server can read it.');
    assert.equal(exchange.protocol, '2025-11-25');
    assert.equal(exchange.method, 'tools/call');
    assert.deepEqual(exchange.params, { name: 'list-files', arguments: {} });

    // What the third party's page does once the person signed in: the server notifies.
    const retrying = nextEvent(host, 'exchange.changed', ({ exchange: e }) => e?.state === 'retrying');
    assert.equal(textOf(await call('finish-sign-in', { account: 'files', notify: true })), 'signed in to files');
    await retrying;
    assert.equal(textOf(await calling), 'files: a.txt, b.txt');
    assert.deepEqual(await host.call('exchanges.list', {}), []);

    // History names the call the link was asked for, not Taskdesk's own id for the wait, and finds it by it.
    const { entries } = await host.call('history.list', { filter: { kind: 'elicitation', text: 'list-files' } });
    const question = entries.find((entry) => entry.relatedTaskId === exchange.exchangeId);
    assert.equal(question?.askedFor, 'tool list-files');
    assert.equal(question?.title, 'Sign in to Example files so that this server can read it.');
  });

  it('without a word from the server, waits until the person continues', async () => {
    const calling = call('list-files');
    const { exchange } = await agreeToOpen(host, 'files.example.com');
    await call('finish-sign-in', { account: 'files', notify: false });
    assert.equal((await host.call('exchanges.list', {}))[0]?.state, 'waiting-for-you');
    assert.equal((await host.call('exchanges.continue', { exchangeId: exchange.exchangeId })).state, 'retrying');
    assert.equal(textOf(await calling), 'files: a.txt, b.txt');
  });

  it('continued before the sign-in, asks the same link again, marked as asked again (the first time it is not)', async () => {
    const calling = call('list-files');
    const { item: first, exchange } = await agreeToOpen(host, 'files.example.com');
    assert.equal(first.askedAgain, undefined);
    const again = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'files');
    await host.call('exchanges.continue', { exchangeId: exchange.exchangeId });
    const { item: second } = await again;
    assert.equal(second.request.url, first.request.url);
    assert.equal(second.askedAgain, true);
    assert.deepEqual((await host.call('exchanges.list', {}))[0]?.linksAskedAgain, [first.request.url]);
    await host.call('inbox.answer', { id: second.id, answer: { action: 'decline' } });
    await assert.rejects(calling, /you declined it/);
  });

  it('with two links, goes on only once the server says both are done, and ignores an id it never asked about', async () => {
    const calling = call('merge');
    const files = await asked(host, 'files.example.com');
    const calendar = await asked(host, 'calendar.example.com');
    await host.call('inbox.answer', { id: files.id, answer: { action: 'accept' } });
    const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await host.call('inbox.answer', { id: calendar.id, answer: { action: 'accept' } });
    const { exchangeId } = await waiting;

    await call('finish-sign-in', { account: 'files', notify: true });
    await call('finish-sign-in', { account: 'elsewhere', notify: true });
    assert.equal((await host.call('exchanges.list', {}))[0]?.state, 'waiting-for-you', 'one link is not done yet');
    const retrying = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'retrying');
    await call('finish-sign-in', { account: 'calendar', notify: true });
    assert.equal((await retrying).exchangeId, exchangeId);
    assert.equal(textOf(await calling), 'merged');
  });

  it('a declined link ends the call with the server’s reason, and nothing is sent again', async () => {
    const calling = call('list-files');
    const item = await asked(host, 'files.example.com');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    await assert.rejects(calling, (error: { code: number; message: string }) => {
      assert.equal(error.code, -32042);
      assert.match(error.message, /Tool "list-files" on "Files server" can go on only once you have opened its link/);
      assert.match(error.message, /Sign in to Example files/);
      assert.match(error.message, /you declined it/);
      return true;
    });
    assert.equal(host.inbox.list().length, 0, 'the link is not asked again');
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('a call asked as a task becomes the task once the link is done, and is followed to its result', async () => {
    const followed = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'sync-files' && event.task.outcome !== undefined
    );
    const calling = call('sync-files', {}, true);
    await agreeToOpen(host, 'files.example.com');
    await call('finish-sign-in', { account: 'files', notify: true });
    const outcome = await calling;
    assert.equal(outcome.type, 'task');
    const event = await followed;
    assert.ok(event.type === 'changed' && outcome.type === 'task');
    assert.equal(event.task.outboundId, outcome.task.outboundId);
    assert.equal(event.task.outcome?.type, 'result');
    assert.deepEqual(event.task.outcome?.type === 'result' && event.task.outcome.result.content, [
      { type: 'text', text: 'synced: a.txt, b.txt' }
    ]);
  });

  it('cancelling the call while it waits for the person withdraws the wait', async () => {
    const calling = call('list-files');
    await agreeToOpen(host, 'files.example.com');
    const [call1] = await host.call('tools.runningCalls', {});
    assert.ok(call1, 'the call is running');
    await host.call('tools.cancelCall', { callId: call1.callId });
    await assert.rejects(calling, { code: -32800 });
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('a prompt that needs the link is got once it is done', async () => {
    const getting = host.call('prompts.get', { serverId: 'files', name: 'briefing' });
    await agreeToOpen(host, 'files.example.com');
    await call('finish-sign-in', { account: 'files', notify: true });
    const prompt = await getting;
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Briefing from your files' } }]);
  });
});

describe('a 2025-11-25 request waiting for a link across a restart', () => {
  it('still waits after the restart, and is sent again when the server says the sign-in is done', async (t) => {
    const data = signedOutDataDir();
    const { stateFile } = data;
    t.after(() => data.remove());
    const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await first.call('servers.add', serverConfig(stateFile));
    assert.equal((await first.connect('files')).state.status, 'ready');
    const calling = first.call('tools.call', { serverId: 'files', name: 'list-files', arguments: {} });
    calling.catch(() => undefined);
    const { exchange: before } = await agreeToOpen(first, 'files.example.com');
    await first.close();
    await assert.rejects(calling);

    const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      const [pending] = await second.call('exchanges.list', {});
      assert.equal(pending?.exchangeId, before.exchangeId);
      assert.equal(pending?.state, 'waiting-for-you');
      assert.equal(pending?.protocol, '2025-11-25');
      assert.equal(second.inbox.list().length, 0, 'the answered link is not asked again');
      assert.equal((await second.connect('files')).state.status, 'ready');
      const ended = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'completed');
      await second.call('tools.call', {
        serverId: 'files',
        name: 'finish-sign-in',
        arguments: { account: 'files', notify: true }
      });
      const { exchange } = await ended;
      const result = exchange?.outcome?.type === 'result' ? exchange.outcome.result : {};
      assert.deepEqual(result.content, [{ type: 'text', text: 'files: a.txt, b.txt' }]);
      await second.call('exchanges.forget', { exchangeId: before.exchangeId });
    } finally {
      await second.close();
    }
  });

  it('a call asked as a task, sent again after the restart, becomes its task and is followed to the result', async (t) => {
    const data = signedOutDataDir();
    const { stateFile } = data;
    t.after(() => data.remove());
    const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await first.call('servers.add', serverConfig(stateFile));
    assert.equal((await first.connect('files')).state.status, 'ready');
    const calling = first.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {}, asTask: true });
    calling.catch(() => undefined);
    const { exchange: before } = await agreeToOpen(first, 'files.example.com');
    assert.equal(before.asTask, true);
    await first.close();

    const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      assert.equal((await second.connect('files')).state.status, 'ready');
      const ended = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'completed');
      const followed = nextEvent(
        second,
        'outbound.changed',
        (event) => event.type === 'changed' && event.task.toolName === 'sync-files' && event.task.outcome !== undefined
      );
      await second.call('tools.call', {
        serverId: 'files',
        name: 'finish-sign-in',
        arguments: { account: 'files', notify: true }
      });
      const { exchange } = await ended;
      assert.equal(exchange?.outcome?.type, 'task');
      const event = await followed;
      assert.ok(event.type === 'changed' && exchange?.outcome?.type === 'task');
      assert.equal(event.task.outboundId, exchange.outcome.outboundId);
      assert.deepEqual(event.task.outcome?.type === 'result' && event.task.outcome.result.content, [
        { type: 'text', text: 'synced: a.txt, b.txt' }
      ]);
    } finally {
      await second.close();
    }
  });
});
