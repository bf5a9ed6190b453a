import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryNames, splitSecrets } from '../../app/host/server-secrets.js';
import { ServerConfigSchema } from '../../app/contract/host-api.js';
import { emptyDraft, newEntry, toConfigInput } from '../../renderer/servers/server-draft.js';

describe('the order of a server’s env vars', () => {
  it('keeps the order the Add form sends, a name like "10" among them, with no secret value saved', () => {
    const input = toConfigInput('ordered', {
      ...emptyDraft(),
      name: 'Ordered',
      command: 'node',
      env: [
        newEntry({ name: 'API_TOKEN', value: 'tok-1234', secret: true }),
        newEntry({ name: 'B', value: 'b' }),
        newEntry({ name: '10', value: 'ten' })
      ]
    });
    const { stored, values } = splitSecrets(ServerConfigSchema.parse(input));
    assert.deepEqual(entryNames(stored), ['API_TOKEN', 'B', '10']);
    assert.deepEqual(stored.entryOrder, ['API_TOKEN', 'B', '10']);
    assert.ok(!JSON.stringify(stored).includes('tok-1234'));
    assert.deepEqual(
      values.map((value) => value.value),
      ['tok-1234']
    );
  });

  it('saves no order where the entries come in it by themselves: the list looks as older builds wrote it', () => {
    const { stored } = splitSecrets(
      ServerConfigSchema.parse({
        id: 'plain',
        name: 'Plain',
        transport: { type: 'stdio', command: 'node', env: { MODE: 'x', API_TOKEN: 'tok-1234' } },
        secrets: { env: ['API_TOKEN'] },
        entryOrder: ['MODE', 'API_TOKEN']
      })
    );
    assert.equal('entryOrder' in stored, false);
    assert.deepEqual(entryNames(stored), ['MODE', 'API_TOKEN']);
  });

  it('reads an order that names what is gone or leaves out what is there: the rest follows, plain ones first', () => {
    const config = ServerConfigSchema.parse({
      id: 'odd',
      name: 'Odd',
      transport: { type: 'stdio', command: 'node', env: { A: 'a', B: 'b' } },
      secrets: { env: ['S'] },
      entryOrder: ['GONE', 'S', 'S']
    });
    assert.deepEqual(entryNames(config), ['S', 'A', 'B']);
  });
});
