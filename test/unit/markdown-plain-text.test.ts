import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MARKDOWN, markdownPlainText } from '../../app/contract/markdown-plain-text.js';

describe('markdownPlainText (what a notification shows of a question)', () => {
  it('keeps the words of emphasis, code, links, images, headings, lists, quotes and tables, without their marks', () => {
    const cases: Array<[string, string]> = [
      ['Your **name** for the _booking_?', 'Your name for the booking?'],
      ['Pick ***one*** or ~~two~~ of `a*b*c`', 'Pick one or two of a*b*c'],
      ['See [the terms](https://example.com/terms "Terms") and ![a chart](c.png)', 'See the terms and a chart'],
      ['Read [the notes][notes].\n\n[notes]: https://example.com/notes', 'Read the notes.'],
      ['# Refund\n\nApprove the refund?', 'Refund Approve the refund?'],
      ['Title\n=====\nBody ##', 'Title Body ##'],
      ['- one\n- [x] two\n1. three', 'one two three'],
      ['> quoted **words**', 'quoted words'],
      ['| Item | Price |\n| --- | ---: |\n| Tea | 2 |', 'Item Price Tea 2'],
      ['```js\nconst a = 1;\n```', 'const a = 1;'],
      ['Before\n\n---\n\nafter', 'Before after']
    ];
    for (const [markdown, plain] of cases) assert.equal(markdownPlainText(markdown), plain, markdown);
  });

  it('drops raw HTML tags and comments, as the Desk does, and decodes entities and escapes', () => {
    assert.equal(
      markdownPlainText('Click <b>here</b><script>alert(1)</script> <!-- hidden -->now'),
      'Click herealert(1) now'
    );
    assert.equal(
      markdownPlainText('Fish &amp; chips &lt;3 &#x1F600; \\*not emphasis\\*'),
      'Fish & chips <3 😀 *not emphasis*'
    );
    assert.equal(
      markdownPlainText('Mail <mailto:a@example.com> or <https://example.com>'),
      'Mail mailto:a@example.com or https://example.com'
    );
  });

  it('leaves plain text as it is: snake_case, sums, brackets and a lone star', () => {
    for (const plain of [
      'Rename my_file_name now',
      '2 * 3 * 4 = 24',
      'Option [a] or [b]?',
      'Rate it 5* please',
      'a < b > c'
    ])
      assert.equal(markdownPlainText(plain), plain);
  });

  it('reads at most MAX_MARKDOWN characters', () => {
    const text = markdownPlainText(`**${'x'.repeat(MAX_MARKDOWN * 10)}`);
    assert.ok(text.length <= MAX_MARKDOWN);
  });
});
