/**
 * Electron Forge has one job here: `npm start` (`electron-forge start`) runs the app from the
 * compiled build/ in development. Packaging, the fuses and the installers are electron-builder's,
 * written once in electron-builder.yml (`npm run dist`). Electron Forge 8 loads this TypeScript
 * file itself (through jiti).
 */
import type { ForgeConfig } from '@electron-forge/shared-types';

const config: ForgeConfig = {};

export default config;
