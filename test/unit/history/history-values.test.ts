import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { boundedValue, titleOfReceived } from '../../../app/history/history-values.js';

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
});
