import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deskIsNew } from '../../../renderer/inbox/first-run.js';

describe('whether the Desk is still new to its person', () => {
  it('is new with no server, or with only the servers Taskdesk added, and no longer once the person adds one', () => {
    assert.equal(deskIsNew([]), true);
    assert.equal(deskIsNew([{ addedBy: 'taskdesk' }]), true);
    assert.equal(deskIsNew([{ addedBy: 'taskdesk' }, {}]), false);
    // The person's own server, whatever its id (one they call "everything" too), and a server of
    // Taskdesk's configuration, are theirs.
    assert.equal(deskIsNew([{}]), false);
  });
});
