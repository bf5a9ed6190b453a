import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  maskSecrets,
  maskSecretsInText,
  MIN_MASKED_SECRET_LENGTH,
  SECRET_MASK,
  secretForms
} from '../../app/core/secret-mask.js';

const mask = (text: string, secrets: string[]) => maskSecretsInText(text, secretForms(secrets));

describe('masking secret values in stored text', () => {
  it('masks every occurrence of each of several secrets, and nothing else', () => {
    assert.equal(
      mask('token secret-123, again secret-123; key sk-live-998877 end', ['secret-123', 'sk-live-998877']),
      `token ${SECRET_MASK}, again ${SECRET_MASK}; key ${SECRET_MASK} end`
    );
    assert.equal(mask('nothing here', ['secret-123']), 'nothing here');
    // Exact occurrences only: another case is another value.
    assert.equal(mask('SECRET-123', ['secret-123']), 'SECRET-123');
  });

  it('masks overlapping secrets, and one inside another, whole: no piece of either is left', () => {
    // "abcdefgh12" and "efgh123456" share "efgh12": both are hidden in one mask.
    assert.equal(mask('<abcdefgh123456>', ['abcdefgh12', 'efgh123456']), `<${SECRET_MASK}>`);
    // One secret inside a longer one.
    assert.equal(
      mask('x secret-123456 y secret-12 z', ['secret-12', 'secret-123456']),
      `x ${SECRET_MASK} y ${SECRET_MASK} z`
    );
    // A secret overlapping itself.
    assert.equal(mask('aaaaaaaaaa!', ['aaaaaaaa']), `${SECRET_MASK}!`);
  });

  it(`ignores values shorter than ${MIN_MASKED_SECRET_LENGTH} characters, which would mask ordinary words`, () => {
    assert.deepEqual(secretForms(['true', 'admin', '1234567', '', undefined]), []);
    assert.equal(mask('admin said true: 1234567', ['admin', 'true', '1234567']), 'admin said true: 1234567');
    assert.equal(mask('12345678', ['12345678']), SECRET_MASK);
    const value = { text: 'admin' };
    assert.equal(maskSecrets(value, ['admin']), value, 'nothing to mask: the same object back');
  });

  it('masks a secret with a quote or backslash as it appears in JSON text, escaped once and twice', () => {
    const secret = 'pa"ss\\word-42';
    const env = JSON.stringify({ API_TOKEN: secret, OTHER: 'kept' }, null, 2);
    assert.ok(!env.includes(secret), 'in JSON text it is spelled escaped');
    const masked = mask(env, [secret]);
    assert.deepEqual(JSON.parse(masked), { API_TOKEN: SECRET_MASK, OTHER: 'kept' }, 'still JSON, the value masked');
    // JSON text quoted in JSON text (a result holding a tool's JSON answer, as a string).
    const twice = mask(JSON.stringify({ text: env }), [secret]);
    assert.deepEqual(JSON.parse((JSON.parse(twice) as { text: string }).text), {
      API_TOKEN: SECRET_MASK,
      OTHER: 'kept'
    });
    assert.equal(mask(`raw ${secret}`, [secret]), `raw ${SECRET_MASK}`);
  });

  it('masks a JSON value’s strings and keys, copying only what changed, and keeps the rest as it was', () => {
    const untouched = { n: 1, flags: [true, null] };
    const value = {
      content: [{ type: 'text', text: 'API_TOKEN=secret-123' }],
      structured: { 'secret-123': 'as a key', nested: [['deep secret-123']] },
      untouched
    };
    const masked = maskSecrets(value, ['secret-123']);
    assert.deepEqual(masked, {
      content: [{ type: 'text', text: `API_TOKEN=${SECRET_MASK}` }],
      structured: { [SECRET_MASK]: 'as a key', nested: [[`deep ${SECRET_MASK}`]] },
      untouched
    });
    assert.equal(masked.untouched, untouched, 'what held no secret is not copied');
    assert.equal(value.content[0]!.text, 'API_TOKEN=secret-123', 'the value given is not changed');
    // A `__proto__` key stays a key.
    const proto = maskSecrets(JSON.parse('{"__proto__": {"t": "secret-123"}}') as object, ['secret-123']);
    assert.deepEqual(Object.getPrototypeOf(proto), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, { t: SECRET_MASK });
  });
});
