import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import { peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const MiB = 1024 * 1024;
const bigForm = (filler: string) => ({
  mode: 'form',
  message: filler,
  requestedSchema: { type: 'object', properties: {} }
});

describe('bytes of request params per server are rate limited', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('takes a burst of 8 MiB, then refuses with −32029 and retryAfterMs until the 2 MiB/s refill allows; another server is not affected', async () => {
    const clock = new ManualClock();
    const flooder = peerServer('flooder');
    const bystander = peerServer('bystander');
    fixture = await startHostWith({ flooder, bystander }, { clock });
    const filler = 'x'.repeat(MiB - 200);
    const send = (peer: typeof flooder) =>
      peer.server.request(
        { method: 'elicitation/create', params: { ...bigForm(filler), task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
    for (let i = 0; i < 8; i++) await send(flooder);
    const refused = await send(flooder).then(
      () => undefined,
      (error: unknown) => error
    );
    assert.ok(refused instanceof McpError, 'the ninth megabyte is refused');
    assert.equal(refused.code, -32029);
    assert.match(refused.message, /Too many request bytes/);
    const retryAfterMs = (refused.data as { retryAfterMs: number }).retryAfterMs;
    assert.ok(retryAfterMs > 0 && retryAfterMs <= 1_000, `retry after about half a second (${retryAfterMs} ms)`);

    await send(bystander);
    await clock.advance(retryAfterMs);
    await send(flooder);
    assert.ok(
      (await fixture.host.call('audit.read', { serverId: 'flooder' })).some(
        (entry) => entry.type === 'task.rate-limited' && typeof entry.detail?.bytes === 'number'
      ),
      'the refusal is audited with its bytes'
    );
  });
});
