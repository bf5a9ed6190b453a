import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSchemaForm } from '../../../app/contract/schema-fields.js';
import { writtenText } from '../../../renderer/inbox/elicitation-written.js';

describe('what was typed or chosen in a question, kept should it be withdrawn', () => {
  const { fields } = readSchemaForm({
    type: 'object',
    properties: {
      place: { type: 'string', title: 'Place' },
      colour: {
        type: 'string',
        title: 'Colour',
        oneOf: [
          { const: 'red', title: 'Red' },
          { const: 'blue', title: 'Sky blue' }
        ]
      },
      size: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'], default: 's' },
      news: { type: 'boolean', title: 'Subscribe to news', default: false },
      urgent: { type: 'boolean', title: 'Urgent', default: true },
      gift: { type: 'boolean', title: 'Gift wrap' },
      tags: { type: 'array', title: 'Tags', items: { enum: ['a', 'b', 'c'] }, default: ['a'] },
      count: { type: 'integer', title: 'Count' },
      day: { type: 'string', format: 'date', title: 'Day' },
      note: { type: 'string', title: 'Note', default: 'none' }
    }
  });
  /** What the form starts with, as its controls hold it. */
  const start = {
    place: '',
    colour: '',
    size: 's',
    news: false,
    urgent: true,
    gift: '',
    tags: ['0'],
    count: '',
    day: '',
    note: 'none'
  };

  it('is empty for a form as it came', () => {
    assert.equal(writtenText(fields, start), '');
  });

  it('writes choices by the titles shown, checkboxes and Yes/No selects as Yes or No, in the form’s order', () => {
    assert.equal(
      writtenText(fields, {
        ...start,
        colour: 'blue',
        size: 'l',
        news: true,
        urgent: false,
        gift: 'false',
        tags: ['2', '0', '1'],
        count: '3',
        day: '2026-12-05'
      }),
      'Colour: Sky blue\nsize: Large\nSubscribe to news: Yes\nUrgent: No\nGift wrap: No\nTags: a, b, c\nCount: 3\nDay: 2026-12-05'
    );
  });

  it('writes a choice emptied, or every box unticked, as (none)', () => {
    assert.equal(writtenText(fields, { ...start, size: '', tags: [] }), 'size: (none)\nTags: (none)');
  });

  it('leaves out what is back as it came, boxes ticked in another order, and blank text', () => {
    assert.equal(writtenText(fields, { ...start, tags: ['0'], place: '  ', note: 'none' }), '');
    assert.equal(writtenText(fields, { ...start, tags: ['1', '0'] }), 'Tags: a, b');
    assert.equal(writtenText(fields, { ...start, place: 'Dock 4\nbay 2' }), 'Place: Dock 4\nbay 2');
  });
});
