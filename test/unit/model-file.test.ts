import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFullPath, localModelId } from '../../app/contract/model-file.js';

describe('a model file’s path and model name', () => {
  it('takes full paths (POSIX, a Windows drive, a share) and no relative or device path', () => {
    for (const file of ['/models/x.gguf', 'C:\\models\\x.gguf', 'd:/m/x.gguf', '\\\\nas\\models\\x.gguf'])
      assert.equal(isFullPath(file), true, file);
    for (const file of ['x.gguf', 'models/x.gguf', '~/x.gguf', '\\\\.\\pipe\\x', '\\\\?\\C:\\x.gguf', ''])
      assert.equal(isFullPath(file), false, file);
  });

  it('names the model after the file, without .gguf, on either kind of separator', () => {
    assert.equal(localModelId('/m/Llama-3.2-1B.Q4.gguf'), 'Llama-3.2-1B.Q4');
    assert.equal(localModelId('C:\\m\\tales.GGUF'), 'tales');
    assert.equal(localModelId('/m/weights.bin'), 'weights.bin');
    assert.equal(localModelId('/m/.gguf'), '.gguf');
  });
});
