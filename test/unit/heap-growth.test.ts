import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HEAP_GROWING_PERCENT } from '../../app/host/heap-growth.js';

const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'heap-growth-probe.ts');

async function fullCollections(mode: 'host' | 'tight'): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', probe, mode]);
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as { fullCollections: number; keptMiB: number };
  assert.equal(report.keptMiB, 88);
  return report.fullCollections;
}

describe("the host process's heap growth", () => {
  it('lets the heap grow past what survived a full collection by a third of it without another one', async () => {
    assert.equal(HEAP_GROWING_PERCENT, 100);
    assert.equal(await fullCollections('host'), 0);
  });

  it('is a V8 setting that still takes effect at run time: set tight, the same growth is collected', async () => {
    // If a V8 upgrade froze its flags after start-up or dropped this one, this fails.
    assert.ok((await fullCollections('tight')) >= 1);
  });
});
