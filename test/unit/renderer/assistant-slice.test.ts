import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Conversation } from '../../../app/contract/assistant.js';
import { deskReducer } from '../../../renderer/store/desk-reducer.js';
import { initialDeskState, type DeskAction, type DeskState } from '../../../renderer/store/desk-state.js';

function conversation(id: string, updatedAt: string, extra: Partial<Conversation> = {}): Conversation {
  return {
    id,
    title: `Chat ${id}`,
    providerId: 'p',
    model: 'm',
    serverIds: [],
    maxToolRounds: 10,
    imageInput: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
    status: 'idle',
    messages: [],
    ...extra
  };
}

const changed = (c: Conversation | undefined, id = c?.id ?? ''): DeskAction => ({
  type: 'event',
  event: 'assistant.changed',
  payload: { conversationId: id, ...(c && { conversation: c }) }
});

describe('the Desk store holds the assistant events', () => {
  it('a changed conversation is held whole and listed by its last activity; an older copy never replaces a newer one; a deletion removes it', () => {
    const made = (at: string) => ({ createdAt: at });
    let state: DeskState = deskReducer(
      initialDeskState,
      changed(conversation('a', '2026-01-01T00:00:01.000Z', made('2026-01-01T00:00:01.000Z')))
    );
    state = deskReducer(
      state,
      changed(conversation('b', '2026-01-01T00:00:02.000Z', made('2026-01-01T00:00:02.000Z')))
    );
    assert.deepEqual(
      state.assistant.summaries.map((s) => s.id),
      ['b', 'a']
    );
    // A rename is no activity: the conversation keeps its place.
    const newer = conversation('a', '2026-01-01T00:00:03.000Z', {
      title: 'Renamed',
      ...made('2026-01-01T00:00:01.000Z')
    });
    state = deskReducer(state, changed(newer));
    state = deskReducer(state, changed(conversation('a', '2026-01-01T00:00:01.500Z', { title: 'Old' })));
    assert.equal(state.assistant.conversations.a?.title, 'Renamed');
    assert.deepEqual(
      state.assistant.summaries.map((s) => [s.id, s.title]),
      [
        ['b', 'Chat b'],
        ['a', 'Renamed']
      ]
    );
    // A message is: it goes to the top.
    const spoken = conversation('a', '2026-01-01T00:00:04.000Z', {
      title: 'Renamed',
      ...made('2026-01-01T00:00:01.000Z'),
      messages: [{ id: 'm1', at: '2026-01-01T00:00:04.000Z', role: 'user', text: 'Hello' }]
    });
    state = deskReducer(state, changed(spoken));
    assert.deepEqual(
      state.assistant.summaries.map((s) => s.id),
      ['a', 'b']
    );
    state = deskReducer(state, changed(undefined, 'a'));
    assert.equal(state.assistant.conversations.a, undefined);
    assert.deepEqual(
      state.assistant.summaries.map((s) => s.id),
      ['b']
    );
  });

  it('of two copies of one moment, the one whose model load went further is held: a load’s end is not undone by a copy from before it', () => {
    const at = '2026-01-01T00:00:01.000Z';
    const loading = (progress?: number) =>
      conversation('a', at, { modelLoad: { state: 'loading', ...(progress !== undefined && { progress }) } });
    const held = (actions: DeskAction[]) =>
      actions.reduce((state, action) => deskReducer(state, action), initialDeskState).assistant.conversations.a;
    // Loaded (its tools decided) before New chat's answer, made while it loaded, came.
    const loaded = conversation('a', at, { toolsOff: { tools: 8, contextSize: 512 } });
    assert.deepEqual(held([changed(loaded), changed(loading())]), loaded);
    assert.deepEqual(held([changed(loading(0.4)), changed(loading())])?.modelLoad, { state: 'loading', progress: 0.4 });
    const failed = conversation('a', at, { modelLoad: { state: 'failed', message: 'The model file was not found.' } });
    assert.deepEqual(held([changed(failed), changed(loading(0.9))]), failed);
    // In order, each follows the one before.
    assert.deepEqual(held([changed(loading()), changed(loading(0.4)), changed(loaded)]), loaded);
    // A later change is later, whatever its load.
    const retried = conversation('a', '2026-01-01T00:00:02.000Z', { modelLoad: { state: 'loading' } });
    assert.deepEqual(held([changed(failed), changed(retried)]), retried);
  });

  it('partial answers stream per conversation until their done; pending approvals are counted in the list', () => {
    const partial = (text: string, done?: true): DeskAction => ({
      type: 'event',
      event: 'assistant.partial',
      payload: { conversationId: 'a', messageId: 'm1', text, ...(done && { done }) }
    });
    let state = deskReducer(initialDeskState, partial('Hel'));
    state = deskReducer(state, partial('Hello'));
    assert.deepEqual(state.assistant.streams.a, { messageId: 'm1', text: 'Hello' });
    state = deskReducer(state, partial('Hello.', true));
    assert.equal(state.assistant.streams.a, undefined);
    state = deskReducer(
      state,
      changed(
        conversation('a', '2026-01-01T00:00:01.000Z', {
          status: 'tools',
          messages: [
            {
              id: 'x',
              at: '2026-01-01T00:00:01.000Z',
              role: 'assistant',
              text: '',
              toolCalls: [{ id: 't', functionName: 's__echo', rawArguments: '{}', state: 'pending-approval' }]
            }
          ]
        })
      )
    );
    assert.equal(state.assistant.summaries[0]?.pendingApprovals, 1);
  });
});
