import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionState } from '../../../app/contract/host-api.js';
import { signInRequestText } from '../../../app/contract/sign-in-words.js';
import {
  addedWords,
  connectAgainWords,
  firstSentence,
  needsSignIn,
  notConnectedName,
  notConnectedStep,
  oneNotConnected
} from '../../../renderer/servers/added-words.js';

describe('what is announced after adding a server', () => {
  it('says whether it connected, with the first sentence of the reason when it did not', () => {
    assert.equal(addedWords('Bogus'), 'Added Bogus.');
    assert.equal(addedWords('Bogus', { connected: true }), 'Added Bogus; it is connected.');
    assert.equal(
      addedWords('Bogus', {
        connected: false,
        reason:
          "Could not connect: Nothing is listening at 127.0.0.1:4000 (ECONNREFUSED). Is the server running, and is the URL's port right?"
      }),
      'Added Bogus, but it could not connect: Nothing is listening at 127.0.0.1:4000 (ECONNREFUSED).'
    );
    assert.equal(addedWords('Bogus', { connected: false }), 'Added Bogus, but it could not connect.');
  });

  it('says a server that only asks for a sign-in was added, and the step, not that it could not connect', () => {
    // The reason the core gives a connect the server answered with a request for authorization.
    const reason = `Could not connect: ${signInRequestText('Protected', 'http://127.0.0.1:4100')}`;
    assert.equal(
      addedWords('Protected', { connected: false, reason }),
      'Added Protected. It asks you to sign in: press Sign in on its card.'
    );
    assert.equal(
      addedWords('Protected', {
        connected: false,
        reason: `Could not connect: ${signInRequestText('Protected', undefined)}`
      }),
      'Added Protected. It asks you to sign in: press Sign in on its card.'
    );
  });

  it('keeps a parenthesis whole, and ends the sentence', () => {
    assert.equal(
      firstSentence('Connection closed (stderr: Error: cannot find ~/.app.toml. Run init first)'),
      'Connection closed (stderr: Error: cannot find ~/.app.toml. Run init first).'
    );
    assert.equal(
      firstSentence(
        'The server at http://127.0.0.1:8/v1 answered 404 Not Found: is the address right? (MCP servers usually end in /mcp.)'
      ),
      'The server at http://127.0.0.1:8/v1 answered 404 Not Found: is the address right?'
    );
    assert.equal(firstSentence(''), '');
  });

  it('says what to check of a server that could not connect, and where to change it', () => {
    assert.equal(
      connectAgainWords('stdio'),
      'Check its command, arguments and environment with Edit…, then press Connect again.'
    );
    assert.equal(connectAgainWords('http'), 'Check its URL and headers with Edit…, then press Connect again.');
    assert.equal(
      connectAgainWords('http', true),
      'Check its URL and headers where Taskdesk is configured, then press Connect again.'
    );
  });
});

describe('a server named among those not connected', () => {
  const asks: ConnectionState = {
    status: 'failed',
    failedFor: 'sign-in',
    reason: `Could not connect: ${signInRequestText('Protected', 'http://127.0.0.1:4100')}`,
    auth: { status: 'sign-in-required', issuer: 'http://127.0.0.1:4100' }
  };

  it('says that one which only waits for a sign-in needs you to sign in', () => {
    assert.equal(notConnectedName({ name: 'Protected', state: asks }), 'Protected (needs you to sign in)');
    // Under way in the browser, or signed out (the sign-out disconnected it): the step is still the person's.
    const waiting: ConnectionState = { ...asks, auth: { status: 'sign-in-required', waiting: true } };
    assert.equal(notConnectedName({ name: 'Protected', state: waiting }), 'Protected (needs you to sign in)');
    const signedOut: ConnectionState = {
      status: 'closed',
      reason: 'Disconnected by you.',
      auth: { status: 'signed-out' }
    };
    assert.equal(notConnectedName({ name: 'Protected', state: signedOut }), 'Protected (needs you to sign in)');
  });

  it('names the others alone: one that is down, one without a sign-in, one signed in', () => {
    const down: ConnectionState = {
      status: 'failed',
      reason: 'Could not connect: Nothing is listening at 127.0.0.1:4100 (ECONNREFUSED).',
      auth: { status: 'sign-in-required' }
    };
    assert.equal(needsSignIn(down), false);
    assert.equal(notConnectedName({ name: 'Protected', state: down }), 'Protected');
    assert.equal(notConnectedName({ name: 'Server b', state: { status: 'closed' } }), 'Server b');
    const signedIn: ConnectionState = { status: 'closed', auth: { status: 'signed-in', subject: 'alice' } };
    assert.equal(notConnectedName({ name: 'Protected', state: signedIn }), 'Protected');
  });

  it('says the step on the cards: a sign-in when that is all they wait for, else their connection', () => {
    const down: ConnectionState = { status: 'failed', reason: 'Could not connect: Nothing is listening.' };
    assert.equal(oneNotConnected({ name: 'Protected', state: asks }), 'Protected needs you to sign in');
    assert.equal(oneNotConnected({ name: 'Server a', state: down }), 'Server a is not connected');
    assert.equal(notConnectedStep([{ state: asks }]), 'sign in on its card');
    assert.equal(notConnectedStep([{ state: asks }, { state: asks }]), 'sign in on their cards');
    assert.equal(notConnectedStep([{ state: down }]), 'check its connection');
    // One of them down: a sign-in would not bring it back.
    assert.equal(notConnectedStep([{ state: asks }, { state: down }]), 'check their connections');
  });
});
