import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addedWords, connectAgainWords, firstSentence } from '../../../renderer/servers/added-words.js';

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
