import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundTask, ServerView } from '../../../app/contract/host-api.js';
import { fetchedRowWords, notFetchedWords, willNotFetch } from '../../../renderer/tasks/fetched-words.js';

/** A received task of Everything's that ended, its result kept and not fetched. */
const ended = (task: Partial<InboundTask['task']>, over: Partial<InboundTask> = {}): InboundTask =>
  ({
    task: { taskId: 't1', status: 'completed', createdAt: '2026-12-03T10:00:00.000Z', ...task },
    serverId: 'everything',
    serverName: 'Everything',
    kind: 'elicitation',
    request: {},
    notes: [],
    outcome: { type: 'error', error: { code: -32800, message: 'cancelled' } },
    awaitingFetch: true,
    ...over
  }) as InboundTask;

/** Everything, connected since before the task was asked (the process that asked). */
const stdioReady: ServerView = {
  id: 'everything',
  name: 'Everything',
  transport: { type: 'stdio', target: 'npx' },
  state: { status: 'ready', readySince: '2026-12-03T09:00:00.000Z' }
};
/** Everything over HTTP, connected since the task was asked: it may come back to its session. */
const httpReady: ServerView = {
  ...stdioReady,
  transport: { type: 'http', target: 'http://127.0.0.1/mcp' },
  state: { status: 'ready', readySince: '2026-12-03T10:30:00.000Z' }
};

describe('whether a received task’s server will fetch its result', () => {
  it('says a removed server (not in the Desk’s list) will not fetch it, on the row and in the detail', () => {
    const removed = ended(
      { status: 'cancelled', statusMessage: 'You removed Everything before it was answered' },
      { cancelledBy: 'you' }
    );
    assert.equal(willNotFetch(removed, undefined), true);
    assert.equal(fetchedRowWords(removed, undefined), 'Not fetched by Everything, and it will not be');
    assert.equal(notFetchedWords(removed, undefined), 'No, and it will not be: Everything was removed');
    // Any task of a removed server, however it ended: Taskdesk never connects it again.
    const completed = ended({ status: 'completed' }, { outcome: { type: 'result', result: {} } });
    assert.equal(fetchedRowWords(completed, undefined), 'Not fetched by Everything, and it will not be');
  });

  it('says a task that ended with the process that asked will not be fetched, whatever its server is now', () => {
    // Its server connected again over HTTP (a Save that changed how it is reached): a new session.
    const restarted = ended(
      {
        status: 'cancelled',
        statusMessage: 'You changed Everything’s settings, and Taskdesk restarted it before it was answered'
      },
      { cancelledBy: 'you' }
    );
    assert.equal(fetchedRowWords(restarted, httpReady), 'Not fetched by Everything, and it will not be');
    assert.equal(
      notFetchedWords(restarted, httpReady),
      'No, and it will not be: the process of Everything that asked has stopped'
    );
    const exited = ended({ status: 'failed', statusMessage: 'Everything’s process ended before it was answered' });
    assert.equal(willNotFetch(exited, httpReady), true);
    for (const act of ['You disconnected Everything', 'You signed out of Everything', 'You removed Everything'])
      assert.equal(
        willNotFetch(
          ended({ status: 'cancelled', statusMessage: `${act} before it was answered` }, { cancelledBy: 'you' }),
          httpReady
        ),
        true,
        act
      );
  });

  it('still says "yet" of a task its server may fetch: cancelled in Taskdesk, or by the server, while it runs', () => {
    const cancelledHere = ended(
      { status: 'cancelled', statusMessage: 'Cancelled by the user in Taskdesk.' },
      { cancelledBy: 'you' }
    );
    assert.equal(willNotFetch(cancelledHere, stdioReady), false);
    assert.equal(fetchedRowWords(cancelledHere, stdioReady), 'Not fetched by Everything yet');
    assert.equal(notFetchedWords(cancelledHere, stdioReady), 'Not yet: Everything gets it when it asks for this task');
    // A failure of its own (a model's error) is no end of the process.
    const failed = ended({ status: 'failed', statusMessage: 'The model refused' });
    assert.equal(fetchedRowWords(failed, stdioReady), 'Not fetched by Everything yet');
    // Words like an act's, from a server that cancelled its own task: its own, and nothing is fetched.
    const byServer = ended(
      { status: 'cancelled', statusMessage: 'You disconnected Everything before it was answered' },
      { cancelledBy: 'server' }
    );
    assert.equal(willNotFetch(byServer, httpReady), false);
  });
});
