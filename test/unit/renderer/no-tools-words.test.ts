import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noToolsWords } from '../../../renderer/assistant/no-tools-words.js';

describe('a chat without tools, in its header', () => {
  it('says only that when the chat was set so', () => {
    assert.equal(noToolsWords({}), ' · no tools');
  });

  it('says why when the model’s context cannot hold the descriptions of the tools left out, one or many', () => {
    assert.equal(
      noToolsWords({ toolsOff: { tools: 48, contextSize: 512 } }),
      ' · no tools: the descriptions of your servers’ 48 tools do not fit this model’s context of 512 tokens'
    );
    assert.equal(
      noToolsWords({ toolsOff: { tools: 1, contextSize: 512 } }),
      ' · no tools: the description of your servers’ one tool does not fit this model’s context of 512 tokens'
    );
  });
});
