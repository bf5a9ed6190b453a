import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { argumentsPreview } from '../../../app/contract/request-preview.js';
import { boundedValue, previewOf, titleOfReceived } from '../../../app/history/history-values.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('history values', () => {
  it('keeps a large value as its size and a short preview', () => {
    const kept = boundedValue({ message: 'x'.repeat(100_000) });
    assert.equal('truncated' in kept && kept.truncated, true);
    assert.equal(kept.bytes, JSON.stringify({ message: 'x'.repeat(100_000) }).length);
    assert.equal(kept.preview, `{"message":"${'x'.repeat(4096 - 12)}`);
  });

  it('keeps how a question was answered when the answer is too large to keep', () => {
    const kept = boundedValue({ action: 'accept', content: { notes: 'z'.repeat(100_000) } });
    assert.equal('truncated' in kept && kept.truncated, true);
    assert.equal(kept.action, 'accept');
    assert.equal('action' in boundedValue({ content: { notes: 'z'.repeat(100_000) } }), false);
    assert.equal('action' in boundedValue({ action: 'x'.repeat(100_000) }), false, 'only an answer’s action');
  });

  it('a preview or a title does not keep alive the large text it was cut from', () => {
    const MiB = 1024 * 1024;
    const before = heapAfterGc();
    const previews = Array.from({ length: 16 }, (_, i) => {
      // A fresh 2 MiB string each time, dropped once its preview is made.
      const message = String.fromCharCode(65 + i).repeat(2 * MiB);
      return [boundedValue({ message }), titleOfReceived('elicitation', { message })];
    });
    const grown = heapAfterGc() - before;
    // Kept whole they would be 32 MiB (one byte a character); the previews are 64 KiB together.
    assert.ok(grown < 8 * MiB, `the heap grew by ${(grown / MiB).toFixed(1)} MiB for 16 previews and titles`);
    assert.equal(previews.length, 16);
  });

  it('names a model request with no text to quote as one, in the Desk’s words, not the protocol’s', () => {
    // As the Tasks row names it ("A model request"): "sampling" is the protocol's word.
    assert.equal(titleOfReceived('sampling', { messages: [] }), 'A model request');
    assert.equal(
      titleOfReceived('sampling', {
        messages: [{ role: 'user', content: { type: 'image', data: '', mimeType: 'image/png' } }]
      }),
      'A model request'
    );
  });

  it('previews a tool call’s arguments in a line of at most 80 characters, cut with an ellipsis', () => {
    assert.equal(
      argumentsPreview({ message: 'hi', count: 3, tags: ['a', 'b'], nested: { ok: true } }),
      'message: "hi", count: 3, tags: ["a","b"], nested: {"ok":true}'
    );
    assert.equal(argumentsPreview({ text: 'two\nlines' }), 'text: "two\\nlines"', 'a line: breaks stay escaped');
    assert.equal(argumentsPreview({}), undefined);
    assert.equal(argumentsPreview(undefined), undefined);
    const long = argumentsPreview({ message: 'x'.repeat(1_000_000), after: 1 })!;
    assert.equal(long.length, 80);
    assert.match(long, /^message: "x+…$/);
    const many = argumentsPreview(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])))!;
    assert.ok(many.length <= 80 && many.endsWith('…') && many.startsWith('k0: 0, k1: 1'));
  });

  it('gives an entry a preview where its title does not already say it', () => {
    const call = { kind: 'tool-call' as const, title: 'Tool call: echo' };
    assert.equal(
      previewOf({ ...call, request: { name: 'echo', arguments: { message: 'first' } } }),
      'message: "first"'
    );
    const large = boundedValue({ name: 'echo', arguments: { message: 'y'.repeat(100_000) } });
    assert.match(previewOf({ ...call, request: large })!, /^\{"message":"y+…$/);
    // An elicitation's title is its question, and a model request's its last user text.
    assert.equal(
      previewOf({ kind: 'elicitation', title: 'Your name?', request: { message: 'Your name?' } }),
      undefined
    );
    const said = (role: string, text: string) => ({ role, content: { type: 'text', text } });
    assert.equal(
      previewOf({ kind: 'sampling', title: 'Weather?', request: { messages: [said('user', 'Weather?')] } }),
      undefined
    );
    assert.equal(
      previewOf({
        kind: 'sampling',
        title: 'Weather?',
        request: { messages: [said('user', 'Weather?'), said('assistant', 'Where are you?')] }
      }),
      'Where are you?'
    );
  });
});
