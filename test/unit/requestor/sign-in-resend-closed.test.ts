import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OAuthSessions } from '../../../app/auth/oauth-sessions.js';
import { signInWait } from '../../../app/host/sign-in-resend.js';
import type { ServerConfig } from '../../../app/mcp/server-config.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { ManualClock } from '../../support/manual-clock.js';

const books = (url: string): ServerConfig => ({
  id: 'books',
  name: 'Books',
  transport: { type: 'http', url },
  autoConnect: false
});

/**
 * A call waiting for a server's sign-in, over the host's real sign-in sessions, whose sign-in is
 * given up because Taskdesk closes, or because the server moved: each is said in its own words.
 */
describe('a call waiting for a sign-in that Taskdesk’s closing or a new address ends', () => {
  /** A call of Books waiting for its sign-in, and the sessions it waits on. */
  function waiting() {
    const sessions = new OAuthSessions({
      keyStore: new InMemoryKeyStore(),
      onChange: () => undefined,
      onSignedIn: () => undefined
    });
    sessions.for(books('http://127.0.0.1:1/mcp'));
    const wait = signInWait({
      untilSignedIn: (serverId, signal, onNewPage) => sessions.untilSignedIn(serverId, signal, onNewPage),
      onServerState: () => () => undefined,
      onClosedByYou: () => () => undefined,
      registered: () => true,
      clock: new ManualClock()
    });
    const ended = wait({ serverId: 'books', serverName: 'Books' }, new AbortController().signal).then(
      () => 'sent again',
      (error: Error) => error.message
    );
    return { sessions, ended };
  }

  it('says Taskdesk closed when Taskdesk closes', async () => {
    const { sessions, ended } = waiting();
    sessions.close();
    assert.equal(await ended, 'Taskdesk closed before the sign-in to Books completed, so the call was not sent again.');
  });

  it('says the address changed when the server is moved', async () => {
    const { sessions, ended } = waiting();
    sessions.for(books('http://127.0.0.1:2/mcp'));
    assert.equal(
      await ended,
      'The sign-in to Books was dropped (its address changed), so the call was not sent again.'
    );
    sessions.close();
  });
});
