import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderView } from '../../../app/contract/providers.js';
import { defaultChoice } from '../../../renderer/inbox/default-choice.js';
import { modelChoiceText, type DraftedChoice } from '../../../renderer/inbox/model-choice-words.js';

const failing = { ok: false, since: '2026-12-03T10:05:00.000Z', via: 'test', message: 'Could not connect' } as const;
const answering = { ok: true, since: '2026-12-03T10:05:00.000Z', via: 'sampling' } as const;

const provider = (id: string, models: ProviderView['models'], over: Partial<ProviderView> = {}): ProviderView => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  baseURL: `http://127.0.0.1:9/${id}`,
  models,
  hasKey: false,
  ...over
});

const broken = provider('broken', [{ name: 'gpt-test' }], { defaultModel: 'gpt-test', health: failing });
const spare = provider('spare', [{ name: 'spare-small' }, { name: 'spare-large' }], { defaultModel: 'spare-large' });
const listless = provider('listless', [], { health: answering });
const down = provider('down', [{ name: 'down-model' }], { health: failing });

/** What the engine drafts with no preferences to go by: the first provider's default model. */
const engineDefault: DraftedChoice = {
  providerId: 'broken',
  providerName: 'Broken',
  model: 'gpt-test',
  reason: 'using the default model of Broken'
};
const plain = { messages: [], maxTokens: 10 };

describe('where an approval card’s provider and model picker starts', () => {
  it('takes the first provider that is not failing, in the person’s order, when the drafted one fails', () => {
    assert.deepEqual(defaultChoice([broken, listless, down, spare], engineDefault, plain), {
      providerId: 'spare',
      model: 'spare-large',
      insteadOfFailing: true
    });
    // A provider that lists no model is passed over, as Taskdesk passes it over; one with no
    // default model runs its first.
    const noDefault = provider('nodefault', [{ name: 'first' }, { name: 'second' }]);
    assert.deepEqual(defaultChoice([broken, noDefault, spare], engineDefault, plain), {
      providerId: 'nodefault',
      model: 'first',
      insteadOfFailing: true
    });
  });

  it('keeps the draft when its provider does not fail, or was not called yet', () => {
    const draft: DraftedChoice = { ...engineDefault, providerId: 'spare', providerName: 'Spare', model: 'spare-large' };
    assert.deepEqual(defaultChoice([spare, broken], draft, plain), { providerId: 'spare', model: 'spare-large' });
    const called = { ...spare, health: answering };
    assert.deepEqual(defaultChoice([called, broken], draft, plain), { providerId: 'spare', model: 'spare-large' });
  });

  it('keeps the first when every provider fails, as before', () => {
    assert.deepEqual(defaultChoice([broken, down], engineDefault, plain), {
      providerId: 'broken',
      model: 'gpt-test'
    });
  });

  it('keeps a choice the server’s model preferences made, even on a failing provider', () => {
    const hinted = { ...plain, modelPreferences: { hints: [{ name: 'GPT' }] } };
    assert.deepEqual(defaultChoice([broken, spare], engineDefault, hinted), {
      providerId: 'broken',
      model: 'gpt-test'
    });
    const rated = provider('spare', [{ name: 'spare-large', ratings: { speed: 0.2 } }], {
      defaultModel: 'spare-large'
    });
    const weighed = { ...plain, modelPreferences: { speedPriority: 1 } };
    assert.deepEqual(defaultChoice([broken, rated], engineDefault, weighed), {
      providerId: 'broken',
      model: 'gpt-test'
    });
    // Preferences that decided nothing (a hint no model matches, priorities with no model rated)
    // leave the default, which the failing provider gives way in.
    const unmatched = { ...plain, modelPreferences: { hints: [{ name: 'claude' }], speedPriority: 1 } };
    assert.equal(defaultChoice([broken, spare], engineDefault, unmatched).providerId, 'spare');
  });

  it('keeps a choice that is not the engine’s default: the server’s, or the person’s that ran and failed', () => {
    const other: DraftedChoice = { ...engineDefault, model: 'gpt-other', reason: 'server hint "other" matched' };
    const offersOther = { ...broken, models: [{ name: 'gpt-test' }, { name: 'gpt-other' }] };
    assert.deepEqual(defaultChoice([offersOther, spare], other, plain), { providerId: 'broken', model: 'gpt-other' });
    const failedRun = {
      ...engineDefault,
      lastFailure: {
        message: 'Could not connect',
        providerId: 'broken',
        providerName: 'Broken',
        model: 'gpt-test',
        at: ''
      }
    };
    assert.deepEqual(defaultChoice([broken, spare], failedRun, plain), { providerId: 'broken', model: 'gpt-test' });
  });

  it('says on the card’s line why the picker holds another provider than the one drafted', () => {
    const start = defaultChoice([broken, spare], engineDefault, plain);
    assert.equal(
      modelChoiceText(engineDefault, { providerId: 'spare', provider: spare, model: 'spare-large' }, start),
      'Spare · spare-large — instead of Broken · gpt-test, whose last call failed: the first provider that is not failing'
    );
    // Changed by the person from there, it is theirs.
    assert.equal(
      modelChoiceText(engineDefault, { providerId: 'spare', provider: spare, model: 'spare-small' }, start),
      'Spare · spare-small — chosen by you, instead of Broken · gpt-test'
    );
  });
});
