import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/host-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const require = createRequire(import.meta.url);
const packageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
const cli = path.join(
  path.dirname(packageJson),
  (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance
);

/** One result line of the suite (its `checks.json`). */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

/**
 * The client scenarios that apply to Taskdesk, with the checks each must report as passed.
 *
 * The `auth/*` scenarios run in `conformance-auth-*.test.ts` (they sign in through the host API).
 */
const SCENARIOS: Record<string, string[]> = {
  initialize: ['mcp-client-initialization'],
  tools_call: ['tool-add-numbers'],
  'elicitation-sep1034-client-defaults': [
    'client-elicitation-sep1034-string-default',
    'client-elicitation-sep1034-integer-default',
    'client-elicitation-sep1034-number-default',
    'client-elicitation-sep1034-enum-default',
    'client-elicitation-sep1034-boolean-default'
  ],
  'sse-retry': ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id']
};

/** Quotes a word for the shell the suite runs `--command` with (it splits on spaces, then re-joins them). */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The client the suite starts, with the mock server's URL appended: a real host core under this Node. */
const clientCommand = [process.execPath, '--import', 'tsx', path.join(root, 'test', 'support', 'conformance-client.ts')]
  .map(shellWord)
  .join(' ');

/** Runs one client scenario of the suite to its end; its exit code, output and reported checks. */
async function runScenario(scenario: string): Promise<{ code: number | null; output: string; checks: Check[] }> {
  const out = tempDir('taskdesk-conformance-results-');
  try {
    const child = spawn(
      process.execPath,
      [
        cli,
        'client',
        '--command',
        clientCommand,
        '--scenario',
        scenario,
        '--timeout',
        '20000',
        '--output-dir',
        out.dir
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe']
      }
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    // The suite writes <output-dir>/<scenario>-<timestamp>/checks.json.
    const [resultDir] = fs.readdirSync(out.dir);
    const checks = resultDir
      ? (JSON.parse(fs.readFileSync(path.join(out.dir, resultDir, 'checks.json'), 'utf8')) as Check[])
      : [];
    return { code, output, checks };
  } finally {
    out.remove();
  }
}

/**
 * Checks of wall-clock timing that the suite only warns about: `client-sse-retry-timing` wants the
 * reconnect within 450–700 ms of a 500 ms `retry` and warns up to 1 s. Taskdesk waits the 500 ms
 * (about 510 ms measured), but a CI machine running two test files on two cores may stall the
 * client past 700 ms; a warning there is load, not behaviour. Failures still fail.
 */
const TIMING_WARNINGS_TOLERATED = new Set(['client-sse-retry-timing']);

describe('MCP conformance suite, client scenarios (the host core as the client, over Streamable HTTP)', () => {
  for (const [scenario, expected] of Object.entries(SCENARIOS)) {
    it(`passes ${scenario}`, async () => {
      const { code, output, checks } = await runScenario(scenario);
      const tolerated = (check: Check) => check.status === 'WARNING' && TIMING_WARNINGS_TOLERATED.has(check.id);
      const bad = checks.filter(
        (check) => check.status === 'FAILURE' || (check.status === 'WARNING' && !tolerated(check))
      );
      assert.deepEqual(
        bad.map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? check.description}`),
        [],
        `no failed or warned checks\n${output}`
      );
      const passed = new Set(
        checks.filter((check) => check.status === 'SUCCESS' || tolerated(check)).map((check) => check.id)
      );
      for (const id of expected) assert.ok(passed.has(id), `check ${id} passed\n${output}`);
      // The suite exits non-zero on any warning, a tolerated one included.
      if (!checks.some(tolerated)) assert.equal(code, 0, `the suite passes the scenario\n${output}`);
    });
  }
});
