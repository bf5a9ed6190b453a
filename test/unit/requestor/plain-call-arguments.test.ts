import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlainCallView } from '../../../app/contract/plain-calls.js';
import { CALL_ARGUMENTS_CHARS } from '../../../app/contract/request-preview.js';
import { PlainCalls } from '../../../app/requestor/plain-calls.js';
import { ManualClock } from '../../support/manual-clock.js';

/** Plain calls of `lookup` on `Books`, every view they tell kept, each call running until aborted. */
function harness() {
  const views: PlainCallView[] = [];
  const calls = new PlainCalls({
    clock: new ManualClock(),
    waitingOnPerson: () => false,
    onChange: (view) => views.push(view)
  });
  const start = (callId: string, args?: Record<string, unknown>) =>
    calls
      .run(
        { callId, serverId: 's', serverName: 'Books', toolName: 'lookup', ...(args && { arguments: args }) },
        (signal) =>
          new Promise<never>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error))
          )
      )
      .catch(() => undefined);
  return { views, calls, start };
}

describe('a plain call’s view', () => {
  it('carries its arguments in a line, as a task’s card says them, from its start to its end', async () => {
    const { views, calls, start } = harness();
    const ended = start('c1', { topic: 'rust', count: 3 });
    assert.equal(views[0]?.argumentsPreview, 'topic: "rust", count: 3');
    assert.equal(calls.list()[0]?.argumentsPreview, 'topic: "rust", count: 3');
    calls.cancel('c1');
    await ended;
    assert.equal(views.at(-1)?.state, 'cancelled');
    assert.equal(views.at(-1)?.argumentsPreview, 'topic: "rust", count: 3');
  });

  it('holds no more of long arguments than a task’s card does, not the arguments themselves', async () => {
    const { views, calls, start } = harness();
    const ended = start('c1', { text: 'x'.repeat(100_000), more: { deep: [1, 2, 3] } });
    const preview = views[0]?.argumentsPreview ?? '';
    assert.equal([...preview].length, CALL_ARGUMENTS_CHARS);
    assert.match(preview, /^text: "x+…$/);
    assert.equal('arguments' in views[0]!, false);
    calls.cancel('c1');
    await ended;
  });

  it('has no line for a call without arguments', async () => {
    const { views, calls, start } = harness();
    const bare = start('c1');
    const empty = start('c2', {});
    assert.deepEqual(
      views.map((view) => 'argumentsPreview' in view),
      [false, false]
    );
    calls.cancel('c1');
    calls.cancel('c2');
    await Promise.all([bare, empty]);
  });
});
