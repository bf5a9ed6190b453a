import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROVIDER_FAILURE_KINDS } from '../../../app/sampling/provider-failure.js';
import { failureForServer, failureOf, failureNote } from '../../../app/sampling/server-failure.js';

// Every kind but a cancel, which is the receiver's own error.
const kinds = PROVIDER_FAILURE_KINDS.filter((kind) => kind !== 'cancelled');

describe('what a server is told of a provider failure', () => {
  it('one generic sentence a kind, with data.kind only: no provider id, model, status or words', () => {
    const told = kinds.map((kind) =>
      failureForServer({
        code: -32603,
        message: 'Could not connect to My box (10.0.0.5:8080). Is the server running and the base URL right?',
        data: { kind, providerId: 'my-box', model: 'llama', status: 500 }
      })
    );
    for (const [index, error] of told.entries()) {
      assert.equal(error.code, -32603);
      assert.match(error.message, /^Taskdesk could not run the model: [^:]+\.$/);
      assert.deepEqual(error.data, { kind: kinds[index] });
      assert.doesNotMatch(error.message, /My box|10\.0\.0\.5|base URL|llama/);
    }
    assert.equal(new Set(told.map((error) => error.message)).size, kinds.length, 'a sentence of its own for each kind');
  });

  it('a failure on Taskdesk’s own setup: a sentence of its own and data.kind, with or without a provider to name', () => {
    const setup = [
      { kind: 'no-model', words: /^Taskdesk could not run a model: none is set up to run this request\.$/ },
      { kind: 'model-removed', words: /^Taskdesk could not run the model: it is no longer set up\.$/ },
      {
        kind: 'key-store',
        words: /^Taskdesk could not run the model: it could not read the credentials for its provider\.$/
      }
    ] as const;
    for (const { kind, words } of setup)
      for (const where of [{}, { providerId: 'my-box', model: 'llama' }]) {
        const error = failureForServer({
          code: -32603,
          message: 'The LLM provider "my-box" is not configured: add one under LLM providers in Taskdesk.',
          data: { kind, ...where }
        });
        assert.equal(error.code, -32603);
        assert.match(error.message, words);
        assert.deepEqual(error.data, { kind });
      }
  });

  it('passes any other error as it is: a request refused, a rejection, an unknown kind', () => {
    for (const error of [
      { code: -32602, message: 'Unbalanced tool ids' },
      { code: -1, message: 'User rejected sampling request' },
      { code: -32603, message: 'x', data: { kind: 'something-else', providerId: 'p' } },
      { code: -32603, message: 'y', data: { kind: 'auth' } }
    ])
      assert.equal(failureForServer(error), error);
  });

  it('reads the whole reason back from the last failure note', () => {
    assert.equal(failureOf([{ phase: 'model' }, failureNote('first'), { retry: 1 }, failureNote('second')]), 'second');
    assert.equal(failureOf([{ phase: 'model' }]), undefined);
  });
});
