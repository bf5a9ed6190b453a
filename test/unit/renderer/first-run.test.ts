import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_SERVER_ID as HOST_DEMO_SERVER_ID } from '../../../app/cli/demo-server.js';
import { DEMO_SERVER_ID, deskIsNew } from '../../../renderer/inbox/first-run.js';

describe('whether the Desk is still new to its person', () => {
  it('knows the demo server by the id the host saves it under', () => {
    assert.equal(DEMO_SERVER_ID, HOST_DEMO_SERVER_ID);
  });

  it('is new with no server, or with only the demo server Taskdesk added, and no longer once the person adds one', () => {
    assert.equal(deskIsNew([]), true);
    assert.equal(deskIsNew([{ id: DEMO_SERVER_ID }]), true);
    assert.equal(deskIsNew([{ id: DEMO_SERVER_ID }, { id: 'mine' }]), false);
    assert.equal(deskIsNew([{ id: 'mine' }]), false);
    // A server from Taskdesk's own configuration is not the demo one Taskdesk added, whatever its id.
    assert.equal(deskIsNew([{ id: DEMO_SERVER_ID, configured: true }]), false);
  });
});
