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

  it('keeps counts and switches under credential-like names, and hides a number that could be a code', () => {
    const kept = auditArguments({
      maxTokens: 1000,
      max_tokens: 200,
      tokenCount: 3,
      includeAuthor: true,
      token: 123456,
      pin_token: 4321,
      maxTokensNote: 'sk-proj-ABCDEFGH1234'
    }) as Record<string, unknown>;
    assert.deepEqual([kept.maxTokens, kept.max_tokens, kept.tokenCount, kept.includeAuthor], [1000, 200, 3, true]);
    assert.equal(kept.token, '[redacted]', 'a number under a credential name could be a one-time code');
    assert.equal(kept.pin_token, '[redacted]');
    assert.equal(kept.maxTokensNote, '[redacted]', 'text under it is still hidden');
    // Only a name that reads as a count: not one that merely begins with those letters.
    const codes = auditArguments({
      numberPassword: 4821,
      minuteToken: 123456,
      countersignKey: 99887766,
      MAX_TOKENS: 10,
      token_limit: 5
    }) as Record<string, unknown>;
    assert.deepEqual(
      [codes.numberPassword, codes.minuteToken, codes.countersignKey, codes.MAX_TOKENS, codes.token_limit],
      ['[redacted]', '[redacted]', '[redacted]', 10, 5]
    );
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
