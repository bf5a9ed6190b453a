import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import OpenAI from 'openai';
import { createHost, type Host } from '../../app/host/host.js';
import { LOCAL_MODEL_BASE_URL } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { LocalModels } from '../../app/sampling/local-model.js';
import { classifyProviderError } from '../../app/sampling/provider-failure.js';
import { tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

// The real tiny model beside the project (stories260K: a 260K-parameter llama that writes
// children's stories), run on the CPU by node-llama-cpp: a real inference path, offline.
const MODEL = path.resolve(fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url)));

/** The SDK's connection error whose cause (what the model file's fetch threw) says `words`. */
const causedBy = (words: RegExp) => (error: Error) => words.test(String((error.cause as Error | undefined)?.message));

describe('a model file on this computer as a provider (node-llama-cpp, stories260K)', () => {
  before(() => assert.ok(existsSync(MODEL), `The test model is not at ${MODEL}: shared/ goes beside the checkout.`));
  const models = new LocalModels({ threads: 1 });
  const client = new OpenAI({
    apiKey: 'unused',
    baseURL: LOCAL_MODEL_BASE_URL,
    maxRetries: 0,
    fetch: models.fetchFor(MODEL)
  });
  after(() => models.close());

  const story = [
    { role: 'system' as const, content: 'You tell stories.' },
    { role: 'user' as const, content: 'Once upon a time' }
  ];

  it('lists the file’s model, and answers the same greedy text streamed as whole', async () => {
    const listed = [];
    for await (const model of client.models.list()) listed.push(model.id);
    assert.deepEqual(listed, ['stories260K']);

    const whole = await client.chat.completions.create({
      model: 'stories260K',
      messages: story,
      max_tokens: 12,
      temperature: 0
    });
    const text = whole.choices[0]?.message.content ?? '';
    assert.ok(text.trim().length > 0, 'the model wrote something');
    assert.equal(whole.choices[0]?.finish_reason, 'length');

    const stream = await client.chat.completions.create({
      model: 'stories260K',
      messages: story,
      max_tokens: 12,
      temperature: 0,
      stream: true
    });
    let streamed = '';
    let chunks = 0;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content;
      if (delta) {
        streamed += delta;
        chunks++;
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(streamed, text, 'greedy decoding gives the same text either way');
    assert.ok(chunks > 1, `the text came in pieces (${chunks})`);
    assert.equal(finish, 'length');
  });

  it('stops when the reader stops, and answers the next request', async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'stories260K', messages: story, max_tokens: 200, temperature: 0, stream: true },
      { signal: controller.signal }
    );
    let pieces = 0;
    let after = 0;
    // The SDK ends a stream its signal aborted quietly; no piece comes after the stop.
    for await (const chunk of stream) {
      if (!chunk.choices[0]?.delta.content) continue;
      if (controller.signal.aborted) after++;
      else if (++pieces === 2) controller.abort();
    }
    assert.equal(after, 0);
    assert.equal(pieces, 2);
    const next = await client.chat.completions.create({ model: 'stories260K', messages: story, max_tokens: 4 });
    assert.ok((next.choices[0]?.message.content ?? '').length > 0);
  });

  it('refuses another model’s name, stops at a context’s worth when no limit is asked, and says when the tools do not fit', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o', messages: story, max_tokens: 3 }),
      (error: Error) =>
        error instanceof OpenAI.NotFoundError && /holds the model stories260K, not gpt-4o/.test(error.message)
    );
    // No max_tokens: node-llama-cpp would shift its context and write on for ever.
    const unbounded = await client.chat.completions.create({ model: 'stories260K', messages: story });
    assert.ok(['length', 'stop'].includes(unbounded.choices[0]?.finish_reason ?? ''));

    // Tools whose descriptions alone are longer than stories260K's 512 tokens.
    const tools = Array.from({ length: 8 }, (_, index) => ({
      type: 'function' as const,
      function: {
        name: `tool_${index}`,
        description: 'Looks a thing up in a long and detailed way. '.repeat(12),
        parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to look up' } } }
      }
    }));
    const failure = await (async () => {
      try {
        const stream = await client.chat.completions.create({
          model: 'stories260K',
          messages: story,
          tools,
          stream: true
        });
        for await (const _chunk of stream) continue;
      } catch (error) {
        return classifyProviderError(error, { providerName: 'Stories', baseURL: LOCAL_MODEL_BASE_URL });
      }
      return undefined;
    })();
    assert.equal(failure?.kind, 'bad-request');
    assert.match(
      failure?.message ?? '',
      /^Stories: The conversation, with the descriptions of the tools it offers, does not fit the model's context of 512 tokens: offer fewer tools/
    );
  });

  it('counts what tools’ descriptions take of the context before any message, against the room a conversation has, and the model then refuses them', async () => {
    const echo = {
      type: 'function' as const,
      function: {
        name: 'echo',
        description: 'Echoes back the input',
        parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }
      }
    };
    // A tenth of the 512 tokens is kept for the answer (node-llama-cpp's context shift).
    const none = await models.toolsRoom(MODEL, []);
    assert.equal(none.contextSize, 512);
    assert.equal(none.room, 461);
    assert.ok(none.tokens < 20, `nothing but the chat format (${none.tokens})`);
    const one = await models.toolsRoom(MODEL, [echo], 'You tell stories.');
    assert.ok(one.tokens > one.room, `one tool's description is more than the room (${one.tokens})`);
    assert.ok((await models.toolsRoom(MODEL, [echo])).tokens < one.tokens, 'the system prompt counts too');
    await assert.rejects(
      client.chat.completions.create({ model: 'stories260K', messages: story, tools: [echo], max_tokens: 3 }),
      causedBy(/does not fit the model's context of 512 tokens/)
    );
  });

  it('takes a conversation with tool calls and their results, and refuses what a model file cannot hold, in words', async () => {
    const withTools = await client.chat.completions.create({
      model: 'stories260K',
      max_tokens: 4,
      messages: [
        ...story,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }]
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Snow.' }
      ]
    });
    assert.equal(withTools.choices[0]?.message.role, 'assistant');
    assert.equal(typeof withTools.choices[0]?.message.content, 'string');

    await assert.rejects(
      client.chat.completions.create({
        model: 'stories260K',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] }]
      }),
      (error: Error) => error instanceof OpenAI.BadRequestError && /takes text only/.test(error.message)
    );
    await assert.rejects(
      client.chat.completions.create({
        model: 'stories260K',
        messages: [...story, { role: 'tool', tool_call_id: 'nowhere', content: 'x' }]
      }),
      (error: Error) => error instanceof OpenAI.BadRequestError && /answers no tool call.*nowhere/.test(error.message)
    );
  });

  it('generates nothing for a request stopped while the model loads', async () => {
    const fresh = new LocalModels({ threads: 1 });
    try {
      const stop = new AbortController();
      const answer = fresh.fetchFor(MODEL)(`${LOCAL_MODEL_BASE_URL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'stories260K', messages: story, max_tokens: 50, stream: true }),
        signal: stop.signal
      });
      stop.abort(new Error('stopped by the test'));
      await assert.rejects(answer, /stopped by the test/);
    } finally {
      await fresh.close();
    }
  });

  it('loads anew a file replaced at the same path, and refuses one that is no longer a model or is not a file', async () => {
    const dir = tempDir();
    const fresh = new LocalModels({ threads: 1 });
    const at = path.join(dir.dir, 'swap.gguf');
    const swapped = new OpenAI({
      apiKey: 'unused',
      baseURL: LOCAL_MODEL_BASE_URL,
      maxRetries: 0,
      fetch: fresh.fetchFor(at)
    });
    const ask = () => swapped.chat.completions.create({ model: 'swap', messages: story, max_tokens: 3 });
    try {
      copyFileSync(MODEL, at);
      assert.ok((await ask()).choices[0]?.message.content);
      writeFileSync(at, 'no longer a model');
      await assert.rejects(ask(), causedBy(/is not a GGUF model file/));
      copyFileSync(MODEL, at);
      assert.ok((await ask()).choices[0]?.message.content);

      const pipe = path.join(dir.dir, 'pipe.gguf');
      execFileSync('mkfifo', [pipe]);
      const piped = new OpenAI({
        apiKey: 'unused',
        baseURL: LOCAL_MODEL_BASE_URL,
        maxRetries: 0,
        fetch: fresh.fetchFor(pipe)
      });
      await assert.rejects(piped.models.list(), causedBy(/is not a file\./));
    } finally {
      await fresh.close();
      dir.remove();
    }
  });

  describe('through the host', () => {
    let host: Host;
    const data = tempDir();
    before(async () => {
      host = createHost({
        dataDir: data.dir,
        autoConnect: false,
        keyStore: new InMemoryKeyStore(),
        servers: [everythingServer]
      });
      assert.equal((await host.connect('everything')).state.status, 'ready');
    });
    after(async () => {
      await host.close();
      data.remove();
    });

    it('saves the provider with the file’s model listed, tests it, and answers a server’s sampling request with it', async () => {
      const saved = await host.call('providers.save', {
        id: 'stories',
        name: 'Stories',
        baseURL: 'http://127.0.0.1:1/v1',
        modelFile: MODEL,
        models: []
      });
      assert.equal(saved.baseURL, LOCAL_MODEL_BASE_URL, 'no server address is kept for a model file');
      assert.deepEqual(
        saved.models.map((model) => model.name),
        ['stories260K']
      );
      assert.equal(saved.defaultModel, 'stories260K');
      assert.deepEqual(await host.call('providers.test', { providerId: 'stories' }), {
        ok: true,
        models: ['stories260K']
      });
      // The test found the file and ran nothing: its card does not say the model answers.
      const health = async () => (await host.call('providers.list', {})).find((p) => p.id === 'stories')!.health;
      assert.equal(await health(), undefined);
      // Moved to another file, it lists that file's model and no name of the old one's.
      const other = tempDir();
      const copy = path.join(other.dir, 'tales.gguf');
      copyFileSync(MODEL, copy);
      const moved = await host.call('providers.save', { ...saved, modelFile: copy, mode: 'update' });
      assert.deepEqual(moved.models, [{ name: 'tales' }]);
      assert.equal(moved.defaultModel, 'tales');
      // Its file gone, a test fails and says so; found again, the failure is no longer shown.
      const away = `${copy}.away`;
      renameSync(copy, away);
      assert.equal((await host.call('providers.test', { providerId: 'stories' })).ok, false);
      assert.equal((await health())?.ok, false);
      renameSync(away, copy);
      assert.equal((await host.call('providers.test', { providerId: 'stories' })).ok, true);
      assert.equal(await health(), undefined);
      await host.call('providers.save', { ...moved, modelFile: MODEL, mode: 'update' });
      other.remove();

      await host.call('sampling.setPolicy', {
        serverId: 'everything',
        policy: { mode: 'auto', reviewCompletion: false }
      });
      const result = await host
        .connection('everything')!
        .client.callTool(
          { name: 'trigger-sampling-request-async', arguments: { prompt: 'Once upon a time', maxTokens: 8 } },
          CallToolResultSchema,
          { timeout: 60_000 }
        );
      const text = (result as { content: Array<{ text?: string }> }).content
        .map((block) => block.text ?? '')
        .join('\n');
      assert.match(text, /stories260K/, text);
      const task = (await host.call('tasks.list', { serverId: 'everything' })).at(-1)!;
      assert.equal(task.task.status, 'completed');
      // A run of the model is what the card's "Answering since" says.
      assert.deepEqual([(await health())?.ok, (await health())?.via], [true, 'sampling']);

      // A run that failed for want of its file: a test that finds the file again clears the
      // failure (kept, the provider would be passed over and never run again to show it answers).
      const runDir = tempDir();
      const runCopy = path.join(runDir.dir, 'stories260K.gguf');
      copyFileSync(MODEL, runCopy);
      const current = (await host.call('providers.list', {})).find((p) => p.id === 'stories')!;
      await host.call('providers.save', { ...current, modelFile: runCopy, mode: 'update' });
      renameSync(runCopy, `${runCopy}.away`);
      await host
        .connection('everything')!
        .client.callTool(
          { name: 'trigger-sampling-request-async', arguments: { prompt: 'Once upon a time', maxTokens: 8 } },
          CallToolResultSchema,
          { timeout: 60_000 }
        )
        .catch(() => undefined);
      assert.deepEqual([(await health())?.ok, (await health())?.via], [false, 'sampling']);
      renameSync(`${runCopy}.away`, runCopy);
      assert.equal((await host.call('providers.test', { providerId: 'stories' })).ok, true);
      assert.equal(await health(), undefined);
      await host.call('providers.save', { ...current, modelFile: MODEL, mode: 'update' });
      runDir.remove();
    });

    it('refuses a new or changed path that names no model file, on the Model file field, and nothing is saved', async () => {
      const data2 = tempDir();
      const missing = path.join(data2.dir, 'missing.gguf');
      const notModel = path.join(data2.dir, 'notes.gguf');
      const empty = path.join(data2.dir, 'empty.gguf');
      const pipe = path.join(data2.dir, 'pipe.gguf');
      writeFileSync(notModel, 'just some text');
      writeFileSync(empty, '');
      execFileSync('mkfifo', [pipe]);
      const add = (id: string, modelFile: string) =>
        host.dispatch('providers.save', { id, name: id, baseURL: LOCAL_MODEL_BASE_URL, modelFile, models: [] });
      const savedBefore = host.audit.read({ limit: 1000 }).filter((entry) => entry.type === 'provider.saved').length;
      try {
        for (const [modelFile, field, message] of [
          [missing, 'No file at this path.', `The model file ${missing} was not found.`],
          // A part of the path that is a file: no file there either.
          [path.join(notModel, 'x.gguf'), 'No file at this path.', `The model file ${notModel}/x.gguf was not found.`],
          [data2.dir, 'This is a folder, not a model file.', `The model file ${data2.dir} is not a file.`],
          [pipe, 'This is not a file.', `The model file ${pipe} is not a file.`],
          [
            notModel,
            'This file is not a GGUF model file.',
            `${notModel} is not a GGUF model file (it does not start with "GGUF").`
          ],
          [
            empty,
            'This file is not a GGUF model file.',
            `${empty} is not a GGUF model file (it does not start with "GGUF").`
          ]
        ] as const) {
          const reply = await add('typo', modelFile);
          assert.deepEqual(reply.ok ? reply.result : reply.error, {
            code: -32602,
            message,
            data: { fields: { modelFile: field } }
          });
        }
        const listed = await host.call('providers.list', {});
        assert.equal(
          listed.find((provider) => provider.id === 'typo'),
          undefined,
          'nothing saved'
        );
        assert.equal(
          host.audit.read({ limit: 1000 }).filter((entry) => entry.type === 'provider.saved').length,
          savedBefore,
          'no save audited'
        );

        // An edit that changes the path to nothing is refused the same; the provider stays as it was.
        const kept = path.join(data2.dir, 'kept.gguf');
        copyFileSync(MODEL, kept);
        const saved = await host.call('providers.save', {
          id: 'kept',
          name: 'Kept',
          baseURL: LOCAL_MODEL_BASE_URL,
          modelFile: kept,
          models: []
        });
        assert.equal(saved.modelListing?.ok, true);
        const moved = await host.dispatch('providers.save', { ...saved, modelFile: missing, mode: 'update' });
        assert.deepEqual(moved.ok ? undefined : moved.error.data, { fields: { modelFile: 'No file at this path.' } });
        const still = (await host.call('providers.list', {})).find((provider) => provider.id === 'kept');
        assert.equal(still?.modelFile, kept);
        // Its health as it was: its file found at the save, its model not yet run.
        assert.equal(still?.health, undefined);

        // Its file gone later (moved, a disk unmounted): the provider's name and ratings still
        // save, its path unchanged; the save says why the file cannot be used, naming the provider.
        rmSync(kept);
        const renamed = await host.call('providers.save', {
          ...saved,
          name: 'Kept renamed',
          models: [{ name: 'kept', ratings: { cost: 0 } }],
          mode: 'update'
        });
        assert.equal(renamed.name, 'Kept renamed');
        assert.deepEqual(renamed.models, [{ name: 'kept', ratings: { cost: 0 } }]);
        assert.deepEqual(renamed.modelListing, {
          ok: false,
          kind: 'bad-response',
          message: `Kept renamed: The model file ${kept} was not found.`
        });
        assert.equal(renamed.health?.ok, false);
        assert.equal(renamed.health?.message, `Kept renamed: The model file ${kept} was not found.`);
        const audited = host.audit
          .read({ limit: 1000 })
          .filter((entry) => entry.type === 'provider.saved' && entry.detail?.providerId === 'kept')
          .at(-1);
        assert.equal(audited?.detail?.modelFile, kept);
        assert.equal(audited?.detail?.baseURL, undefined, 'no address for a model file');
        assert.deepEqual(await host.call('providers.test', { providerId: 'kept' }), {
          ok: false,
          kind: 'bad-response',
          message: `Kept renamed: The model file ${kept} was not found.`
        });
        // A file no longer a model at its kept path: the same, said with the save.
        writeFileSync(kept, 'no longer a model');
        const changed = await host.call('providers.save', { ...renamed, mode: 'update' });
        assert.equal(
          changed.modelListing?.ok === false ? changed.modelListing.message : '',
          `Kept renamed: ${kept} is not a GGUF model file (it does not start with "GGUF").`
        );
        await host.call('providers.remove', { providerId: 'kept' });
        await assert.rejects(
          host.call('providers.save', {
            id: 'keyed',
            name: 'Keyed',
            baseURL: LOCAL_MODEL_BASE_URL,
            modelFile: MODEL,
            apiKey: 'sk-nothing',
            models: []
          }),
          /takes no API key/
        );
        // Said on the form's field: the host names it under `data.fields`.
        const relative = await host.dispatch('providers.save', {
          id: 'relative',
          name: 'Relative',
          baseURL: LOCAL_MODEL_BASE_URL,
          modelFile: 'models/x.gguf',
          models: []
        });
        assert.deepEqual(relative.ok ? undefined : relative.error.data, {
          fields: { modelFile: 'Give the model file’s full path' }
        });
        await assert.rejects(
          host.call('providers.save', {
            id: 'relative',
            name: 'Relative',
            baseURL: LOCAL_MODEL_BASE_URL,
            modelFile: 'models/x.gguf',
            models: []
          }),
          /full path/
        );
      } finally {
        data2.remove();
      }
    });
  });
});
