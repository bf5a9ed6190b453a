import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { InputExchanges, type ExchangePeer } from '../../app/requestor/input-exchanges.js';
import { legacyExchangePeer } from '../../app/requestor/legacy-exchange-peer.js';
import { DocumentDir } from '../../app/store/document-dir.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import type { InputExchangeView } from '../../app/contract/input-exchanges.js';
import { ManualClock } from '../support/manual-clock.js';
import { tempDir } from '../support/host-fixture.js';

/**
 * The rules of an exchange that no server of ours breaks on its own, against scripted peers: a
 * request that may become a task is never cancelled with notifications/cancelled (MCP forbids it),
 * and its answer once cancelled goes to `lateAnswer`; an exchange cancelled before it began asks
 * nobody; a server's `notifications/elicitation/complete` reaches every exchange waiting on that
 * link; and a retry waits for its server in the exchange's own revision.
 */

const link = (id: string) => ({ mode: 'url', elicitationId: id, url: `https://${id}.example.com/`, message: id });
const linkRequired = (...ids: string[]) =>
  new McpError(-32042, 'Sign in first', { elicitations: ids.map((id) => link(id)) });

/** A 2025-11-25 client whose answers are given one by one (`next`), recording each request's options. */
function scriptedClient() {
  const sent: Array<{ method: string; params: unknown; signal: AbortSignal | undefined }> = [];
  const answers: Array<(answer: unknown) => void> = [];
  const client = {
    request: (request: { method: string; params: unknown }, _schema: unknown, options: { signal?: AbortSignal }) => {
      sent.push({ method: request.method, params: request.params, signal: options.signal });
      return new Promise((resolve, reject) =>
        answers.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer)))
      );
    }
  } as unknown as Client;
  const next = async (answer: unknown) => {
    while (answers.length === 0) await new Promise((resolve) => setImmediate(resolve));
    answers.shift()!(answer);
  };
  return { client, sent, next };
}

