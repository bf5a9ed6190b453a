import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseModel } from '../../../app/sampling/model-selection.js';
import { ProviderSettingsSchema, type ProviderSettings } from '../../../app/contract/providers.js';

const openai: ProviderSettings = ProviderSettingsSchema.parse({
  id: 'openai',
  name: 'OpenAI',
  baseURL: 'https://api.openai.com/v1',
  defaultModel: 'gpt-4o-mini',
  models: [
    { name: 'gpt-4o', ratings: { cost: 0.8, speed: 0.5, intelligence: 0.9 } },
    { name: 'gpt-4o-mini', ratings: { cost: 0.2, speed: 0.8, intelligence: 0.6 } }
  ]
});
const ollama: ProviderSettings = ProviderSettingsSchema.parse({
  id: 'ollama',
  name: 'Ollama',
  baseURL: 'http://127.0.0.1:11434/v1',
  models: [{ name: 'llama3.2:3b', ratings: { cost: 0, speed: 0.9, intelligence: 0.3 } }, { name: 'Qwen2.5-Coder:7b' }]
});

describe('chooseModel', () => {
  it('returns undefined when no provider offers a model', () => {
    assert.equal(chooseModel([], undefined), undefined);
    const empty = ProviderSettingsSchema.parse({ id: 'x', name: 'X', baseURL: 'http://127.0.0.1:1/v1' });
    assert.equal(chooseModel([empty], { hints: [{ name: 'gpt' }] }), undefined);
  });

  it('uses the first provider default when there are no preferences', () => {
    const choice = chooseModel([openai, ollama], undefined)!;
    assert.deepEqual([choice.providerId, choice.model], ['openai', 'gpt-4o-mini']);
    assert.match(choice.reason, /default model of OpenAI/);
  });

  it('falls back to the first model when the provider has no default', () => {
    const choice = chooseModel([ollama], {})!;
    assert.equal(choice.model, 'llama3.2:3b');
  });

  it('matches hints as case-insensitive substrings, in the order given', () => {
    const choice = chooseModel([openai, ollama], {
      hints: [{ name: 'claude-3' }, { name: 'qwen2.5' }, { name: 'gpt' }]
    })!;
    assert.deepEqual([choice.providerId, choice.model], ['ollama', 'Qwen2.5-Coder:7b']);
    assert.match(choice.reason, /hint "qwen2.5" matched model "Qwen2.5-Coder:7b"/);
    assert.match(choice.reason, /earlier hints matched nothing/);
  });

  it('breaks a tie between models matching one hint with the priorities', () => {
    const cheap = chooseModel([openai], { hints: [{ name: 'gpt-4o' }], costPriority: 1 })!;
    assert.equal(cheap.model, 'gpt-4o-mini');
    const smart = chooseModel([openai], { hints: [{ name: 'gpt-4o' }], intelligencePriority: 1 })!;
    assert.equal(smart.model, 'gpt-4o');
    assert.match(smart.reason, /2 models matched/);
  });

  it('breaks a hint tie by the user order when no priorities are given', () => {
    const choice = chooseModel([openai], { hints: [{ name: 'GPT' }] })!;
    assert.equal(choice.model, 'gpt-4o');
    assert.match(choice.reason, /first in your order/);
  });

  it('scores rated models against the priorities when no hint matches', () => {
    const fast = chooseModel([openai, ollama], { hints: [{ name: 'claude' }], speedPriority: 1, costPriority: 0.5 })!;
    assert.equal(fast.model, 'llama3.2:3b');
    assert.match(fast.reason, /no model matched the server's hints \("claude"\)/);
    assert.match(fast.reason, /best score 1\.40/);
    const smart = chooseModel([openai, ollama], { intelligencePriority: 0.9, speedPriority: 0.1 })!;
    assert.equal(smart.model, 'gpt-4o');
  });

  it('falls back to the default and says why when no model is rated', () => {
    const unrated = ProviderSettingsSchema.parse({
      ...ollama,
      models: [{ name: 'a' }, { name: 'b' }],
      defaultModel: 'b'
    });
    const choice = chooseModel([unrated], { intelligencePriority: 1 })!;
    assert.equal(choice.model, 'b');
    assert.match(choice.reason, /no model has ratings/);
  });

  it('ignores empty hints', () => {
    const choice = chooseModel([openai], { hints: [{}, { name: '  ' }] })!;
    assert.equal(choice.model, 'gpt-4o-mini');
    assert.doesNotMatch(choice.reason, /hint/);
  });

  describe('passing over a failing provider (a person approves the draft)', () => {
    const failing = (...ids: string[]) => ({ failing: (id: string) => ids.includes(id) });
    const listless = ProviderSettingsSchema.parse({
      id: 'listless',
      name: 'Listless',
      baseURL: 'http://127.0.0.1:2/v1'
    });
    const spare = ProviderSettingsSchema.parse({
      id: 'spare',
      name: 'Spare',
      baseURL: 'http://127.0.0.1:3/v1',
      models: [{ name: 'spare-small' }, { name: 'spare-large' }],
      defaultModel: 'spare-large'
    });

    it('takes the first provider in the person’s order that lists a model and is not failing, and says why', () => {
      const choice = chooseModel([openai, listless, ollama, spare], undefined, failing('openai', 'ollama'))!;
      assert.deepEqual([choice.providerId, choice.model], ['spare', 'spare-large']);
      assert.equal(
        choice.reason,
        'instead of OpenAI · gpt-4o-mini, whose last call failed: the first provider that is not failing'
      );
      // One with no default model runs its first.
      const first = chooseModel([openai, ollama], undefined, failing('openai'))!;
      assert.deepEqual([first.providerId, first.model], ['ollama', 'llama3.2:3b']);
    });

    it('keeps the first provider when it is not failing, and when every provider fails', () => {
      assert.equal(chooseModel([openai, spare], undefined, failing('spare'))!.providerId, 'openai');
      const all = chooseModel([openai, spare], undefined, failing('openai', 'spare'))!;
      assert.equal(all.providerId, 'openai');
      assert.match(all.reason, /^using the default model of OpenAI$/);
    });

    it('keeps what the server’s preferences chose, even on a failing provider', () => {
      const hinted = chooseModel([openai, spare], { hints: [{ name: 'gpt-4o' }] }, failing('openai'))!;
      assert.deepEqual([hinted.providerId, hinted.model], ['openai', 'gpt-4o']);
      const weighed = chooseModel([openai, spare], { costPriority: 1 }, failing('openai'))!;
      assert.equal(weighed.providerId, 'openai');
    });

    it('passes over it where the preferences decided nothing, and says both', () => {
      const choice = chooseModel([openai, spare], { hints: [{ name: 'claude' }] }, failing('openai'))!;
      assert.equal(choice.providerId, 'spare');
      assert.equal(
        choice.reason,
        'no model matched the server\'s hints ("claude"); instead of OpenAI · gpt-4o-mini, whose last call failed: the first provider that is not failing'
      );
    });
  });
});
