import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { HistoryEntrySchema, HistoryPageSchema } from '../../app/contract/history.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

// The tests run side by side, each with its own host, data directory and process: most of each
// is waiting (the research task takes four seconds, and server-everything outlives its stdin
// until the SDK's close stops it two seconds later).
describe(
  'History links a tool call and what its server asked while it ran (server-everything over stdio)',
  { concurrency: true },
  () => {
    /** A host connected to server-everything, closed with its data directory at the end of test `t`. */
    async function connectedHost(t: TestContext): Promise<{ dir: string; current: Host }> {
      const data = tempDir();
      const state = {
        dir: data.dir,
        current: createHost({ dataDir: data.dir, autoConnect: false, servers: [everythingServer] })
      };
      t.after(async () => {
        await state.current.close();
        data.remove();
      });
      assert.equal((await state.current.connect('everything')).state.status, 'ready');
      return state;
    }

    /** The whole entry, as the contract reads it. */
    const entryOf = async (host: Host, id: string) => HistoryEntrySchema.parse(await host.call('history.get', { id }));

    it('a plain call of trigger-elicitation-request and its question point at each other, after a restart too', async (t) => {
      const state = await connectedHost(t);
      let host = state.current;
      const asked = nextEvent(host, 'inbox.added');
      const call = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-elicitation-request',
        arguments: {}
      });
      const { item } = await asked;
      await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
      assert.equal((await call).type, 'result');

      const page = HistoryPageSchema.parse(await host.call('history.list', { filter: { serverId: 'everything' } }));
      const callRow = page.entries.find((entry) => entry.title === 'Tool call: trigger-elicitation-request');
      const questionRow = page.entries.find((entry) => entry.kind === 'elicitation');
      assert.ok(callRow && questionRow, 'both are in History');
      assert.deepEqual(questionRow.forCall, { tool: 'trigger-elicitation-request', how: 'while', entryId: callRow.id });
      assert.equal(callRow.forCall, undefined, 'a call is asked for nothing');

      const question = await entryOf(host, questionRow.id);
      assert.deepEqual(question.forCall, { tool: 'trigger-elicitation-request', how: 'while', entryId: callRow.id });
      const called = await entryOf(host, callRow.id);
      assert.deepEqual(
        called.asked?.map((each) => [each.id, each.kind, each.title]),
        [[questionRow.id, 'elicitation', questionRow.title]]
      );

      // Kept as the entries were written: the links are there after a restart.
      await host.close();
      host = state.current = createHost({ dataDir: state.dir, autoConnect: false, servers: [everythingServer] });
      assert.equal((await entryOf(host, questionRow.id)).forCall?.entryId, callRow.id);
      assert.deepEqual(
        (await entryOf(host, callRow.id)).asked?.map((each) => each.id),
        [questionRow.id]
      );
      assert.equal((await host.connect('everything')).state.status, 'ready');
    });

    it('a task call of simulate-research-query and the question asked for its task point at each other', async (t) => {
      const host = (await connectedHost(t)).current;
      const asked = nextEvent(host, 'inbox.added');
      const outcome = await host.call('tools.call', {
        serverId: 'everything',
        name: 'simulate-research-query',
        arguments: { topic: 'tide pools', ambiguous: true }
      });
      assert.equal(outcome.type, 'task');
      if (outcome.type !== 'task') return;
      const { outboundId } = outcome.task;
      const { item } = await asked;
      const done = nextEvent(
        host,
        'outbound.changed',
        (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.state === 'completed'
      );
      await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
      await done;

      const callId = `requested:${outboundId}`;
      const page = HistoryPageSchema.parse(
        await host.call('history.list', { filter: { serverId: 'everything', kind: 'elicitation', text: 'tide pools' } })
      );
      const questions = page.entries.filter((entry) => entry.forCall?.entryId === callId);
      assert.equal(questions.length, 1, 'one question was asked for the task');
      const [questionRow] = questions;
      assert.deepEqual(questionRow!.forCall, { tool: 'simulate-research-query', how: 'for', entryId: callId });
      assert.deepEqual((await entryOf(host, questionRow!.id)).forCall, {
        tool: 'simulate-research-query',
        how: 'for',
        entryId: callId
      });
      assert.deepEqual(
        (await entryOf(host, callId)).asked?.map((each) => each.id),
        [questionRow!.id]
      );
    });

    /** The History rows of the call by that `callId` and of the question asked at `askedAt`. */
    async function rowsOf(host: Host, callId: string, askedAt: string) {
      const page = HistoryPageSchema.parse(await host.call('history.list', { filter: { serverId: 'everything' } }));
      const callRow = page.entries.find((entry) => entry.kind === 'tool-call' && entry.callId === callId);
      const questionRow = page.entries.find((entry) => entry.kind === 'elicitation' && entry.createdAt === askedAt);
      assert.ok(callRow && questionRow, 'both are in History');
      return { callRow, questionRow };
    }

    it('a call cancelled while its question waits, the question withdrawn after: they point at each other', async (t) => {
      const host = (await connectedHost(t)).current;
      const asked = nextEvent(host, 'inbox.added');
      const call = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-elicitation-request',
        arguments: {},
        callId: 'cancelled-while-asking'
      });
      const { item } = await asked;
      await host.call('tools.cancelCall', { callId: 'cancelled-while-asking' });
      await assert.rejects(call, { code: -32800 });
      // The question outlives its call; its connection's closing withdraws it.
      const removed = nextEvent(host, 'inbox.removed', (event) => event.id === item.id);
      await host.disconnect('everything', 'person');
      assert.equal((await removed).why, 'withdrawn');
      assert.equal((await host.connect('everything')).state.status, 'ready');

      const { callRow, questionRow } = await rowsOf(host, 'cancelled-while-asking', item.createdAt);
      assert.equal(callRow.status, 'cancelled');
      assert.deepEqual(questionRow.forCall, { tool: 'trigger-elicitation-request', how: 'while', entryId: callRow.id });
      assert.deepEqual(
        (await entryOf(host, callRow.id)).asked?.map((each) => each.id),
        [questionRow.id]
      );
    });

    it('a plain call of trigger-elicitation-request-async and the question it asked as a task, declined: they point at each other', async (t) => {
      const state = await connectedHost(t);
      let host = state.current;
      const asked = nextEvent(host, 'inbox.added');
      const call = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-elicitation-request-async',
        arguments: {},
        callId: 'asking-as-task'
      });
      const { item } = await asked;
      assert.ok(item.taskId !== undefined, 'the question is a task Taskdesk runs');
      await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
      assert.equal((await call).type, 'result');

      const questionId = `received:${item.taskId}`;
      const page = HistoryPageSchema.parse(await host.call('history.list', { filter: { serverId: 'everything' } }));
      const callRow = page.entries.find((entry) => entry.kind === 'tool-call' && entry.callId === 'asking-as-task');
      const questionRow = page.entries.find((entry) => entry.id === questionId);
      assert.ok(callRow && questionRow, 'both are in History');
      const link = { tool: 'trigger-elicitation-request-async', how: 'while', entryId: callRow.id };
      assert.deepEqual(questionRow.forCall, link);
      assert.deepEqual((await entryOf(host, questionId)).forCall, link);
      assert.deepEqual(
        (await entryOf(host, callRow.id)).asked?.map((each) => [each.id, each.kind]),
        [[questionId, 'elicitation']]
      );

      await host.close();
      host = state.current = createHost({ dataDir: state.dir, autoConnect: false, servers: [everythingServer] });
      assert.deepEqual((await entryOf(host, questionId)).forCall, link);
      assert.equal((await host.connect('everything')).state.status, 'ready');
    });

    it('two calls running when a question was asked: no link, though one ended before the question did', async (t) => {
      const host = (await connectedHost(t)).current;
      const long = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-long-running-operation',
        arguments: { duration: 600, steps: 1 },
        callId: 'long-beside'
      });
      await nextEvent(host, 'call.changed', ({ call }) => call.callId === 'long-beside' && call.state === 'running');
      const asked = nextEvent(host, 'inbox.added');
      const call = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-elicitation-request',
        arguments: {},
        callId: 'asking-beside'
      });
      const { item } = await asked;
      // The other call ends first: by the question's end, only the asking call runs.
      await host.call('tools.cancelCall', { callId: 'long-beside' });
      await assert.rejects(long, { code: -32800 });
      await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
      assert.equal((await call).type, 'result');

      const { callRow, questionRow } = await rowsOf(host, 'asking-beside', item.createdAt);
      assert.equal(questionRow.forCall, undefined, 'which of the two it was asked for cannot be told');
      assert.equal((await entryOf(host, questionRow.id)).forCall, undefined);
      assert.deepEqual((await entryOf(host, callRow.id)).asked ?? [], []);
      const { callRow: longRow } = await rowsOf(host, 'long-beside', item.createdAt);
      assert.deepEqual((await entryOf(host, longRow.id)).asked ?? [], []);
    });
  }
);
