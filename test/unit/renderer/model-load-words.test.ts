import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  loadedPart,
  loadedWords,
  loadFailedWords,
  loadingWords
} from '../../../renderer/assistant/model-load-words.js';

describe('a new chat’s model file loading, in words', () => {
  it('says the model loads, and how far in whole percents when llama.cpp says it', () => {
    assert.equal(loadingWords('stories260K'), 'Loading stories260K…');
    assert.equal(loadedPart(0), '0%');
    assert.equal(loadedPart(0.406), '40%');
    assert.equal(loadedPart(1), '100%');
  });

  it('says why it did not load in the host’s words', () => {
    assert.equal(
      loadFailedWords('stories260K', 'The model file /m/stories260K.gguf was not found.'),
      'Could not load stories260K: The model file /m/stories260K.gguf was not found.'
    );
  });

  it('says it is ready, and why the chat offers no tools when it left them out', () => {
    assert.equal(loadedWords('stories260K', {}), 'stories260K is ready.');
    assert.equal(
      loadedWords('stories260K', { toolsOff: { tools: 8, contextSize: 512 } }),
      'stories260K is ready. No tools: the descriptions of your servers’ 8 tools do not fit this model’s context of 512 tokens.'
    );
    assert.equal(
      loadedWords('stories260K', { toolsOff: { tools: 1, contextSize: 512 } }),
      'stories260K is ready. No tools: the description of your servers’ one tool does not fit this model’s context of 512 tokens.'
    );
  });
});
