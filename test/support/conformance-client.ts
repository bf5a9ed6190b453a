/**
 * Taskdesk as the client under test of the MCP conformance suite's client scenarios.
 *
 *   node --import tsx test/support/conformance-client.ts <serverUrl>
 *
 * `conformance client --command "<this>" --scenario <name>` starts a mock server, runs this with
 * the server's URL as the last argument and the scenario's name in `MCP_CONFORMANCE_SCENARIO`,
 * and judges what the mock saw. This program starts a real host core (temp data directory) with
 * that one Streamable HTTP server, connects, does what the scenario asks through the host API
 * only, closes the host and exits 0, or non-zero with the reason on stderr.
 */
import assert from 'node:assert/strict';
import { createHost, type Host } from '../../app/host/host.js';
import type { HostResult, InboxItem } from '../../app/contract/host-api.js';
import { nextEvent, tempDir } from './host-fixture.js';
import { CONFORMANCE_CIMD_URL, runAuthScenario, type AuthContext } from './conformance-auth.js';

/** The id the mock server gets in the host's server list. */
const SERVER_ID = 'conformance';

/** What one scenario asks of the client, once the host is connected to the mock server. */
type ScenarioRun = (host: Host) => Promise<void>;

/** The scenarios this client knows, by the suite's names. */
const scenarios: Record<string, ScenarioRun> = {
  // The handshake is the whole scenario: connecting is enough.
  initialize: async () => undefined,
  tools_call: async (host) => {
    const text = await callTool(host, 'add_numbers', { a: 2, b: 3 });
    assert.match(text, /\b5\b/, `add_numbers(2, 3) answered "${text}"`);
  },
  'elicitation-sep1034-client-defaults': acceptFormDefaults,
  'sse-retry': async (host) => {
    // The mock ends the call's SSE stream early and answers on the GET stream the client resumes.
    const text = await callTool(host, 'test_reconnection', {});
    assert.match(text, /completed/i, `test_reconnection answered "${text}"`);
  },
  // The 2026-07-28 scenarios of the alpha suite (0.2.0-alpha.12).
  // The probe's first answer is −32022 naming 2026-07-28: connecting (a second probe) is the test, a list shows the envelope again.
  'request-metadata': async (host) => {
    await host.call('tools.list', { serverId: SERVER_ID, refresh: true });
  },
  'sep-2322-client-request-state': requestStateRounds,
  'http-standard-headers': async (host) => {
    await callTool(host, 'test_headers', {});
    await callTool(host, 'my-hyphenated-tool', {});
    await host.call('prompts.get', { serverId: SERVER_ID, name: 'test_prompt' });
    await host.call('resources.read', { serverId: SERVER_ID, uri: 'file:///path/to/file%20name.txt' });
    await host.call('resources.read', { serverId: SERVER_ID, uri: 'https://example.com/resource?id=123' });
  },
  'http-custom-headers': async (host) => {
    for (const { name, arguments: args } of contextOf().toolCalls ?? []) {
      // A null argument is one not given (the scenario checks that no header goes for it); the
      // tool's schema has no null type, so it is left out of the call rather than refused.
      const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
      await callTool(host, name, given);
    }
  },
  'http-invalid-tool-headers': async (host) => {
    // Every tool Taskdesk lists is called; those with invalid x-mcp-header annotations must not be listed.
    const tools = await host.call('tools.list', { serverId: SERVER_ID, refresh: true });
    for (const tool of tools) {
      const required = (tool.inputSchema.required as string[] | undefined) ?? [];
      await callTool(host, tool.name, Object.fromEntries(required.map((name) => [name, 'x'])));
    }
  },
  'json-schema-ref-no-deref': async (host) => {
    const tools = await host.call('tools.list', { serverId: SERVER_ID, refresh: true });
    assert.ok(
      tools.some((tool) => tool.name === 'lookup_user'),
      'lookup_user is listed'
    );
  },
  'json-schema-2020-12-preservation': async (host) => {
    const tools = await host.call('tools.list', { serverId: SERVER_ID, refresh: true });
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    assert.ok(focal, 'json_schema_2020_12_tool is listed');
    await callTool(host, 'json_schema_echo', { schema: focal.inputSchema });
  }
};

/** What the suite passes a scenario's client in `MCP_CONFORMANCE_CONTEXT`. */
function contextOf(): { toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }> } {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? (JSON.parse(raw) as ReturnType<typeof contextOf>) : {};
}

/**
 * SEP-2322: a tool that asks with requestState (echoed back unchanged), one that asks without
 * (none sent back), a tool called while the first waits for its answer (nothing of the other
 * flow goes with it), and a result without resultType (complete).
 */
