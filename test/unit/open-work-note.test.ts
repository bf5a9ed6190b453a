import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { notFinishedWords, OPEN_WORK_NOTE_FILE, OpenWorkNote } from '../../app/host/open-work-note.js';
import type { NotFinishedWork } from '../../app/history/not-finished-entry.js';
import type { EndedOrdinaryRequest } from '../../app/receiver/task-receiver.js';
import { tempDir } from '../support/host-fixture.js';

const STOPPED = 'Taskdesk stopped before it was answered; the server was not answered';
const CLOSED_AT = Date.UTC(2026, 5, 1, 12, 0);

/** An ordinary request of `serverName` that Taskdesk's closing (or `by`) cancelled. */
function request(
  serverName: string,
  kind: 'elicitation' | 'sampling',
  text: string,
  by: 'you' | 'server' | 'taskdesk' = 'taskdesk'
): EndedOrdinaryRequest {
  return {
    owner: { serverId: serverName.toLowerCase(), serverName, identity: `id-${serverName}` },
    kind,
    request:
      kind === 'elicitation'
        ? { mode: 'form', message: text, requestedSchema: { type: 'object', properties: {} } }
        : { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 },
    askedAt: '2026-06-01T11:59:00.000Z',
    endedAt: '2026-06-01T12:00:00.000Z',
    steps: [],
    outcome: { type: 'error', error: { code: -32800, message: STOPPED } },
    cancelled: { by, reason: STOPPED }
  };
}

const call = (serverName: string, cancelledBy?: 'taskdesk') => ({
  call: { serverName },
  ...(cancelledBy && { cancelledBy })
});

