/**
 * Electron Forge: packages build/ (run `npm run build` first) into an asar with hardened
 * fuses, and zips it. Electron Forge 8 loads this TypeScript file itself (through jiti).
 */
import { MakerZIP } from '@electron-forge/maker-zip';
import { FusesPlugin } from '@electron-forge/plugin-fuses';
import type { ForgeConfig } from '@electron-forge/shared-types';
import { FuseV1Options, FuseVersion } from '@electron/fuses';

/**
 * Keeps the app to what it runs: package.json, the compiled build/ and production
 * node_modules (Forge prunes dev dependencies). Paths come relative to the project, with a
 * leading slash; '' is the project itself.
 */
function ignore(file: string): boolean {
  if (file === '' || file === '/package.json') return false;
  if (file === '/node_modules' || file.startsWith('/node_modules/')) return false;
  if (file === '/build' || file.startsWith('/build/')) {
    // Type declarations and incremental build state are for the compiler, not the app.
    return file.startsWith('/build/tsbuildinfo') || /\.d\.c?ts$/.test(file);
  }
  return true;
}

const config: ForgeConfig = {
  packagerConfig: {
    name: 'Taskdesk',
    appBundleId: 'dev.taskdesk.app',
    asar: true,
    ignore
  },
  rebuildConfig: {},
  makers: [new MakerZIP({}, ['darwin', 'linux', 'win32'])],
  plugins: [
    // Electron's security checklist, as the Forge templates set it.
    new FusesPlugin({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true
    })
  ]
};

export default config;
