import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failedTries } from '../../../app/assistant/failed-tries.js';

describe('failedTries: the tries in a row a failure card counts', () => {
  it('is one for a first failure', () => {
    assert.equal(failedTries(undefined, { kind: 'auth' }), 1);
  });

  it('counts on when the retry failed the same way, whatever its words', () => {
    assert.equal(failedTries({ kind: 'auth', tries: 1 }, { kind: 'auth' }), 2);
    assert.equal(failedTries({ kind: 'auth', tries: 2 }, { kind: 'auth' }), 3);
    assert.equal(
      failedTries(
        { kind: 'bad-request', reason: 'tools-too-long', tries: 1 },
        { kind: 'bad-request', reason: 'tools-too-long' }
      ),
      2
    );
  });

  it('starts again when the retry failed otherwise: a refused key after a rate limit is met once', () => {
    assert.equal(failedTries({ kind: 'rate-limited', tries: 1 }, { kind: 'auth' }), 1);
    assert.equal(failedTries({ kind: 'rate-limited', tries: 3 }, { kind: 'auth' }), 1);
    // The same kind, but no longer the tools that did not fit: another failure.
    assert.equal(failedTries({ kind: 'bad-request', reason: 'tools-too-long', tries: 2 }, { kind: 'bad-request' }), 1);
  });
});