describe('the note of plain work a clean close cancelled', () => {
  it('costs nothing when nothing was cancelled by the close: no file, nothing said', () => {
    const data = tempDir();
    try {
      const note = new OpenWorkNote();
      // Ended otherwise: answered, cancelled by the person or the server.
      note.requestEnded(request('Alpha', 'elicitation', 'Your name?', 'you'));
      note.requestEnded(request('Alpha', 'elicitation', 'Your name?', 'server'));
      note.callEnded(call('Alpha'));
      note.save(data.dir, CLOSED_AT);
      assert.deepEqual(fs.readdirSync(data.dir), []);
      assert.equal(OpenWorkNote.take(data.dir), undefined);
    } finally {
      data.remove();
    }
  });

  it('says once how many questions, model requests and calls were cancelled, from which servers, quoting a question', () => {
    const data = tempDir();
    try {
      const note = new OpenWorkNote();
      note.requestEnded(request('Alpha', 'sampling', 'Summarize the report'));
      note.requestEnded(
        request(
          'Beta',
          'elicitation',
          'Please provide inputs for the following fields of the booking form, all of them'
        )
      );
      note.requestEnded(request('Alpha', 'elicitation', 'Your name?'));
      note.callEnded(call('Gamma', 'taskdesk'));
      note.save(data.dir, CLOSED_AT);
      // Written atomically: the note alone, no temporary file left.
      assert.deepEqual(fs.readdirSync(data.dir), [OPEN_WORK_NOTE_FILE]);

      const said = OpenWorkNote.take(data.dir);
      assert.match(
        said ?? '',
        /^When Taskdesk last closed \(at [^)]+\), 2 questions and 1 model request without a task were waiting, from Alpha and Beta \(one of them: “Please provide inputs for the following fields of the booki…”\), and 1 tool call without a task was running, on Gamma: Taskdesk cancelled them; the servers that asked were not answered, and the call’s result was not received\. History lists them as “Cancelled by Taskdesk”\.$/
      );
      // Said once: the note is gone.
      assert.deepEqual(fs.readdirSync(data.dir), []);
      assert.equal(OpenWorkNote.take(data.dir), undefined);
    } finally {
      data.remove();
    }
  });

  it('says of a question asked for a task that it was for a task, as History does, not "without a task"', () => {
    const data = tempDir();
    try {
      const one = new OpenWorkNote();
      one.requestEnded({ ...request('Alpha', 'elicitation', 'Which region?'), relatedTaskId: 'task-1' });
      one.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /^When Taskdesk last closed \(at [^)]+\), 1 question for a task was waiting, from Alpha \(“Which region\?”\): Taskdesk cancelled it/
      );
      const mixed = new OpenWorkNote();
      mixed.requestEnded({ ...request('Alpha', 'elicitation', 'Which region?'), relatedTaskId: 'task-1' });
      mixed.requestEnded(request('Beta', 'sampling', 'Summarize'));
      mixed.requestEnded(request('Beta', 'elicitation', 'Your name?'));
      mixed.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 2 questions and 1 model request \(1 of them for a task, 2 without one\) were waiting, from Alpha and Beta /
      );
    } finally {
      data.remove();
    }
  });

  it('says one call alone in the singular, and adds to a note another close left that no start took', () => {
    const data = tempDir();
    try {
      const first = new OpenWorkNote();
      first.callEnded(call('Gamma', 'taskdesk'));
      first.save(data.dir, CLOSED_AT);
      const copy = tempDir();
      try {
        fs.cpSync(data.dir, copy.dir, { recursive: true });
        assert.match(
          OpenWorkNote.take(copy.dir) ?? '',
          /^When Taskdesk last closed \(at [^)]+\), 1 tool call without a task was running, on Gamma: Taskdesk cancelled it; the call’s result was not received\. History lists it as “Cancelled by Taskdesk”\.$/
        );
      } finally {
        copy.remove();
      }

      const second = new OpenWorkNote();
      second.requestEnded(request('Delta', 'sampling', 'Write a haiku'));
      second.callEnded(call('Gamma', 'taskdesk'));
      second.save(data.dir, CLOSED_AT + 60_000);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 1 model request without a task was waiting, from Delta \(“Write a haiku”\), and 2 tool calls without a task were running, on Gamma: /
      );
    } finally {
      data.remove();
    }
  });

  it('ignores and removes a corrupt note, and runs on when the note cannot be written', () => {
    const data = tempDir();
    try {
      const file = path.join(data.dir, OPEN_WORK_NOTE_FILE);
      for (const corrupt of ['{"version":1,"questions":', '{"version":2}', '[]', '', '\u0000\u0001']) {
        fs.writeFileSync(file, corrupt);
        assert.equal(OpenWorkNote.take(data.dir), undefined, JSON.stringify(corrupt));
        assert.ok(!fs.existsSync(file), 'removed');
      }
      // A corrupt note is not added to: the next close writes its own.
      fs.writeFileSync(file, 'not json');
      const note = new OpenWorkNote();
      note.requestEnded(request('Alpha', 'elicitation', 'Your name?'));
      note.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /1 question without a task was waiting, from Alpha \(“Your name\?”\)/
      );

      // A data directory that cannot hold it (a file in its place): nothing thrown, nothing said.
      const blocked = path.join(data.dir, 'blocked');
      fs.writeFileSync(blocked, '');
      note.save(blocked, CLOSED_AT);
      assert.equal(OpenWorkNote.take(blocked), undefined);
    } finally {
      data.remove();
    }
  });
  it('counts the servers past the names it keeps, and says "server" or "servers" by how many servers asked', () => {
    const data = tempDir();
    try {
      // 30 calls on 30 servers: 3 named, the 27 others counted (the note keeps 20 names).
      const many = new OpenWorkNote();
      for (let i = 0; i < 30; i++) many.callEnded(call(`Server ${i}`, 'taskdesk'));
      many.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 30 tool calls without a task were running, on Server 0, Server 1, Server 2 and 27 more: /
      );
      // The same servers again: counted once each.
      const again = new OpenWorkNote();
      for (let i = 0; i < 30; i++) {
        again.requestEnded(request(`Server ${i}`, 'elicitation', 'Your name?'));
        again.requestEnded(request(`Server ${i}`, 'sampling', 'Summarize'));
      }
      again.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 30 questions and 30 model requests without a task were waiting, from Server 0, Server 1, Server 2 and 27 more \(one of them: “Your name\?”\): Taskdesk cancelled them; the servers that asked were not answered\./
      );
      // Added to a note another close left: 25 servers, then 10, 5 of them named there already.
      const first = new OpenWorkNote();
      for (let i = 0; i < 25; i++) first.callEnded(call(`Server ${i}`, 'taskdesk'));
      first.save(data.dir, CLOSED_AT);
      const second = new OpenWorkNote();
      for (let i = 15; i < 30; i++) if (i < 20 || i >= 25) second.callEnded(call(`Server ${i}`, 'taskdesk'));
      second.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 35 tool calls without a task were running, on Server 0, Server 1, Server 2 and 27 more: /
      );

      // 3 questions from one server: that server was not answered.
      const one = new OpenWorkNote();
      for (const text of ['Your name?', 'Your team?', 'Your role?'])
        one.requestEnded(request('Alpha', 'elicitation', text));
      one.save(data.dir, CLOSED_AT);
      assert.match(
        OpenWorkNote.take(data.dir) ?? '',
        /, 3 questions without a task were waiting, from Alpha \(one of them: “Your name\?”\): Taskdesk cancelled them; the server that asked was not answered\. /
      );
    } finally {
      data.remove();
    }
  });
});

describe('the words of plain work a stop without closing left', () => {
  const work = (kind: NotFinishedWork['kind'], serverName: string, question?: string): NotFinishedWork => ({
    kind,
    serverId: serverName.toLowerCase(),
    serverName,
    ...(question !== undefined && { question }),
    startedAt: '2026-06-01T11:59:00.000Z',
    lastSeenAt: '2026-06-01T12:00:00.000Z'
  });

  it('counts every server past the three it names, and says "server" or "servers" by how many servers asked', () => {
    const calls = Array.from({ length: 30 }, (_, i) => work('tool-call', `Server ${i}`));
    assert.equal(
      notFinishedWords(calls)?.what,
      '30 tool calls without a task were running, on Server 0, Server 1, Server 2 and 27 more'
    );
    const questions = ['Your name?', 'Your team?', 'Your role?'].map((text) => work('elicitation', 'Alpha', text));
    assert.deepEqual(notFinishedWords(questions), {
      what: '3 questions without a task were waiting, from Alpha (one of them: “Your name?”)',
      lost: 'the server that asked was not answered',
      one: false
    });
    const two = [work('elicitation', 'Alpha', 'Your name?'), work('sampling', 'Beta'), work('sampling', 'Alpha')];
    assert.equal(notFinishedWords(two)?.lost, 'the servers that asked were not answered');
  });
});