async function requestStateRounds(host: Host): Promise<void> {
  const answerNext = async (): Promise<void> => {
    const { item } = await nextEvent(host, 'inbox.added', ({ item: added }) => added.serverId === SERVER_ID);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { confirmed: true } } });
  };
  const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === SERVER_ID);
  const echoing = callTool(host, 'test_mrtr_echo_state', {});
  const { item } = await asked;
  assert.match(await callTool(host, 'test_mrtr_unrelated', {}), /unrelated-ok/);
  await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { confirmed: true } } });
  assert.match(await echoing, /echo-state-ok/);
  const [text] = await Promise.all([callTool(host, 'test_mrtr_no_state', {}), answerNext()]);
  assert.match(text, /no-state-ok/);
  assert.match(await callTool(host, 'test_mrtr_no_result_type', {}), /no-result-type-test-ok/);
}

/**
 * SEP-1034: the server's form has a default for every field and asks to be accepted with them.
 *
 * The question goes to the inbox as the Desk would see it; the answer is what the Desk's form
 * submits when the person presses Accept without touching it (see {@link formAsPrefilled}).
 */
async function acceptFormDefaults(host: Host): Promise<void> {
  const asked = nextEvent(
    host,
    'inbox.added',
    ({ item }) => item.kind === 'elicitation' && item.serverId === SERVER_ID
  );
  const called = callTool(host, 'test_client_elicitation_defaults', {});
  const { id } = (await asked).item;
  const item = (await host.call('inbox.list', {})).find((pending) => pending.id === id);
  assert.ok(item, `the elicitation ${id} is listed in the inbox`);
  await host.call('inbox.answer', { id, answer: { action: 'accept', content: formAsPrefilled(item) } });
  const text = await called;
  assert.match(text, /Elicitation completed/, `the tool answered "${text}"`);
}

/**
 * The content of an elicitation form the person accepts untouched, as the Desk builds it
 * (renderer/views/elicitation-fields.ts): each field starts with its schema `default`, and a
 * checkbox without one starts unchecked; a field left empty is left out.
 */
function formAsPrefilled(item: InboxItem): Record<string, unknown> {
  const schema = item.request.requestedSchema as { properties?: Record<string, Record<string, unknown>> } | undefined;
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[name] = property.default;
    else if (property.type === 'boolean') content[name] = false;
  }
  return content;
}

/** Calls a tool through the host API (checking it is listed first) and joins its text blocks. */
async function callTool(host: Host, name: string, args: Record<string, unknown>): Promise<string> {
  const tools = await host.call('tools.list', { serverId: SERVER_ID, refresh: true });
  assert.ok(
    tools.some((tool) => tool.name === name),
    `the server lists ${name} (it lists ${tools.map((tool) => tool.name).join(', ') || 'nothing'})`
  );
  const outcome: HostResult<'tools.call'> = await host.call('tools.call', {
    serverId: SERVER_ID,
    name,
    arguments: args
  });
  assert.equal(outcome.type, 'result', `${name} was called plainly, not as a task`);
  if (outcome.type !== 'result') return '';
  assert.notEqual(outcome.result.isError, true, `${name} failed: ${JSON.stringify(outcome.result)}`);
  const content = (outcome.result.content ?? []) as Array<{ type?: string; text?: string }>;
  return content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('\n');
}

/** Every `auth/*` scenario: connect, list and call tools, signing in whenever the server asks. */
const authRun: ScenarioRun = (host) =>
  runAuthScenario(
    host,
    SERVER_ID,
    process.env.MCP_CONFORMANCE_CONTEXT === undefined
      ? undefined
      : (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as AuthContext),
    { clientCredentials: process.env.MCP_CONFORMANCE_SCENARIO?.startsWith('auth/client-credentials-') === true }
  );

/** Starts a host with the mock server, connects it, runs the scenario and closes the host. */
async function main(serverUrl: string | undefined, scenario: string | undefined): Promise<void> {
  if (!serverUrl) throw new Error('usage: conformance-client.ts <serverUrl> (scenario in MCP_CONFORMANCE_SCENARIO)');
  const auth = scenario?.startsWith('auth/') === true;
  const run = scenario === undefined ? undefined : auth ? authRun : scenarios[scenario];
  if (!run)
    throw new Error(`Unknown scenario ${String(scenario)}; this client runs ${Object.keys(scenarios).join(', ')}`);
  const data = tempDir('taskdesk-conformance-');
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    servers: [{ id: SERVER_ID, name: 'Conformance mock', transport: { type: 'http', url: serverUrl } }],
    oauthClientMetadataUrl: CONFORMANCE_CIMD_URL
  });
  try {
    // An auth scenario connects by itself, signing in when the server asks (see conformance-auth.ts).
    if (!auth) {
      const view = await host.call('servers.connect', { serverId: SERVER_ID });
      assert.equal(view.state.status, 'ready', `connecting to ${serverUrl}: ${view.state.reason ?? view.state.status}`);
    }
    await run(host);
    console.log(`${scenario}: done`);
  } finally {
    await host.close();
    data.remove();
  }
}

main(process.argv[2], process.env.MCP_CONFORMANCE_SCENARIO).catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
