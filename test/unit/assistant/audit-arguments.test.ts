import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditArguments } from '../../../app/assistant/audit-arguments.js';

describe('tool-call arguments as the audit log keeps them', () => {
  it('hides values under credential names, key shapes, bearer tokens, URL credentials and known keys', () => {
    const kept = auditArguments(
      {
        query: 'weather in Oslo',
        api_key: 'abc123',
        nested: { password: 'hunter2', note: 'use sk-proj-ABCDEFGH1234 here', list: ['Bearer eyJhbGciOi.x.y'] },
        url: 'https://me:pw@example.com/?token=zzz&q=1',
        said: 'my key is MyPrivateKey9876'
      },
      ['MyPrivateKey9876']
    ) as Record<string, unknown>;
    const text = JSON.stringify(kept);
    for (const secret of [
      'abc123',
      'hunter2',
      'sk-proj-ABCDEFGH1234',
      'eyJhbGciOi',
      'me:pw',
      'zzz',
      'MyPrivateKey9876'
    ])
      assert.ok(!text.includes(secret), `${secret} is hidden in ${text}`);
    assert.equal(kept.query, 'weather in Oslo');
    assert.equal(kept.api_key, '[redacted]');
  });

  it('cuts long strings, long arrays, deep values and a huge whole, saying what was cut', () => {
    const kept = auditArguments({
      long: 'x'.repeat(2000),
      many: Array.from({ length: 80 }, (_, i) => i),
      deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }
    }) as Record<string, unknown>;
    assert.match(String(kept.long), /… \(1488 more characters\)$/);
    assert.equal((kept.many as unknown[]).length, 51);
    assert.match(JSON.stringify(kept.deep), /\[object\]/);
    const huge = auditArguments(
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'y'.repeat(500)]))
    ) as {
      truncated: boolean;
      characters: number;
    };
    assert.equal(huge.truncated, true);
    assert.ok(huge.characters > 16 * 1024);
  });
});
