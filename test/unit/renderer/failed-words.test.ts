import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { InboundTask, OutboundTaskView } from '../../../app/contract/host-api.js';
import {
  FAILURES_GAP_MS,
  failedTaskWords,
  failedTogetherWords,
  saidAsFailed,
  SpacedSayings
} from '../../../renderer/tasks/failed-words.js';
import { receivedItem, requestedItem } from '../../../renderer/tasks/task-items.js';

const at = '2026-06-01T00:00:00.000Z';

function requested(extra: Partial<OutboundTaskView>): OutboundTaskView {
  return {
    outboundId: 'o1',
    serverId: 'b',
    serverName: 'Report Builder',
    toolName: 'fail-tool',
    arguments: {},
    requestedTtl: null,
    createdAt: at,
    updatedAt: at,
    taskId: 't-o1',
    state: 'failed',
    task: { taskId: 't-o1', status: 'failed', createdAt: at, lastUpdatedAt: at, ttl: null },
    expiresAt: null,
    progress: { count: 0, history: [] },
    ...extra
  };
}

function received(outcome: InboundTask['outcome']): InboundTask {
  return {
    task: { taskId: 'r1', status: 'failed', createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
    serverId: 'a',
    serverName: 'Weather Station',
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the **forecast**' } }] },
    notes: [],
    ...(outcome && { outcome })
  };
}

describe('what a screen reader hears of a task that failed', () => {
  it('names the tool and its server, and says why as the row does: its error result, its server’s reason, its error', () => {
    const errorResult = requestedItem(
      requested({
        outcome: {
          type: 'result',
          result: { content: [{ type: 'text', text: 'disk full' }], isError: true },
          fetchedAt: at
        }
      })
    );
    assert.equal(failedTaskWords(errorResult), 'fail-tool on Report Builder failed: disk full.');
    const reason = requestedItem(
      requested({
        toolName: 'fail-rpc',
        task: {
          taskId: 't-o1',
          status: 'failed',
          createdAt: at,
          lastUpdatedAt: at,
          ttl: null,
          statusMessage: 'The upstream service refused the job'
        },
        outcome: { type: 'error', error: { code: -32050, message: 'Upstream quota exhausted' }, fetchedAt: at }
      })
    );
    assert.equal(failedTaskWords(reason), 'fail-rpc on Report Builder failed: The upstream service refused the job.');
    const error = requestedItem(
      requested({
        outcome: { type: 'error', error: { code: -32050, message: 'Upstream quota exhausted' }, fetchedAt: at }
      })
    );
    assert.equal(failedTaskWords(error), 'fail-tool on Report Builder failed: Error -32050: Upstream quota exhausted.');
    assert.equal(failedTaskWords(requestedItem(requested({}))), 'fail-tool on Report Builder failed.');
  });

  it('names a model request a server gave by whose it is and what it asks, in plain words', () => {
    const failed = receivedItem(
      received({ type: 'error', error: { code: -32603, message: 'The model provider is unreachable' } })
    );
    assert.equal(
      failedTaskWords(failed),
      'Weather Station’s model request “Summarise the forecast” failed: Error -32603: The model provider is unreachable.'
    );
  });

  it('says a long reason in part: the row and the detail have it whole', () => {
    const long = 'The disk is full. '.repeat(20);
    const words = failedTaskWords(
      requestedItem(
        requested({
          outcome: { type: 'result', result: { content: [{ type: 'text', text: long }], isError: true }, fetchedAt: at }
        })
      )
    );
    assert.ok(words.length < 200, words);
    assert.match(words, /^fail-tool on Report Builder failed: The disk is full\. The disk .*…\.?$/);
  });

  it('says a failure, not a model request the person turned down, nor a task that ended otherwise', () => {
    assert.equal(saidAsFailed({ status: 'failed', rejected: false }), true);
    assert.equal(saidAsFailed({ status: 'failed', rejected: true }), false);
    assert.equal(saidAsFailed({ status: 'completed', rejected: false }), false);
    assert.equal(saidAsFailed({ status: 'cancelled', rejected: false }), false);
  });

  it('says several together in one sentence: each name once, how many times, the fourth and after counted', () => {
    assert.equal(failedTogetherWords(['a on X', 'b on X']), '2 tasks failed: a on X and b on X.');
    assert.equal(failedTogetherWords(['a on X', 'a on X', 'a on X']), '3 tasks failed: a on X 3 times.');
    assert.equal(failedTogetherWords(['a on X', 'b on Y', 'a on X']), '3 tasks failed: a on X 2 times and b on Y.');
    assert.equal(
      failedTogetherWords(['a on X', 'b on X', 'c on X', 'd on X', 'e on X']),
      '5 tasks failed: a on X, b on X, c on X and 2 more.'
    );
  });
});

describe('sayings spaced out', () => {
  const timers = {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>)
  };
  let said: string[][];
  let sayings: SpacedSayings<string>;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    said = [];
    sayings = new SpacedSayings<string>((parts) => said.push([...parts]), timers);
  });
  afterEach(() => {
    sayings.close();
    mock.timers.reset();
  });

  it('says the first at once, those within the gap together as it ends, and the next after a quiet gap at once', () => {
    sayings.add('a');
    assert.deepEqual(said, [['a']]);
    sayings.add('b');
    sayings.add('c');
    mock.timers.tick(FAILURES_GAP_MS - 1);
    assert.deepEqual(said, [['a']], 'not within the gap');
    mock.timers.tick(1);
    assert.deepEqual(said, [['a'], ['b', 'c']], 'together as it ends');
    // A gap follows that saying too: one within it waits for its end.
    sayings.add('d');
    assert.deepEqual(said, [['a'], ['b', 'c']]);
    mock.timers.tick(FAILURES_GAP_MS);
    assert.deepEqual(said, [['a'], ['b', 'c'], ['d']]);
    // Nothing within the next gap: once it is over, the next is said at once.
    mock.timers.tick(FAILURES_GAP_MS);
    sayings.add('e');
    assert.deepEqual(said, [['a'], ['b', 'c'], ['d'], ['e']]);
  });

  it('says nothing more once closed: what waits is dropped', () => {
    sayings.add('a');
    sayings.add('b');
    sayings.close();
    mock.timers.tick(FAILURES_GAP_MS);
    sayings.add('c');
    assert.deepEqual(said, [['a']]);
  });
});
