import { randomUUID } from 'node:crypto';
import { listInWords } from '../contract/list-words.js';
import type { TasksLostToRestart } from '../requestor/outbound-tasks.js';
import type { WarningLink } from './unasked-run-notice.js';

/** Tool names a notice says, at most; the others are counted. */
const TOOLS_SAID = 3;

/** A host warning of this kind, as the Desk's notices show it. */
export interface LostToRestartWarning {
  message: string;
  id: string;
  links: WarningLink[];
}

/**
 * The Desk's notice for the tool-call tasks a server Taskdesk started again (stdio) no longer
 * had, found once it was connected again and answered for them: which server, how many tasks of
 * which tools, why, in the words each task's row on Tasks gives ("… no longer has this task: it
 * was started again since the task was created, and kept no tasks from before."), and where they
 * are. "3 tasks on task-tools were lost (of work-required and slow-echo): task-tools was started
 * again since they were created, and kept no tasks from before. Tasks shows them as Lost."
 */
export function lostToRestartNotice(
  serverName: string,
  toolNames: readonly string[]
): { message: string; links: WarningLink[] } {
  const links = [{ label: 'Open the Tasks screen', href: '#tasks' }];
  if (toolNames.length === 1)
    return {
      message:
        `The task of ${toolNames[0]!} on ${serverName} was lost: ${serverName} was started again since the task ` +
        'was created, and kept no tasks from before. Tasks shows it as Lost.',
      links
    };
  const tools = [...new Set(toolNames)];
  const said = tools.slice(0, TOOLS_SAID);
  const others = tools.length - said.length;
  const of = listInWords(others === 0 ? said : [...said, `${others} other tool${others === 1 ? '' : 's'}`]);
  return {
    message:
      `${toolNames.length} tasks on ${serverName} were lost (of ${of}): ${serverName} was started again since ` +
      'they were created, and kept no tasks from before. Tasks shows them as Lost.',
    links
  };
}

/**
 * The notices of tasks lost to a restart of their server in this run: one per server, the
 * tasks of a later connection's loss (one whose first polls failed before) added to the same
 * notice, which takes the place of the one before (its `replaces`).
 */
export class LostToRestartNotices {
  readonly #byServer = new Map<string, { toolNames: string[]; warning: LostToRestartWarning }>();

  /** The server's notice with `lost` added, and the notice it replaces, if any. */
  add(lost: Omit<TasksLostToRestart, 'tasks'> & { tasks: ReadonlyArray<{ toolName: string }> }): {
    warning: LostToRestartWarning;
    replaces?: LostToRestartWarning;
  } {
    const earlier = this.#byServer.get(lost.serverId);
    const toolNames = [...(earlier?.toolNames ?? []), ...lost.tasks.map((task) => task.toolName)];
    const warning = { ...lostToRestartNotice(lost.serverName, toolNames), id: randomUUID() };
    this.#byServer.set(lost.serverId, { toolNames, warning });
    return earlier === undefined ? { warning } : { warning, replaces: earlier.warning };
  }
}
