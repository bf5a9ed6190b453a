import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DISMISSED_WARNINGS_KEY,
  loadDismissedWarnings,
  saveDismissedWarnings,
  warningKey
} from '../../../renderer/shell/dismissed-warnings.js';

/** A Storage of one window's session, in memory. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('the host warnings dismissed in a window', () => {
  it('keeps what was dismissed for the next load of the page, by words and moved file', () => {
    const storage = memoryStorage();
    const moved = { message: 'The task store was unreadable.', movedTo: '/data/tasks.json.bad' };
    saveDismissedWarnings(storage, new Set([warningKey(moved)]));
    const dismissed = loadDismissedWarnings(storage);
    assert.equal(dismissed.has(warningKey(moved)), true);
    assert.equal(dismissed.has(warningKey({ message: 'The task store was unreadable.' })), false);
  });

  it('keeps a warning with an id dismissed by its id: the same words again (a new id) are not dismissed', () => {
    const storage = memoryStorage();
    const failed = { message: 'Tasks could not be saved: disk full', id: 'w-1' };
    saveDismissedWarnings(storage, new Set([warningKey(failed)]));
    const dismissed = loadDismissedWarnings(storage);
    assert.equal(dismissed.has(warningKey(failed)), true);
    assert.equal(dismissed.has(warningKey({ ...failed, id: 'w-2' })), false);
    // Nor is the same words without an id (those are told apart by their words).
    assert.equal(dismissed.has(warningKey({ message: failed.message })), false);
  });

  it('reads nothing dismissed from no storage, an unreadable value, or a refusing storage', () => {
    assert.deepEqual([...loadDismissedWarnings(undefined)], []);
    assert.deepEqual([...loadDismissedWarnings({ getItem: () => '{not json' })], []);
    assert.deepEqual([...loadDismissedWarnings({ getItem: () => '[1, "kept"]' })], ['kept']);
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      }
    };
    assert.deepEqual([...loadDismissedWarnings(refusing)], []);
    assert.doesNotThrow(() => saveDismissedWarnings(refusing, new Set(['a'])));
    assert.equal(DISMISSED_WARNINGS_KEY, 'taskdesk.dismissedWarnings');
  });
});
