import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLink } from '../../../renderer/inbox/link-warnings.js';

/** What the check finds in a link as a server sent it. */
const check = (raw: string) => checkLink(raw, new URL(raw));

describe('checkLink (URL elicitation: warnings of a link that may not be the site it seems)', () => {
  it('finds nothing in a plain https link on a named site', () => {
    assert.deepEqual(check('https://accounts.example.test/connect?elicitationId=el-1'), {
      concerns: [],
      sentences: []
    });
    assert.deepEqual(check('https://mcp.example.com:8443/ui/set_api_key').concerns, []);
  });

  it('warns of a host in another script, naming it as it is opened (Punycode)', () => {
    // A Cyrillic а in place of the Latin a: the parsed host is Punycode.
    const cyrillic = check('https://\u0430pple.com/login');
    assert.deepEqual(cyrillic.concerns, ['lookalike']);
    assert.deepEqual(cyrillic.sentences, [
      'This address uses characters that can imitate another site’s name (xn--pple-43d.com).'
    ]);
    // The same host sent as Punycode, and a Punycode label below an ordinary domain.
    assert.deepEqual(check('https://xn--pple-43d.com/login').concerns, ['lookalike']);
    assert.deepEqual(check('https://login.XN--pple-43d.example.com/').concerns, ['lookalike']);
    // Any non-ASCII host, not only a mixed one: the person cannot tell them apart at a glance.
    assert.deepEqual(check('https://m\u00fcnchen.example/').concerns, ['lookalike']);
  });

  it('warns of a host shown in letters the parser turns into others (fullwidth)', () => {
    // Parsed, it is plain apple.com; but the person was shown something else.
    const raw = 'https://\uff41pple.com/';
    assert.equal(new URL(raw).hostname, 'apple.com');
    assert.deepEqual(check(raw).concerns, ['lookalike']);
  });

  it('does not count non-ASCII in the path or query as the site’s name', () => {
    assert.deepEqual(check('https://example.com/caf\u00e9?q=\u0430').concerns, []);
  });

  it('warns of a name (or password) before the host, saying which site it opens', () => {
    const userinfo = check('https://apple.com@evil.example/login');
    assert.deepEqual(userinfo.concerns, ['credentials']);
    assert.deepEqual(userinfo.sentences, [
      'This address has a name before the site (apple.com@), which can make it look like another site; it opens evil.example.'
    ]);
    assert.deepEqual(check('https://user:secret@example.com/').concerns, ['credentials']);
    assert.deepEqual(check('https://:secret@example.com/').sentences, [
      'This address has a name before the site (…@), which can make it look like another site; it opens example.com.'
    ]);
  });

  it('warns of an IP address literal, IPv4 (however written) and IPv6', () => {
    assert.deepEqual(check('https://203.0.113.7/pay').sentences, [
      'This address is a number (203.0.113.7), not a site’s name: it does not say whose site it is.'
    ]);
    // 0x7f.1 is 127.0.0.1 to the parser, and to the browser that opens it.
    assert.deepEqual(check('https://0x7f.1/').concerns, ['ip-address']);
    assert.deepEqual(check('https://[2001:db8::1]/').concerns, ['ip-address']);
    assert.deepEqual(check('https://1.example.com/').concerns, [], 'a name that starts with a digit is a name');
  });

  it('warns of http, and says every concern of a link in one list', () => {
    assert.deepEqual(check('http://example.com/').sentences, [
      'This address is not secure (http, not https): what you type on the page can be read on its way.'
    ]);
    assert.deepEqual(check('http://me:pw@192.0.2.1/\u0430').concerns, ['credentials', 'ip-address', 'not-https']);
    assert.deepEqual(check('http://user@xn--pple-43d.com/').concerns, ['lookalike', 'credentials', 'not-https']);
  });
});
