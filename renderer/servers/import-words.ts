import type { ImportSource } from '../../app/contract/server-settings.js';

/**
 * What a look found: "Found 2 servers to import in 1 config, and 1 that cannot be imported." The
 * servers counted are those that can be imported (as the rows ticked at first are); those that
 * cannot (no command, an SSE server…) are counted apart, each row saying why.
 */
export function foundWords(sources: readonly ImportSource[]): string {
  const configs = sources.filter((source) => source.exists).length;
  if (configs === 0) return 'Found no configs to import from.';
  const servers = sources.flatMap((source) => source.servers);
  const importable = servers.filter((server) => server.problem === undefined).length;
  const not = servers.length - importable;
  const found = `Found ${importable === 0 ? 'no' : importable} server${importable === 1 ? '' : 's'} to import in ${configs} config${configs === 1 ? '' : 's'}`;
  return not === 0 ? `${found}.` : `${found}, and ${not} that cannot be imported.`;
}
