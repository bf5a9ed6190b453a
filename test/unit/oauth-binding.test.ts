import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { openLoopbackRedirect } from '../../app/auth/loopback-redirect.js';
import { subjectOf } from '../../app/auth/token-subject.js';
import { ownerIdentity, type ServerConfig } from '../../app/mcp/server-config.js';

const config: ServerConfig = {
  id: 'remote',
  name: 'Remote',
  autoConnect: true,
  transport: { type: 'http', url: 'https://mcp.example.com/mcp' }
};
const grant = {
  issuer: 'https://as.example.com/',
  clientId: 'c1',
  resource: 'https://mcp.example.com/mcp',
  subject: 'alice'
};

describe('tasks bound to the OAuth grant', () => {
  it('keeps the identity of a server without a grant what it was', () => {
    const legacy = createHash('sha256')
      .update(JSON.stringify(['remote', 'http', 'https://mcp.example.com/mcp', '']))
      .digest('base64url');
    assert.equal(ownerIdentity(config), legacy);
  });

  it('is the same for the same grant, and differs for another user, client, issuer, resource or server', () => {
    const bound = ownerIdentity(config, grant);
    assert.equal(ownerIdentity(config, { ...grant }), bound);
    assert.notEqual(bound, ownerIdentity(config));
    for (const other of [
      { ...grant, subject: 'bob' },
      { ...grant, clientId: 'c2' },
      { ...grant, issuer: 'https://other-as.example.com/' },
      { ...grant, resource: 'https://mcp.example.com/other' }
    ])
      assert.notEqual(ownerIdentity(config, other), bound, JSON.stringify(other));
    assert.notEqual(ownerIdentity({ ...config, id: 'twin' }, grant), bound);
  });

  it('reads the subject of a JWT access token or id_token, and none of an opaque one', () => {
    const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    assert.equal(subjectOf({ access_token: jwt({ sub: 'alice' }), token_type: 'bearer' }), 'alice');
    assert.equal(subjectOf({ access_token: 'opaque', token_type: 'bearer', id_token: jwt({ sub: 'bob' }) }), 'bob');
    assert.equal(subjectOf({ access_token: 'opaque-token', token_type: 'bearer' }), undefined);
  });
});

describe('the loopback redirect listener', () => {
  it('listens on 127.0.0.1, refuses a response with another state, and takes the matching one', async () => {
    const loopback = await openLoopbackRedirect('the-state');
    try {
      assert.match(loopback.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const forged = await fetch(`${loopback.redirectUri}?code=evil&state=other`);
      assert.equal(forged.status, 400);
      const answer = fetch(`${loopback.redirectUri}?code=c0de&state=the-state&iss=https%3A%2F%2Fas.example.com%2F`);
      assert.deepEqual(await loopback.outcome, { type: 'code', code: 'c0de', iss: 'https://as.example.com/' });
      loopback.respond({ ok: true, message: 'Signed in to <Remote>.' });
      const page = await answer;
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Signed in to &#60;Remote&#62;\./);
    } finally {
      loopback.close();
    }
  });

  it('closed with an afterword, tells a browser that comes back late why, uses nothing it carries, and then closes', async () => {
    const loopback = await openLoopbackRedirect('s');
    let outcome: unknown = 'unsettled';
    loopback.outcome.then(
      (value) => (outcome = value),
      () => (outcome = 'rejected')
    );
    loopback.close('You cancelled this sign-in to <Remote> in Taskdesk.');
    const late = await fetch(`${loopback.redirectUri}?code=c0de&state=s`);
    assert.equal(late.status, 400);
    assert.match(await late.text(), /You cancelled this sign-in to &#60;Remote&#62; in Taskdesk\./);
    assert.equal(outcome, 'rejected', 'the code it carried was not taken');
    assert.equal((await fetch(`${new URL(loopback.redirectUri).origin}/other`)).status, 404);
    // Closed for good (the host closes): nothing listens any more.
    loopback.close();
    await assert.rejects(fetch(`${loopback.redirectUri}?code=c0de&state=s`));
  });

  it('passes on the authorization server’s error', async () => {
    const loopback = await openLoopbackRedirect('s');
    try {
      const answer = fetch(`${loopback.redirectUri}?error=access_denied&error_description=No&state=s`);
      assert.deepEqual(await loopback.outcome, { type: 'error', error: 'access_denied', description: 'No' });
      loopback.respond({ ok: false, message: 'Refused.' });
      assert.equal((await answer).status, 400);
    } finally {
      loopback.close();
    }
  });
});
