import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { inboxHolds, nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const ask = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  maxTokens: 20
});

describe('setting a server’s sampling policy to Refuse while its model requests wait', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('says how many waiting requests it refused: 0 when none waited, none said for another mode', async () => {
    fixture = await startHostWith({ a: peerServer() });
    const { host } = fixture;
    assert.deepEqual(await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'refuse' } }), {
      mode: 'refuse',
      reviewCompletion: true,
      refused: 0
    });
    assert.deepEqual(
      await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: false } }),
      { mode: 'ask', reviewCompletion: false }
    );
  });

  it('refuses its model requests that wait (not its questions, not another server’s), says how many, and notes why for History', async () => {
    const a = peerServer();
    const b = peerServer();
    fixture = await startHostWith({ a, b });
    const { host } = fixture;
    // No provider: each model request waits for a person's reply.
    const plain = a.server.createMessage(ask('Refused plainly')).then(
      () => 'answered',
      (error: Error) => error.message
    );
    const created = await a.server.request(
      { method: 'sampling/createMessage', params: { ...ask('Refused as a task'), task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    const question = a.server.elicitInput({
      mode: 'form',
      message: 'Still asked?',
      requestedSchema: { type: 'object', properties: {} }
    });
    const other = b.server.createMessage(ask('Another server’s'));
    await inboxHolds(host, 4);

    const { taskId } = created.task;
    const failed = nextEvent(host, 'task.changed', (p) => p.taskId === taskId && p.task?.task.status === 'failed');
    const saved = await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'refuse' } });
    assert.equal(saved.refused, 2);
    assert.match(await plain, /This server’s model requests were set to Refuse\./);
    await failed;
    assert.deepEqual((await host.call('inbox.list', {})).map((item) => [item.serverId, item.kind]).sort(), [
      ['a', 'elicitation'],
      ['b', 'sampling']
    ]);

    // The task's record keeps why, for a machine, beside the words for a person.
    const { notes } = await host.call('tasks.get', { taskId });
    assert.deepEqual(
      notes.filter((note) => 'answeredBy' in note).map(({ answeredBy, cause }) => ({ answeredBy, cause })),
      [{ answeredBy: 'taskdesk', cause: 'policy' }]
    );
    const entry = await host.call('history.get', { id: `received:${taskId}` });
    assert.equal(entry.statusMessage, 'Refused when you set Server a’s model requests to Refuse.');
    assert.equal(entry.cancelledBy, undefined);

    // What still waits is answered, so that nothing is left asking when the host closes.
    for (const waiting of await host.call('inbox.list', {}))
      await host.call('inbox.answer', {
        id: waiting.id,
        answer: waiting.kind === 'elicitation' ? { action: 'decline' } : { action: 'reject' }
      });
    assert.equal((await question).action, 'decline');
    await assert.rejects(other, /User rejected sampling request/);
  });
});
