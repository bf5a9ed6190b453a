import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  failureOf,
  foundSentence,
  listingAnnouncement,
  listsWords
} from '../../../renderer/providers/model-listing.js';

describe('what a provider listed, in words', () => {
  it('says how many models it lists and names the first few, one model as one', () => {
    assert.equal(foundSentence(['paced']), 'It lists one model: paced.');
    assert.equal(foundSentence(['fake-small', 'fake-large']), 'It lists 2 models: fake-small, fake-large.');
    assert.equal(foundSentence(['a', 'b', 'c', 'd', 'e']), 'It lists 5 models: a, b, c and 2 more.');
  });

  it('says how many it lists as the card and Test connection both say it', () => {
    assert.equal(listsWords(1), 'It lists one model');
    assert.equal(listsWords(2), 'It lists 2 models');
  });

  it('announces the models a save listed, none, or why none could be', () => {
    assert.equal(listingAnnouncement({ ok: true, models: ['paced'] }, 'Paced'), 'It lists one model: paced.');
    assert.equal(
      listingAnnouncement({ ok: true, models: [] }, 'Empty'),
      'The provider names no models: add one by name with Edit.'
    );
    assert.equal(
      listingAnnouncement({ ok: false, kind: 'http', message: 'The server answered 401.' }, 'Remote'),
      'No model could be listed: The server answered 401.'
    );
    // After "Saved Stories.", a model file's failure does not name it again.
    assert.equal(
      listingAnnouncement(
        { ok: false, kind: 'bad-request', message: 'Stories: The model file /m/x.gguf was not found.' },
        'Stories'
      ),
      'No model could be listed: The model file /m/x.gguf was not found.'
    );
  });

  it('says a failure without the provider’s name where that name is in sight, and only a leading "<name>: "', () => {
    assert.equal(
      failureOf('Stories: The model file /m/x.gguf was not found.', 'Stories'),
      'The model file /m/x.gguf was not found.'
    );
    // A server's failure names it in its sentence: kept whole.
    assert.equal(
      failureOf('Could not connect to Away (127.0.0.1:9).', 'Away'),
      'Could not connect to Away (127.0.0.1:9).'
    );
    assert.equal(failureOf('Other: it failed.', 'Stories'), 'Other: it failed.');
    assert.equal(failureOf('a.b: gone.', 'a*b'), 'a.b: gone.');
  });
});
