import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createHost, type Host } from '../../app/host/host.js';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { compiledProgram } from './compiled-program.js';
import { FakeOpenAIServer } from './fake-openai-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverScript = fileURLToPath(new URL('./mrtr-server.ts', import.meta.url));

/** The API key of {@link startMrtrHost}'s fake LLM. */
export const MRTR_LLM_KEY = 'sk-mrtr-test-key';

/** The 2026-07-28 test server (`mrtr-server.ts`, the v2 server package) over stdio, as `mrtr`. */
export const mrtrServer: ServerConfigInput = {
  id: 'mrtr',
  name: 'MRTR server',
  transport: { type: 'stdio', command: process.execPath, args: [compiledProgram(serverScript)], cwd: root },
  autoConnect: false,
  protocol: '2026-07-28'
};

/**
 * A host on `dataDir` with {@link mrtrServer} connected and a fake LLM as the provider `fake`
 * (its model `fake-small` the default), for a server's model requests to run on.
 */
export async function startMrtrHost(dataDir: string): Promise<{ host: Host; llm: FakeOpenAIServer }> {
  const llm = await FakeOpenAIServer.start({ models: ['fake-small'], apiKey: MRTR_LLM_KEY });
  const host = createHost({ dataDir, autoConnect: false, keyStore: new InMemoryKeyStore() });
  await host.call('servers.add', mrtrServer);
  await saveMrtrProvider(host, llm);
  const view = await host.connect('mrtr');
  assert.equal(view.state.status, 'ready', view.state.reason);
  assert.equal(view.state.era, 'modern');
  return { host, llm };
}

/** Saves (or puts back) {@link startMrtrHost}'s provider `fake`: `llm` with its key and default model. */
export async function saveMrtrProvider(host: Host, llm: FakeOpenAIServer): Promise<void> {
  await host.call('providers.save', {
    id: 'fake',
    name: 'Fake LLM',
    baseURL: llm.baseURL,
    apiKey: MRTR_LLM_KEY,
    models: [{ name: 'fake-small' }],
    defaultModel: 'fake-small'
  });
}
