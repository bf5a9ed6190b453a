import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './host-fixture.js';

/**
 * Runs `auth/*` client scenarios of a version of the MCP conformance suite with the host core
 * as the client (test/support/conformance-auth.ts signs in when asked). The scenarios are split
 * over a few test files so that each stays within the per-file timeout of `npm test`.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const require = createRequire(import.meta.url);

function cliOf(packageName: string): string {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const bin = (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance;
  return path.join(path.dirname(packageJson), bin);
}

/** The scenarios of 0.1.16, which the alpha has too. */
export const COMMON = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported'
];

/** The non-extension auth scenarios only the alpha (0.2.0-alpha.12) has: MCP 2026-07-28. */
export const ALPHA_ONLY = [
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch'
];

/** One result line of the suite (its `checks.json`). */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const clientCommand = [process.execPath, '--import', 'tsx', path.join(root, 'test', 'support', 'conformance-client.ts')]
  .map(shellWord)
  .join(' ');

/** The non-extension `auth/*` client scenarios a version of the suite lists. */
async function listedAuthScenarios(cli: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'list'], { cwd: root });
  const client = stdout.slice(stdout.indexOf('Client scenarios'));
  return [...client.matchAll(/^\s+- (auth\/\S+) \[([^\]]*)\]/gm)]
    .filter(([, , versions]) => versions !== 'extension')
    .map(([, name]) => name!);
}

async function runScenario(
  cli: string,
  scenario: string
): Promise<{ code: number | null; output: string; checks: Check[] }> {
  const out = tempDir('taskdesk-conformance-auth-');
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
        '60000',
        '--output-dir',
        out.dir
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    // The suite writes <output-dir>/<scenario>-<timestamp>/checks.json, and the scenario's name has a slash.
    const file = fs
      .readdirSync(out.dir, { recursive: true, encoding: 'utf8' })
      .find((name) => path.basename(name) === 'checks.json');
    const checks = file ? (JSON.parse(fs.readFileSync(path.join(out.dir, file), 'utf8')) as Check[]) : [];
    return { code, output, checks };
  } finally {
    out.remove();
  }
}

/**
 * One `describe` running `scenarios` of `packageName` three at a time; with `allListed`, also
 * checks that these are every non-extension auth scenario that version lists.
 */
export function describeAuthScenarios(packageName: string, scenarios: string[], allListed?: string[]): void {
  const cli = cliOf(packageName);
  const version = (
    JSON.parse(fs.readFileSync(require.resolve(`${packageName}/package.json`), 'utf8')) as { version: string }
  ).version;
  describe(
    `MCP conformance ${version}, auth client scenarios (the host core signs in over Streamable HTTP)`,
    { concurrency: 3 },
    () => {
      if (allListed) {
        it('covers every non-extension auth scenario the suite lists', async () => {
          assert.deepEqual((await listedAuthScenarios(cli)).sort(), [...allListed].sort());
        });
      }
      for (const scenario of scenarios) {
        it(`passes ${scenario}`, async () => {
          const { code, output, checks } = await runScenario(cli, scenario);
          const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
          assert.deepEqual(
            bad.map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? check.description}`),
            [],
            `no failed or warned checks\n${output}`
          );
          assert.ok(
            checks.some((check) => check.status === 'SUCCESS'),
            `the scenario reported passed checks\n${output}`
          );
          assert.equal(code, 0, `the suite passes the scenario\n${output}`);
        });
      }
    }
  );
}
