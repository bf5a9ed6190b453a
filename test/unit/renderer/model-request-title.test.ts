import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { modelRequestTitle } from '../../../renderer/inbox/model-request-title.js';

const asking = (kind: InboxItem['kind'], ...texts: string[]) => ({
  kind,
  serverName: 'Weather Station',
  request: {
    messages: texts.map((text, at) => ({
      role: at % 2 === 0 ? 'user' : 'assistant',
      content: { type: 'text', text }
    })),
    maxTokens: 60
  }
});

describe('a model request card’s heading and name (modelRequestTitle)', () => {
  it('names the card by what it asks: its last message, on one line, cut short after a word', () => {
    assert.deepEqual(
      modelRequestTitle(
        asking(
          'sampling-approval',
          'Hello',
          'Hi',
          'Write a storm warning\n\nfor the coast tonight, with the wind speeds and times'
        )
      ),
      {
        title: 'Weather Station asks to run a model',
        name: 'Weather Station asks to run a model: Write a storm warning for the coast tonight, with the wind…'
      }
    );
    assert.deepEqual(modelRequestTitle(asking('sampling-review', 'Is a frost warning needed?')), {
      title: 'Review the answer for Weather Station',
      name: 'Review the answer for Weather Station: Is a frost warning needed?'
    });
    assert.deepEqual(modelRequestTitle(asking('sampling', 'Summarise the last 10 emails from Jo')), {
      title: 'Weather Station asks for a model reply',
      name: 'Weather Station asks for a model reply: Summarise the last 10 emails from Jo'
    });
  });

  it('is its heading alone when the request has no text to quote', () => {
    assert.deepEqual(modelRequestTitle(asking('sampling-approval')), {
      title: 'Weather Station asks to run a model',
      name: 'Weather Station asks to run a model'
    });
  });
});
