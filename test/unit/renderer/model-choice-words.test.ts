import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelChoiceText, unlistedModelText, type DraftedChoice } from '../../../renderer/inbox/model-choice-words.js';

const drafted: DraftedChoice = {
  providerId: 'local',
  providerName: 'Local fake',
  model: 'paced',
  reason: 'using the default model of Local fake'
};
const local = { name: 'Local fake', models: [{ name: 'paced' }], defaultModel: 'paced' };
const other = { name: 'Other', models: [{ name: 'big' }] };
const broken = { name: 'Broken', models: [] };

describe('the line above an approval card’s picker', () => {
  it('keeps Taskdesk’s reason while the picker holds what it drafted', () => {
    assert.equal(
      modelChoiceText(drafted, { providerId: 'local', provider: local, model: 'paced' }),
      'Local fake · paced — using the default model of Local fake'
    );
  });

  it('names another choice as the person’s, and what Taskdesk had chosen', () => {
    assert.equal(
      modelChoiceText(drafted, { providerId: 'other', provider: other, model: ' big ' }),
      'Other · big — chosen by you, instead of Local fake · paced'
    );
    assert.equal(
      modelChoiceText(drafted, { providerId: 'local', provider: local, model: 'quick' }),
      'Local fake · quick — chosen by you, instead of Local fake · paced'
    );
  });

  it('says no model is chosen, and what Approve does then', () => {
    assert.equal(
      modelChoiceText(drafted, { providerId: 'local', provider: local, model: ' ' }),
      'Local fake · no model chosen — Approve runs paced (using the default model of Local fake)'
    );
    assert.equal(
      modelChoiceText(drafted, { providerId: 'other', provider: other, model: '' }),
      'Other · no model chosen — choose one to approve'
    );
    assert.equal(
      modelChoiceText(drafted, { providerId: 'broken', provider: broken, model: '' }),
      'Broken · no model chosen — Broken lists none: type the name of one it runs to approve'
    );
  });

  it('says the provider drafted was removed', () => {
    assert.equal(
      modelChoiceText(drafted, { providerId: 'local', provider: undefined, model: 'paced' }),
      'Local fake (removed) · paced — choose another provider to run it'
    );
  });
});

describe('why Approve refuses a model the provider does not list', () => {
  it('names the models to choose from when they are few, else counts them', () => {
    assert.equal(
      unlistedModelText('Tiny stories', 'n a time in Tromsø', ['stories260K']),
      'Tiny stories lists no model named “n a time in Tromsø”: choose one it lists: stories260K.'
    );
    assert.equal(
      unlistedModelText('OpenAI', 'gpt-5o', ['a', 'b', 'c', 'd', 'e', 'f']),
      'OpenAI lists no model named “gpt-5o”: choose one of the 6 models it lists (type to see them).'
    );
  });
});
