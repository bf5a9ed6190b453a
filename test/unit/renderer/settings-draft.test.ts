import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followed, sameSettings, toolsSaved, type SettingsDraft } from '../../../renderer/assistant/settings-draft.js';

const saved: SettingsDraft = {
  title: 'New chat',
  providerId: 'fake',
  model: 'fake-small',
  systemPrompt: '',
  serverIds: ['work', 'desk'],
  toolsOffered: {},
  maxToolRounds: 10,
  imageInput: true
};

describe('the settings form’s draft as the conversation changes under it', () => {
  it('takes what the core changed in fields the person has not edited', () => {
    const after = { ...saved, title: 'Hello, what tools do you have?' };
    assert.deepEqual(followed(saved, saved, after), after);
  });

  it('keeps what the person edited, and takes the rest', () => {
    const draft = { ...saved, title: 'Mine', serverIds: ['desk'] };
    const after = { ...saved, title: 'Hello', systemPrompt: 'Answer briefly.', serverIds: ['work'] };
    assert.deepEqual(followed(draft, saved, after), {
      ...saved,
      title: 'Mine',
      systemPrompt: 'Answer briefly.',
      serverIds: ['desk']
    });
  });

  it('keeps the provider and its model together: an edit of either keeps both, else both follow', () => {
    const after = { ...saved, providerId: 'other', model: 'other-large' };
    // The person chose another model of the same provider while another window moved the chat elsewhere.
    const model = { ...saved, model: 'fake-large' };
    assert.deepEqual(followed(model, saved, after), model);
    const provider = { ...saved, providerId: 'third', model: 'third-a' };
    assert.deepEqual(followed(provider, saved, { ...saved, model: 'fake-large' }), provider);
    // Neither edited: both follow, with the rest.
    assert.deepEqual(followed({ ...saved, title: 'Mine' }, saved, after), { ...after, title: 'Mine' });
  });

  it('gives back the same draft when nothing in it changes (its save stays “Saved.”)', () => {
    const draft = { ...saved, title: 'Mine' };
    // Saved as edited: the conversation now holds the draft's values.
    assert.equal(followed(draft, saved, draft), draft);
    // The servers in another order are the same choice.
    assert.equal(followed(saved, saved, { ...saved, serverIds: ['desk', 'work'] }), saved);
  });

  it('counts a title or prompt of spaces as what it saves as', () => {
    assert.equal(sameSettings({ ...saved, systemPrompt: '  ' }, saved), true);
    assert.equal(sameSettings({ ...saved, title: ' New chat ' }, saved), true);
    assert.equal(sameSettings({ ...saved, serverIds: ['desk', 'work'] }, saved), true);
    assert.equal(sameSettings({ ...saved, serverIds: ['desk'] }, saved), false);
  });

  it('saves a tool choice for the servers ticked only, in any order, and follows one made elsewhere', () => {
    const chosen = { ...saved, toolsOffered: { work: ['b', 'a'] } };
    assert.deepEqual(toolsSaved(chosen), { work: ['a', 'b'] });
    assert.equal(sameSettings(chosen, { ...saved, toolsOffered: { work: ['a', 'b'] } }), true);
    assert.equal(sameSettings(chosen, saved), false);
    // A choice for a server not ticked is not saved: it is no change.
    assert.deepEqual(toolsSaved({ ...saved, toolsOffered: { gone: ['x'] } }), {});
    assert.equal(sameSettings({ ...saved, toolsOffered: { gone: ['x'] } }, saved), true);
    // Not edited here, it follows the conversation; edited, it stays.
    assert.deepEqual(followed(saved, saved, chosen).toolsOffered, { work: ['b', 'a'] });
    const mine = { ...saved, toolsOffered: { desk: ['c'] } };
    assert.deepEqual(followed(mine, saved, chosen).toolsOffered, { desk: ['c'] });
  });
});
