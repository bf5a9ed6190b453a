/**
 * Runs one client scenario of the MCP conformance suite against Taskdesk (the host core as the
 * client: test/support/conformance-client.ts) and reads the checks it reported.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledProgram } from './compiled-program.js';
import { tempDir } from './host-fixture.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

/** One result line of the suite (its `checks.json`). */
export interface Check {
  id: string;
  name?: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

/** The suite's command-line entry point in an installed package (`@modelcontextprotocol/conformance` or its alpha alias). */
export function conformanceCli(packageName: string): string {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const bin = (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance;
  return path.join(path.dirname(packageJson), bin);
}

/** Quotes a word for the shell the suite runs `--command` with (it splits on spaces, then re-joins them). */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The client the suite starts, with the mock server's URL appended: a real host core under this
 * Node, compiled once rather than by tsx at each of the many starts.
 */
const clientCommand = () =>
  [process.execPath, compiledProgram(path.join(root, 'test', 'support', 'conformance-client.ts'))]
    .map(shellWord)
    .join(' ');

/**
 * Runs one client scenario of the suite to its end; its exit code, output and reported checks.
 * `timeoutMs` is the suite's own limit for the scenario (an auth scenario signs in first).
 */
export async function runScenario(
  cli: string,
  scenario: string,
  extraArgs: string[] = [],
  timeoutMs = 20_000
): Promise<{ code: number | null; output: string; checks: Check[] }> {
  const out = tempDir('taskdesk-conformance-results-');
  try {
    const child = spawn(
      process.execPath,
      [
        cli,
        'client',
        '--command',
        clientCommand(),
        '--scenario',
        scenario,
        '--timeout',
        String(timeoutMs),
        '--output-dir',
        out.dir,
        ...extraArgs
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
    // The suite writes <output-dir>/<scenario>-<timestamp>/checks.json (deeper when the scenario's
    // name has a slash, as `auth/…` ones do).
    const file = fs
      .readdirSync(out.dir, { recursive: true, encoding: 'utf8' })
      .find((name) => path.basename(name) === 'checks.json');
    const checks = file ? (JSON.parse(fs.readFileSync(path.join(out.dir, file), 'utf8')) as Check[]) : [];
    return { code, output, checks };
  } finally {
    out.remove();
  }
}
