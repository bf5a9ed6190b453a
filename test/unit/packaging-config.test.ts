import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
// electron-builder's own loader and schema check (app-builder-lib comes with electron-builder):
// the YAML is read and validated exactly as `electron-builder` reads it, against its scheme.json.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger, log } from 'builder-util';
import forgeConfig from '../../forge.config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// electron-builder logs ("• loaded configuration …") to stdout, which is the test runner's channel
// to this file's process: its writes can land inside the runner's messages and fail the whole file
// ("Unable to deserialize cloned data"). Its logger writes to stderr here instead.
(log as unknown as { stream: NodeJS.WritableStream }).stream = process.stderr;

/** Electron's security checklist: the fuses the Electron Forge templates set. */
const FUSES = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true
};

async function builderConfig(): Promise<Configuration> {
  return getConfig(root, path.join(root, 'electron-builder.yml'), null);
}

/** A platform's target names, whichever of electron-builder's forms (string, list, objects) they are written in. */
function targetNames(target: unknown): string[] {
  const list: unknown[] = Array.isArray(target) ? target : target === undefined || target === null ? [] : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

describe('packaging: electron-builder makes the distributables, Electron Forge only runs the app', () => {
  it('electron-builder.yml passes electron-builder’s own schema, and a misspelt fuse would not', async () => {
    const config = await builderConfig();
    await validateConfiguration(config, new DebugLogger(false));
    await assert.rejects(
      validateConfiguration(
        { ...config, electronFuses: { ...FUSES, runAsNod: false } as never },
        new DebugLogger(false)
      ),
      /configuration\.electronFuses/
    );
  });

  it('flips the hardening fuses in the packaged app', async () => {
    assert.deepEqual((await builderConfig()).electronFuses, FUSES);
  });

  it('packs the compiled app into an asar and makes mac dmg and zip, Windows nsis, Linux AppImage and deb', async () => {
    const config = await builderConfig();
    assert.equal(config.asar, true);
    assert.equal(config.appId, 'dev.taskdesk.app');
    assert.equal(config.productName, 'Taskdesk');
    assert.deepEqual(targetNames(config.mac?.target).sort(), ['dmg', 'zip']);
    assert.deepEqual(targetNames(config.win?.target), ['nsis']);
    assert.deepEqual(targetNames(config.linux?.target).sort(), ['AppImage', 'deb']);
  });

  it('forge.config.ts sets no fuses, makers or packaging of its own', () => {
    assert.deepEqual(forgeConfig.plugins ?? [], []);
    assert.deepEqual(forgeConfig.makers ?? [], []);
    assert.equal(forgeConfig.packagerConfig, undefined);
  });
});
