import type { InputExchangeView } from '../../app/contract/input-exchanges.js';

/**
 * What sending a waiting request again does, in words for a person: "asks Files to run
 * list-files again", "asks Files for the prompt brief again", "asks Files for notes://x again".
 * The waiting card says it before, the Inbox's line after.
 */
export function askAgainWords(exchange: Pick<InputExchangeView, 'method' | 'params' | 'serverName'>): string {
  const { name, uri } = exchange.params as { name?: unknown; uri?: unknown };
  switch (exchange.method) {
    case 'tools/call':
      return `asks ${exchange.serverName} to run ${String(name)} again`;
    case 'prompts/get':
      return `asks ${exchange.serverName} for the prompt ${String(name)} again`;
    case 'resources/read':
      return `asks ${exchange.serverName} for ${String(uri)} again`;
  }
}

/** The same, done: "asked Files to run list-files again". */
export function askedAgainWords(exchange: Pick<InputExchangeView, 'method' | 'params' | 'serverName'>): string {
  return askAgainWords(exchange).replace(/^asks /, 'asked ');
}
