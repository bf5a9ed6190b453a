import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgreedSignIns } from '../../../main/agreed-sign-ins.js';

describe('sign-in pages the person agreed to open (the app lets each through once, without a second dialog)', () => {
  const page = 'https://auth.example/authorize?client_id=taskdesk&state=s1';

  it('lets through the page of an auth.signIn answer, once', () => {
    const agreed = new AgreedSignIns();
    agreed.noteReply('auth.signIn', {
      ok: true,
      result: { type: 'open', authorizationUrl: page, issuer: 'https://auth.example' }
    });
    assert.equal(agreed.take(page), true);
    assert.equal(agreed.take(page), false, 'a second open asks again');
  });

  it('asks for every other link: other methods, failed answers, already signed in, other pages, other schemes', () => {
    const agreed = new AgreedSignIns();
    agreed.noteReply('tools.call', {
      ok: true,
      result: { type: 'open', authorizationUrl: page, issuer: 'x' }
    } as never);
    agreed.noteReply('auth.signIn', { ok: false, error: { code: -32603, message: 'no' } });
    agreed.noteReply('auth.signIn', { ok: true, result: { type: 'signed-in' } });
    assert.equal(agreed.take(page), false);
    agreed.noteReply('auth.signIn', { ok: true, result: { type: 'open', authorizationUrl: page, issuer: 'x' } });
    assert.equal(agreed.take('https://elsewhere.example/'), false);
    const odd = 'file:///etc/passwd';
    agreed.noteReply('auth.signIn', { ok: true, result: { type: 'open', authorizationUrl: odd, issuer: 'x' } });
    assert.equal(agreed.take(odd), false, 'only http(s) opens without asking');
  });
});
