import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { ProgressThrottle } from '../../../app/sampling/progress-throttle.js';
import { tokenLimitParamOf, ProviderSettingsSchema } from '../../../app/contract/providers.js';
import { ProviderFailureError, retryAfterOf, type ProviderFailure } from '../../../app/sampling/provider-failure.js';
import { ProviderRegistry } from '../../../app/sampling/provider-registry.js';
import { redactSecrets } from '../../../app/sampling/redact.js';
import { withRetries, type RetryNotice } from '../../../app/sampling/retry.js';
import { SamplingPolicySchema } from '../../../app/contract/sampling-policy.js';

const SECRET = 'sk-proj-SECRETabcdef123456';

describe('redactSecrets', () => {
  it('removes the known key and key-shaped strings, whole or masked', () => {
    const text = `bad key ${SECRET}; also sk-abc***wxyz and Bearer abc.def; mysecretvalue`;
    const out = redactSecrets(text, ['mysecretvalue']);
    assert.ok(!out.includes('SECRET'));
    assert.ok(!out.includes('sk-abc'));
    assert.ok(!out.includes('abc.def'));
    assert.ok(!out.includes('mysecretvalue'));
    assert.match(out, /\[redacted\]/);
  });

  it('removes echoes of a known key: upper-cased, its ends, its middle starred', () => {
    const key = 'sk-abcdEFGH0123456789wxyz';
    const hex = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const echoes = [
      'SK-ABCDEFGH0123456789WXYZ',
      'sk-abc…wxyz',
      'sk-abcd***************wxyz',
      'ABCD…',
      '…3C4B5A',
      '0F1E…E1F0',
      '0f1e2d3c••••••••c3d2e1f0',
      hex.toUpperCase()
    ];
    for (const echo of echoes) {
      const out = redactSecrets(`Invalid key provided: ${echo} (see docs)`, [key, hex]);
      assert.equal(out, 'Invalid key provided: [redacted] (see docs)', echo);
    }
    assert.equal(redactSecrets('rate limited, retry in 2000 ms', [key, hex]), 'rate limited, retry in 2000 ms');
  });

  it('removes URL credentials', () => {
    assert.equal(
      redactSecrets('at https://u:p@h.example/v1?api_key=abc&x=1'),
      'at https://[redacted]@h.example/v1?api_key=[redacted]&x=1'
    );
  });
});

describe('provider base URLs with credentials', () => {
  it('refuses a user name or password, and shows a key in the query hidden', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore());
    await assert.rejects(
      registry.add({ id: 'p', name: 'P', baseURL: 'https://user:pw@llm.example/v1', models: [] }),
      /user name or password/
    );
    const view = await registry.add({
      id: 'p',
      name: 'P',
      baseURL: 'https://llm.example/v1?key=q-SECRET',
      models: []
    });
    assert.equal(view.baseURL, 'https://llm.example/v1?key=[redacted]');
    assert.equal(registry.get('p')!.baseURL, 'https://llm.example/v1?key=q-SECRET', 'the engine gets the real one');
    assert.doesNotMatch(JSON.stringify(await registry.views()), /SECRET/);
    // The edit form sends the hidden URL back with another change: the stored one is kept.
    await registry.update({ ...view, name: 'Renamed' });
    assert.equal(registry.get('p')!.baseURL, 'https://llm.example/v1?key=q-SECRET');
    await assert.rejects(
      registry.update({ ...view, baseURL: 'https://other.example/v1?key=[redacted]' }),
      /still holds \[redacted\]/
    );
  });
});

describe('retryAfterOf', () => {
  const h = (init: Record<string, string>) => new Headers(init);
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    assert.equal(retryAfterOf(h({ 'retry-after-ms': '1500' })), 1500);
    assert.equal(retryAfterOf(h({ 'retry-after': '2' })), 2000);
    const now = Date.UTC(2026, 0, 1);
    assert.equal(retryAfterOf(h({ 'retry-after': new Date(now + 3000).toUTCString() }), now), 3000);
    assert.equal(retryAfterOf(h({ 'retry-after': 'soon' })), undefined);
    assert.equal(retryAfterOf(h({})), undefined);
    assert.equal(retryAfterOf(undefined), undefined);
  });
});