describe('exchange rules', () => {
  const data = tempDir('exchanges-');
  after(() => data.remove());
  let dirs = 0;

  function exchanges(options: { answer?: () => Promise<Record<string, unknown>>; late?: unknown[] } = {}) {
    const views: Array<InputExchangeView | undefined> = [];
    const dir = path.join(data.dir, `x${dirs++}`);
    const made = new InputExchanges({
      dir: new DocumentDir({ dir, corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory }),
      clock: new ManualClock(),
      answer: options.answer ?? (() => Promise.resolve({ action: 'accept' })),
      requestTimeoutMs: 60_000,
      onChange: (_id, view) => views.push(view),
      settle: (_view, response) => ({ type: 'result', result: response }),
      lateAnswer: (_view, response) => options.late?.push(response)
    });
    return { made, views };
  }

  const waitFor = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
  };

  it('sends a task-augmented retry without the signal, and gives its answer to lateAnswer once cancelled', async () => {
    const late: unknown[] = [];
    const { made, views } = exchanges({ late });
    const { client, sent, next } = scriptedClient();
    const peer = legacyExchangePeer(client);
    made.attach('s', peer);
    const call = new AbortController();
    const params = { name: 'sync', arguments: {}, task: { ttl: 1000 } };
    const asking = made.request({ serverId: 's', serverName: 'S', peer }, 'tools/call', params, {
      tasks: true,
      legacy: true,
      timeout: 60_000,
      signal: call.signal
    });
    asking.catch(() => undefined);
    await next(linkRequired('a'));
    await waitFor(() => views.at(-1)?.state === 'waiting-for-you');
    const id = views.at(-1)!.exchangeId;
    made.continue(id);
    await waitFor(() => sent.length === 2);
    assert.deepEqual(sent[1]?.params, params, 'the retry is the request as it was');
    assert.equal(sent[0]?.signal, undefined);
    assert.equal(sent[1]?.signal, undefined, 'never cancelled with notifications/cancelled');
    call.abort(new Error('Cancelled by you'));
    const task = { task: { taskId: 't1', status: 'working', ttl: 1000, createdAt: '', lastUpdatedAt: '' } };
    await next(task);
    await assert.rejects(asking, /Cancelled by you/);
    assert.deepEqual(late, [task], 'the task it created is handed on to be cancelled');
  });

  it('sends a plain retry with the signal, so that Cancel reaches the server', async () => {
    const { made, views } = exchanges();
    const { client, sent, next } = scriptedClient();
    const peer = legacyExchangePeer(client);
    made.attach('s', peer);
    const asking = made.request(
      { serverId: 's', serverName: 'S', peer },
      'tools/call',
      { name: 'list' },
      {
        tasks: false,
        legacy: true,
        timeout: 60_000,
        signal: new AbortController().signal
      }
    );
    await next(linkRequired('a'));
    await waitFor(() => views.at(-1)?.state === 'waiting-for-you');
    made.continue(views.at(-1)!.exchangeId);
    await waitFor(() => sent.length === 2);
    assert.ok(sent[1]?.signal instanceof AbortSignal);
    await next({ content: [] });
    assert.deepEqual(await asking, { content: [] });
  });

  it('asks nobody when its call ended while the first answer was on its way', async () => {
    let asked = 0;
    const { made, views } = exchanges({
      answer: () => {
        asked += 1;
        return Promise.resolve({ action: 'accept' });
      }
    });
    const { client, next } = scriptedClient();
    const peer = legacyExchangePeer(client);
    const call = new AbortController();
    const asking = made.request(
      { serverId: 's', serverName: 'S', peer },
      'tools/call',
      { name: 'list' },
      {
        tasks: true,
        legacy: true,
        timeout: 60_000,
        signal: call.signal
      }
    );
    call.abort(new Error('Cancelled by you'));
    await next(linkRequired('a'));
    await assert.rejects(asking, /Cancelled by you/);
    assert.equal(asked, 0);
    assert.equal(views.at(-1), undefined, 'nothing is kept');
  });

  it('lets every exchange waiting on the same link go when the server says it is done', async () => {
    const { made, views } = exchanges();
    const { client, sent, next } = scriptedClient();
    const peer = legacyExchangePeer(client);
    made.attach('s', peer);
    const start = (name: string) =>
      made.request(
        { serverId: 's', serverName: 'S', peer },
        'tools/call',
        { name },
        {
          tasks: false,
          legacy: true,
          timeout: 60_000
        }
      );
    const first = start('one');
    await next(linkRequired('shared'));
    const second = start('two');
    await next(linkRequired('shared', 'shared'));
    await waitFor(() => made.list().every((view) => view.state === 'waiting-for-you') && made.list().length === 2);
    assert.deepEqual(
      made.list().map((view) => Object.keys(view.inputRequests).length),
      [1, 1],
      'a link listed twice is asked once'
    );
    assert.equal(made.elicitationComplete('s', 'shared').length, 2);
    assert.deepEqual(made.elicitationComplete('s', 'unknown'), []);
    await waitFor(() => sent.length === 4);
    await next({ content: [{ type: 'text', text: 'a' }] });
    await next({ content: [{ type: 'text', text: 'b' }] });
    await Promise.all([first, second]);
    assert.equal(views.at(-1), undefined);
  });

  it('waits for its server in its own revision: a 2025-11-25 exchange is not retried through a 2026-07-28 peer', async () => {
    const { made, views } = exchanges();
    const { client, next } = scriptedClient();
    const legacy = legacyExchangePeer(client);
    const modernCalls: string[] = [];
    const modern: ExchangePeer = {
      request: (method) => {
        modernCalls.push(method);
        return Promise.resolve({ resultType: 'complete', content: [] });
      }
    };
    const asking = made.request(
      { serverId: 's', serverName: 'S', peer: legacy },
      'tools/call',
      { name: 'x' },
      {
        tasks: false,
        legacy: true,
        timeout: 60_000
      }
    );
    await next(linkRequired('a'));
    await waitFor(() => views.at(-1)?.state === 'waiting-for-you');
    made.attach('s', modern);
    made.continue(views.at(-1)!.exchangeId);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(modernCalls, [], 'not sent in the other revision');
    made.attach('s', legacy);
    await next({ content: [] });
    assert.deepEqual(await asking, { content: [] });
  });
});
