import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyJson } from '../../app/core/json-copy.js';
import { AssistantToolPolicies } from '../../app/assistant/tool-policies.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { tempDir } from '../support/host-fixture.js';

describe('copyJson', () => {
  it('copies JSON data whole and shares nothing with it', () => {
    const value = { a: 1, b: 'x', c: null, d: true, e: [1, { f: [2, 3] }], g: { h: { i: 'deep' } } };
    const copy = copyJson(value);
    assert.deepEqual(copy, value);
    assert.notEqual(copy, value);
    assert.notEqual(copy.e, value.e);
    assert.notEqual(copy.e[1], value.e[1]);
    assert.notEqual(copy.g.h, value.g.h);
    copy.g.h.i = 'changed';
    assert.equal(value.g.h.i, 'deep');
  });

  it('keeps a __proto__ key as a key (as JSON.parse makes it), not as the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = copyJson(value);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal((copy as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(copy), ['__proto__', 'a']);
    assert.equal(JSON.stringify(copy), JSON.stringify(value));
  });

  it('clones what is not plain JSON (a Date, a Map) instead of sharing it', () => {
    const when = new Date(0);
    const value = { when, map: new Map([['k', 1]]) };
    const copy = copyJson(value);
    assert.notEqual(copy.when, when);
    assert.equal(copy.when.getTime(), 0);
    assert.notEqual(copy.map, value.map);
    assert.equal(copy.map.get('k'), 1);
  });

  it('returns primitives as they are', () => {
    for (const value of [0, 'text', null, undefined, false]) assert.equal(copyJson(value), value);
  });
});

describe('AssistantToolPolicies.get', () => {
  it('hands out copies, and "ask" for a server with no saved policy', () => {
    const temp = tempDir();
    try {
      const policies = new AssistantToolPolicies({ dir: temp.dir, corruptDir: temp.dir, factory: confStoreFactory });
      assert.deepEqual(policies.get('none'), { mode: 'ask', alwaysAllow: [] });
      policies.get('none').alwaysAllow.push('x');
      assert.deepEqual(policies.get('none'), { mode: 'ask', alwaysAllow: [] });
      policies.set('s', { mode: 'ask', alwaysAllow: ['echo'] });
      const got = policies.get('s');
      got.alwaysAllow.push('other');
      got.mode = 'refuse';
      assert.deepEqual(policies.get('s'), { mode: 'ask', alwaysAllow: ['echo'] });
    } finally {
      temp.remove();
    }
  });
});
