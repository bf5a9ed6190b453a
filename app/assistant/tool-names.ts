import { createHash } from 'node:crypto';

/** What a function name offered to the model stands for. */
export interface OfferedTool {
  functionName: string;
  serverId: string;
  toolName: string;
}

const MAX = 64;
const INVALID = /[^a-zA-Z0-9_-]/g;

/**
 * Function names for the tools of several servers, as chat-completions providers accept them:
 * `server__tool`, at most 64 characters of `[a-zA-Z0-9_-]`, unique in one request.
 *
 * A name that had to be changed (characters replaced, cut to length, or clashing with
 * another) gets a short hash of its server and tool, so the same tool keeps the same name
 * from one request to the next and two tools never share one.
 */
export function functionNames(tools: ReadonlyArray<{ serverId: string; toolName: string }>): OfferedTool[] {
  const taken = new Set<string>();
  return tools.map(({ serverId, toolName }) => {
    const plain = `${serverId}__${toolName}`;
    let name = plain.replace(INVALID, '_');
    if (name !== plain || name.length > MAX || taken.has(name)) {
      const hash = createHash('sha256').update(`${serverId}\n${toolName}`).digest('hex').slice(0, 8);
      name = `${name.slice(0, MAX - 9)}_${hash}`;
      // Only a clash of hashes is left: number it.
      for (let n = 2; taken.has(name); n++) name = `${name.slice(0, MAX - 1 - String(n).length)}_${n}`;
    }
    taken.add(name);
    return { functionName: name, serverId, toolName };
  });
}