describe('withRetries', () => {
  const retryable = (retryAfterMs?: number): ProviderFailure => ({
    kind: 'rate-limited',
    message: 'slow down',
    retryable: true,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
  });

  it('waits retry-after on the clock, then tries again', async () => {
    const clock = new ManualClock();
    const notices: RetryNotice[] = [];
    let calls = 0;
    const done = withRetries(
      async () => {
        calls++;
        if (calls === 1) throw new Error('429');
        return 'ok';
      },
      () => retryable(2000),
      {
        maxRetries: 2,
        baseDelayMs: 500,
        maxWaitMs: 10_000,
        clock,
        signal: new AbortController().signal,
        onRetry: (n) => notices.push(n)
      }
    );
    await clock.advance(1999);
    assert.equal(calls, 1);
    assert.deepEqual(
      notices.map((n) => [n.retry, n.waitMs]),
      [[1, 2000]]
    );
    await clock.advance(1);
    assert.equal(await done, 'ok');
    assert.equal(calls, 2);
  });

  it('backs off exponentially without retry-after and stops after maxRetries', async () => {
    const clock = new ManualClock();
    const waits: number[] = [];
    let calls = 0;
    const done = withRetries(
      async () => {
        calls++;
        throw new Error('500');
      },
      () => retryable(),
      {
        maxRetries: 2,
        baseDelayMs: 500,
        maxWaitMs: 10_000,
        clock,
        signal: new AbortController().signal,
        onRetry: (n) => waits.push(n.waitMs)
      }
    );
    const settled = done.catch((e: unknown) => e);
    await clock.advance(500);
    await clock.advance(1000);
    const error = await settled;
    assert.ok(error instanceof ProviderFailureError);
    assert.equal(calls, 3);
    assert.deepEqual(waits, [500, 1000]);
  });

  it('gives up at once when the provider asks for more than the cap', async () => {
    const clock = new ManualClock();
    let calls = 0;
    await assert.rejects(
      withRetries(
        async () => {
          calls++;
          throw new Error('429');
        },
        () => retryable(60_000),
        { maxRetries: 2, baseDelayMs: 500, maxWaitMs: 10_000, clock, signal: new AbortController().signal }
      ),
      /asks to wait 60 s/
    );
    assert.equal(calls, 1);
    assert.equal(clock.pendingTimers, 0);
  });

  it('stops waiting when the signal aborts', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    let calls = 0;
    const done = withRetries(
      async () => {
        calls++;
        throw new Error('429');
      },
      () => retryable(5000),
      { maxRetries: 2, baseDelayMs: 500, maxWaitMs: 10_000, clock, signal: controller.signal }
    );
    await clock.advance(10);
    controller.abort(new Error('cancelled'));
    await assert.rejects(done, /cancelled/);
    assert.equal(calls, 1);
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('ProgressThrottle', () => {
  it('lets one report through per interval on the clock', async () => {
    const clock = new ManualClock();
    const throttle = new ProgressThrottle(clock, 250);
    assert.equal(throttle.take(), true);
    assert.equal(throttle.take(), false);
    await clock.advance(249);
    assert.equal(throttle.take(), false);
    await clock.advance(1);
    assert.equal(throttle.take(), true);
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('ProviderRegistry and KeyStore', () => {
  it('keeps keys in the key store, out of views and snapshots', async () => {
    const keys = new InMemoryKeyStore();
    const registry = new ProviderRegistry(keys);
    const view = await registry.add({
      id: 'openai',
      name: 'OpenAI',
      baseURL: 'https://api.openai.com/v1',
      models: [],
      apiKey: SECRET
    });
    assert.equal(view.hasKey, true);
    assert.equal(await registry.apiKey('openai'), SECRET);
    await registry.add({
      id: 'local',
      name: 'Ollama',
      baseURL: 'http://127.0.0.1:11434/v1',
      models: [{ name: 'llama3.2' }]
    });
    const everything = JSON.stringify([await registry.views(), registry.snapshot(), registry.list(), keys, view]);
    assert.ok(!everything.includes(SECRET), 'a key leaked into a view, snapshot or the key store JSON');
    assert.deepEqual(
      (await registry.views()).map((v) => [v.id, v.hasKey]),
      [
        ['openai', true],
        ['local', false]
      ]
    );
  });

  it('keeps a stored key when an edit carries none, and drops it with the provider', async () => {
    const keys = new InMemoryKeyStore({ openai: SECRET });
    const registry = new ProviderRegistry(keys, [
      ProviderSettingsSchema.parse({ id: 'openai', name: 'OpenAI', baseURL: 'https://api.openai.com/v1' })
    ]);
    await registry.update({ id: 'openai', name: 'OpenAI (work)', baseURL: 'https://api.openai.com/v1', models: [] });
    assert.equal(await keys.get('openai'), SECRET);
    assert.equal(registry.get('openai')?.name, 'OpenAI (work)');
    await registry.remove('openai');
    assert.equal(await keys.has('openai'), false);
    assert.deepEqual(registry.list(), []);
  });

  it('lets one of two adds of one id at once through, and refuses the other without touching the key', async () => {
    const keys = new InMemoryKeyStore();
    const registry = new ProviderRegistry(keys);
    const [first, second] = await Promise.allSettled([
      registry.add({ id: 'cloud', name: 'My cloud', baseURL: 'https://api.openai.com/v1', models: [], apiKey: SECRET }),
      registry.add({ id: 'cloud', name: 'Other thing', baseURL: 'http://127.0.0.1:8080/v1', models: [] })
    ]);
    assert.equal(first.status, 'fulfilled');
    assert.equal(second.status, 'rejected');
    assert.match(String(second.reason), /Id already used by My cloud/);
    assert.deepEqual(
      registry.list().map((p) => [p.id, p.name, p.baseURL]),
      [['cloud', 'My cloud', 'https://api.openai.com/v1']]
    );
    assert.equal(await keys.get('cloud'), SECRET);
  });

  it('returns copies that callers cannot mutate', () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore(), [
      ProviderSettingsSchema.parse({ id: 'a', name: 'A', baseURL: 'http://127.0.0.1:1/v1', models: [{ name: 'm' }] })
    ]);
    registry.list()[0]!.models.push({ name: 'injected' });
    assert.deepEqual(registry.list()[0]!.models, [{ name: 'm' }]);
  });

  it('rejects invalid settings', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore());
    await assert.rejects(registry.add({ id: 'x', name: 'X', baseURL: 'ftp://example.com', models: [] }));
    await assert.rejects(
      registry.add({
        id: 'x',
        name: 'X',
        baseURL: 'http://127.0.0.1:1/v1',
        models: [{ name: 'm', ratings: { cost: 2 } }]
      })
    );
  });
});

describe('provider config and policy defaults', () => {
  it('picks the token limit field from the base URL unless set', () => {
    const s = (baseURL: string, extra = {}) => ProviderSettingsSchema.parse({ id: 'x', name: 'X', baseURL, ...extra });
    assert.equal(tokenLimitParamOf(s('https://api.openai.com/v1')), 'max_completion_tokens');
    assert.equal(tokenLimitParamOf(s('http://127.0.0.1:11434/v1')), 'max_tokens');
    assert.equal(
      tokenLimitParamOf(s('http://127.0.0.1:8000/v1', { tokenLimitParam: 'max_completion_tokens' })),
      'max_completion_tokens'
    );
  });

  it('defaults a server policy to ask, with completion review', () => {
    assert.deepEqual(SamplingPolicySchema.parse({}), { mode: 'ask', reviewCompletion: true });
  });
});
