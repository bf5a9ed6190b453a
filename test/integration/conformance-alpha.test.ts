import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conformanceCli, runScenario, type Check } from '../support/conformance-run.js';

/**
 * The MCP 2026-07-28 client scenarios of the conformance suite's alpha (0.2.0-alpha.12, installed
 * as `@modelcontextprotocol/conformance-alpha` beside 0.1.16), run with the host core as the client
 * over Streamable HTTP, at spec version 2026-07-28.
 *
 * Each scenario must report no failed or warned check. `request-metadata` also warns, on the first
 * request only, that the client has not yet retried after its simulated −32022, then turns that
 * check into a success when the retry comes: its final status is what is read here.
 */
const cli = conformanceCli('@modelcontextprotocol/conformance-alpha');

/** The scenarios, with checks each must report as passed (by id; every other check must not fail either). */
const SCENARIOS: Record<string, string[]> = {
  'request-metadata': [
    'sep-2575-http-client-sends-version-header',
    'sep-2575-client-populates-meta',
    'sep-2575-client-sends-client-info',
    'sep-2575-http-version-header-matches-meta',
    'sep-2575-client-declares-roots-capability',
    'sep-2575-client-declares-sampling-capability',
    'sep-2575-client-declares-elicitation-capability',
    'sep-2575-client-retry-supported-version'
  ],
  'sep-2322-client-request-state': [
    'sep-2322-client-request-state-echoed',
    'sep-2322-client-jsonrpc-id-different',
    'sep-2322-client-no-state-omitted',
    'sep-2322-client-parallel-isolation',
    'sep-2322-default-result-type-complete'
  ],
  'http-standard-headers': ['sep-2243-client-includes-standard-headers'],
  'http-custom-headers': [
    'sep-2243-client-supports-custom-headers',
    'sep-2243-client-mirrors-designated-params',
    'sep-2243-client-encode-values',
    'sep-2243-client-base64-unsafe',
    'sep-2243-client-omit-null'
  ],
  'http-invalid-tool-headers': [
    'sep-2243-client-reject-invalid-tool',
    'sep-2243-x-mcp-header-not-empty',
    'sep-2243-x-mcp-header-primitive-only',
    'sep-2243-x-mcp-header-unique',
    'sep-2243-x-mcp-header-charset'
  ],
  'json-schema-ref-no-deref': ['sep-2106-no-network-ref-deref'],
  'json-schema-2020-12-preservation': [
    'json-schema-2020-12-client-tool-found',
    'json-schema-2020-12-client-echo-completed',
    'json-schema-2020-12-client-$schema-preserved',
    'json-schema-2020-12-client-$defs-preserved'
  ],
  tools_call: ['tool-add-numbers']
};

describe('MCP conformance suite 0.2.0-alpha.12, client scenarios of 2026-07-28 (the host core as the client)', () => {
  for (const [scenario, expected] of Object.entries(SCENARIOS)) {
    it(`passes ${scenario}`, async () => {
      const { code, output, checks } = await runScenario(cli, scenario, ['--spec-version', '2026-07-28']);
      const bad = checks.filter((check: Check) => check.status === 'FAILURE' || check.status === 'WARNING');
      assert.deepEqual(
        bad.map(
          (check) => `${check.id} (${check.name ?? ''}): ${check.status} ${check.errorMessage ?? check.description}`
        ),
        [],
        `no failed or warned checks\n${output}`
      );
      const passed = new Set(checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id));
      for (const id of expected) assert.ok(passed.has(id), `check ${id} passed\n${output}`);
      assert.equal(code, 0, `the suite passes the scenario\n${output}`);
    });
  }
});
