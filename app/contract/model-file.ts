/* Imports nothing: the Desk takes it as a value, and a contract module that imports zod would
   bring zod into the renderer bundle (see test/unit/layering.test.ts). */

/**
 * The address a provider that runs a model file ({@link ProviderSettings.modelFile}) is given: no
 * server listens there (`.invalid` never resolves); its requests are answered in the process.
 */
export const LOCAL_MODEL_BASE_URL = 'http://local-model.invalid/v1';

/** The model id a model file is listed under: its file name without `.gguf`. */
export function localModelId(modelFile: string): string {
  const name = modelFile.split(/[\\/]/).pop() ?? modelFile;
  return name.replace(/\.gguf$/i, '') || name;
}

/** What a model file's path that is not a full one is told. */
export const FULL_PATH_NEEDED = 'Give the model file’s full path';

/**
 * Whether `file` is a full path: from the root (`/…`), a Windows drive (`C:\\…`) or a share
 * (`\\\\server\\…`); not Windows' device paths (`\\\\.\\pipe\\…`, `\\\\?\\…`), which name no file.
 */
export function isFullPath(file: string): boolean {
  return /^(\/|[A-Za-z]:[\\/]|\\\\(?![.?][\\/]))/.test(file);
}
