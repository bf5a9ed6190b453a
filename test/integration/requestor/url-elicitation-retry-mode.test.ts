import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { HostResult, InboxItem } from '../../../app/contract/host-api.js';
import type { ServerConfigInput } from '../../../app/mcp/server-config.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { compiledProgram } from '../../support/compiled-program.js';
import { nextEvent } from '../../support/host-fixture.js';
import { signedOutDataDir } from '../../support/url-required-config.js';

/**
 * A 2025-11-25 `tools/call` answered with URL-elicitation-required (−32042) is sent again once
 * its link is done: after a reconnect or a restart, the server may have changed meanwhile. MCP
 * 2025-11-25 (tasks): a client MUST NOT augment a `tools/call` with a task when the server does
 * not declare `tasks.requests.tools.call`, nor for a tool whose `execution.taskSupport` is absent
 * or `forbidden`, and MUST for one whose `taskSupport` is `required`. So the retry is decided as a
 * first call is, from the server and the tool as they are now. Against the real SDK server of
 * test/support/url-required-server.ts, whose `sync-files` is offered as its `<offer-file>` says
 * when it starts, and which records every `tools/call` it receives.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../../support/url-required-server.ts', import.meta.url));

/** A server whose sign-in, offer of `sync-files` and received calls live beside the data directory. */
function changingServer(t: TestContext) {
  const data = signedOutDataDir();
  const offerFile = `${data.dir}-offer.txt`;
  const receivedFile = `${data.dir}-received.jsonl`;
  fs.writeFileSync(receivedFile, '');
  t.after(() => {
    data.remove();
    fs.rmSync(offerFile, { force: true });
    fs.rmSync(receivedFile, { force: true });
  });
  const config: ServerConfigInput = {
    id: 'files',
    name: 'Files server',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: [compiledProgram(serverScript), data.stateFile, offerFile, receivedFile],
      cwd: root
    },
    autoConnect: false,
    protocol: '2025-11-25'
  };
  return {
    dataDir: data.dir,
    config,
    /** How the server offers `sync-files` from its next start. */
    offer: (how: 'optional' | 'required' | 'plain' | 'gone') => fs.writeFileSync(offerFile, how),
    /** The params of every `tools/call` of `sync-files` the server received, in order. */
    received: () =>
      fs
        .readFileSync(receivedFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { name: string; task?: { ttl?: number } })
        .filter((params) => params.name === 'sync-files')
  };
}

function newHost(dataDir: string): Host {
  return createHost({ dataDir, autoConnect: false, keyStore: new InMemoryKeyStore() });
}

async function connect(host: Host): Promise<void> {
  const view = await host.connect('files');
  assert.equal(view.state.status, 'ready', view.state.reason);
}

/** Agrees to open the link the server asks for; resolves with the exchange once it waits for the person. */
async function agreeToOpen(host: Host) {
  const matches = (item: InboxItem) => item.serverId === 'files' && String(item.request.url).includes('files.example');
  const item =
    host.inbox.list().find(matches) ?? (await nextEvent(host, 'inbox.added', ({ item: added }) => matches(added))).item;
  const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
  await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
  return (await waiting).exchange!;
}

/** The person signs in on the third party's page (the server is not asked to tell Taskdesk). */
async function signIn(host: Host): Promise<void> {
  await host.call('tools.call', {
    serverId: 'files',
    name: 'finish-sign-in',
    arguments: { account: 'files', notify: false }
  });
}

/** The server is updated: it offers `sync-files` otherwise from its next start, and Taskdesk reconnects. */
async function reconnectAs(host: Host, server: ReturnType<typeof changingServer>, how: 'required' | 'plain' | 'gone') {
  await host.call('servers.disconnect', { serverId: 'files' });
  server.offer(how);
  await connect(host);
}

