import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { conformanceCli, runScenario } from './conformance-run.js';

/**
 * Runs `auth/*` client scenarios of a version of the MCP conformance suite with the host core
 * as the client (test/support/conformance-auth.ts signs in when asked). The scenarios are split
 * over a few test files so that each stays within the per-file timeout of `npm test`.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const require = createRequire(import.meta.url);

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

/** The non-extension `auth/*` client scenarios a version of the suite lists. */
async function listedAuthScenarios(cli: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'list'], { cwd: root });
  const client = stdout.slice(stdout.indexOf('Client scenarios'));
  return [...client.matchAll(/^\s+- (auth\/\S+) \[([^\]]*)\]/gm)]
    .filter(([, , versions]) => versions !== 'extension')
    .map(([, name]) => name!);
}

/**
 * One `describe` running `scenarios` of `packageName` three at a time; with `allListed`, also
 * checks that these are every non-extension auth scenario that version lists.
 */
export function describeAuthScenarios(packageName: string, scenarios: string[], allListed?: string[]): void {
  const cli = conformanceCli(packageName);
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
          const { code, output, checks } = await runScenario(cli, scenario, [], 60_000);
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