function textOf(outcome: HostResult<'tools.call'>): string {
  assert.equal(outcome.type, 'result', `a plain result: ${JSON.stringify(outcome)}`);
  if (outcome.type !== 'result') return '';
  assert.notEqual(outcome.result.isError, true, JSON.stringify(outcome.result));
  return (outcome.result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

/** The exchange's end, kept for the person (no caller waits for it after a restart). */
function endOf(host: Host, exchangeId: string) {
  const ends = ['completed', 'failed', 'cancelled'];
  return nextEvent(
    host,
    'exchange.changed',
    ({ exchange }) => exchange?.exchangeId === exchangeId && ends.includes(exchange.state)
  );
}

/** The next task of `sync-files` followed to its end. */
function followedToEnd(host: Host) {
  return nextEvent(
    host,
    'outbound.changed',
    (event) => event.type === 'changed' && event.task.toolName === 'sync-files' && event.task.outcome !== undefined
  );
}

describe('a 2025-11-25 call sent again after its link, on a server changed meanwhile', () => {
  it('asked as a task, goes plainly once the server no longer declares tasks, and its result is the call’s', async (t) => {
    const server = changingServer(t);
    server.offer('optional');
    const host = newHost(server.dataDir);
    t.after(() => host.close());
    await host.call('servers.add', server.config);
    await connect(host);
    const calling = host.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {}, asTask: true });
    const exchange = await agreeToOpen(host);
    assert.equal(exchange.asTask, true);

    await reconnectAs(host, server, 'plain');
    await signIn(host);
    await host.call('exchanges.continue', { exchangeId: exchange.exchangeId });

    assert.equal(textOf(await calling), 'synced: a.txt, b.txt');
    const [first, retry, ...more] = server.received();
    assert.equal(typeof first?.task?.ttl, 'number', 'the first call went as a task');
    assert.ok(retry, 'the call was sent again');
    assert.equal('task' in retry, false, `no task on the retry: ${JSON.stringify(retry)}`);
    assert.deepEqual(more, []);
    assert.deepEqual(await host.call('outbound.list', {}), [], 'no task was made of it');
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('sent plainly, goes as a task once the tool requires one, and becomes that task, followed to its result', async (t) => {
    const server = changingServer(t);
    server.offer('plain');
    const host = newHost(server.dataDir);
    t.after(() => host.close());
    await host.call('servers.add', server.config);
    await connect(host);
    const calling = host.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {} });
    const exchange = await agreeToOpen(host);
    assert.equal(exchange.asTask, false);

    await reconnectAs(host, server, 'required');
    await signIn(host);
    const followed = followedToEnd(host);
    await host.call('exchanges.continue', { exchangeId: exchange.exchangeId });

    const outcome = await calling;
    assert.equal(outcome.type, 'task', `a task: ${JSON.stringify(outcome)}`);
    const [first, retry, ...more] = server.received();
    assert.equal(first && 'task' in first, false, 'the first call went plainly');
    assert.equal(typeof retry?.task?.ttl, 'number', `a task on the retry: ${JSON.stringify(retry)}`);
    assert.deepEqual(more, []);
    const event = await followed;
    assert.ok(event.type === 'changed' && outcome.type === 'task');
    assert.equal(event.task.outboundId, outcome.task.outboundId);
    assert.deepEqual(event.task.outcome?.type === 'result' && event.task.outcome.result.content, [
      { type: 'text', text: 'synced: a.txt, b.txt' }
    ]);
  });

  it('ends with the reason in words, sending nothing, when the tool is gone', async (t) => {
    const server = changingServer(t);
    server.offer('optional');
    const host = newHost(server.dataDir);
    t.after(() => host.close());
    await host.call('servers.add', server.config);
    await connect(host);
    const calling = host.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {}, asTask: true });
    const exchange = await agreeToOpen(host);

    await reconnectAs(host, server, 'gone');
    await signIn(host);
    await host.call('exchanges.continue', { exchangeId: exchange.exchangeId });

    await assert.rejects(calling, (error: { message: string }) => {
      assert.equal(
        error.message,
        'Server "Files server" no longer has tool "sync-files", so the call was not sent again.'
      );
      return true;
    });
    assert.equal(server.received().length, 1, 'only the first call was sent');
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });
});

describe('a 2025-11-25 call waiting for its link across a restart, on a server changed meanwhile', () => {
  it('asked as a task, goes plainly after the restart once the server no longer declares tasks, and keeps the result', async (t) => {
    const server = changingServer(t);
    server.offer('optional');
    const first = newHost(server.dataDir);
    await first.call('servers.add', server.config);
    await connect(first);
    const calling = first.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {}, asTask: true });
    calling.catch(() => undefined);
    const before = await agreeToOpen(first);
    await first.close();

    server.offer('plain');
    const second = newHost(server.dataDir);
    t.after(() => second.close());
    await connect(second);
    await signIn(second);
    const ended = endOf(second, before.exchangeId);
    await second.call('exchanges.continue', { exchangeId: before.exchangeId });

    const { exchange } = await ended;
    assert.equal(exchange?.outcome?.type, 'result', JSON.stringify(exchange?.outcome));
    assert.deepEqual(exchange.outcome.type === 'result' && exchange.outcome.result.content, [
      { type: 'text', text: 'synced: a.txt, b.txt' }
    ]);
    assert.equal(exchange.asTask, false, 'kept as it was sent');
    const retry = server.received()[1];
    assert.ok(retry, 'the call was sent again');
    assert.equal('task' in retry, false, `no task on the retry: ${JSON.stringify(retry)}`);
    assert.deepEqual(await second.call('outbound.list', {}), [], 'no task was made of it');
  });

  it('sent plainly, goes as a task after the restart once the tool requires one, and becomes that task', async (t) => {
    const server = changingServer(t);
    server.offer('plain');
    const first = newHost(server.dataDir);
    await first.call('servers.add', server.config);
    await connect(first);
    const calling = first.call('tools.call', { serverId: 'files', name: 'sync-files', arguments: {} });
    calling.catch(() => undefined);
    const before = await agreeToOpen(first);
    await first.close();

    server.offer('required');
    const second = newHost(server.dataDir);
    t.after(() => second.close());
    await connect(second);
    await signIn(second);
    const ended = endOf(second, before.exchangeId);
    const followed = followedToEnd(second);
    await second.call('exchanges.continue', { exchangeId: before.exchangeId });

    const { exchange } = await ended;
    assert.equal(exchange?.outcome?.type, 'task', JSON.stringify(exchange?.outcome));
    const retry = server.received()[1];
    assert.equal(typeof retry?.task?.ttl, 'number', `a task on the retry: ${JSON.stringify(retry)}`);
    const event = await followed;
    assert.ok(event.type === 'changed' && exchange.outcome.type === 'task');
    assert.equal(event.task.outboundId, exchange.outcome.outboundId);
    assert.deepEqual(event.task.outcome?.type === 'result' && event.task.outcome.result.content, [
      { type: 'text', text: 'synced: a.txt, b.txt' }
    ]);
  });
});
