import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestorTool, ToolCallMode } from '../contract/outbound-tasks.js';

/**
 * Capability and tool-level negotiation for task-augmented `tools/call` (MCP 2025-11-25).
 *
 * The server capability `tasks.requests.tools.call` gates everything: without it a
 * tool is never called as a task, whatever its `execution.taskSupport` says.
 */

/** `execution.taskSupport`, with absent read as `forbidden`. */
export function taskSupportOf(tool: Pick<Tool, 'execution'>): 'required' | 'optional' | 'forbidden' {
  return tool.execution?.taskSupport ?? 'forbidden';
}

/** How a tool may be called, given whether its server accepts task-augmented `tools/call`. */
export function toolCallMode(
  serverAcceptsTaskCalls: boolean,
  taskSupport: 'required' | 'optional' | 'forbidden'
): ToolCallMode {
  if (!serverAcceptsTaskCalls) return taskSupport === 'required' ? 'unavailable' : 'plain';
  switch (taskSupport) {
    case 'required':
      return 'task';
    case 'optional':
      return 'task-or-plain';
    case 'forbidden':
      return 'plain';
  }
}

/** What to send for one call. */
export type CallDecision = { type: 'task' } | { type: 'plain' } | { type: 'refused'; reason: string };

/**
 * Decides whether one call goes as a task.
 *
 * `asTask` is the caller's choice; undefined takes the default (a task whenever the tool
 * allows one). A choice the negotiation forbids is refused, never silently changed.
 */
export function decideCall(
  mode: ToolCallMode,
  toolName: string,
  serverName: string,
  asTask: boolean | undefined
): CallDecision {
  switch (mode) {
    case 'unavailable':
      return {
        type: 'refused',
        reason:
          `Tool "${toolName}" must be called as a task, but server "${serverName}" does not declare ` +
          `tasks.requests.tools.call, so it cannot be called at all. No request was sent.`
      };
    case 'task':
      return asTask === false
        ? {
            type: 'refused',
            reason: `Tool "${toolName}" on "${serverName}" requires task execution (taskSupport: required); it cannot be called without a task.`
          }
        : { type: 'task' };
    case 'task-or-plain':
      return asTask === false ? { type: 'plain' } : { type: 'task' };
    case 'plain':
      return asTask === true
        ? {
            type: 'refused',
            reason: `Tool "${toolName}" on "${serverName}" cannot be called as a task (the server or the tool does not allow task execution).`
          }
        : { type: 'plain' };
  }
}

/**
 * Whether a 2025-11-25 `tools/call` sent before (then answered with URL-elicitation-required,
 * −32042) goes again as a task once its links are done. Decided anew, as a first send is: the
 * server's `tasks.requests.tools.call` and the tool's `execution.taskSupport` may have changed
 * meanwhile (a reconnect, a restart), and the negotiation as it stands now binds the retry
 * (MUST NOT send a task the server or tool does not allow; MUST send one a tool requires). The
 * first send's choice is kept only where the tool still allows both.
 */
export function decideRetry(
  mode: ToolCallMode,
  toolName: string,
  serverName: string,
  sentAsTask: boolean
): CallDecision {
  switch (mode) {
    case 'unavailable':
      return {
        type: 'refused',
        reason:
          `Tool "${toolName}" on "${serverName}" now must be called as a task, but the server no longer ` +
          `accepts tasks (tasks.requests.tools.call), so the call was not sent again.`
      };
    case 'task':
      return { type: 'task' };
    case 'task-or-plain':
      return sentAsTask ? { type: 'task' } : { type: 'plain' };
    case 'plain':
      return { type: 'plain' };
  }
}

/** The tool as the host shows it. */
export function requestorToolView(tool: Tool, serverAcceptsTaskCalls: boolean): RequestorTool {
  const taskSupport = taskSupportOf(tool);
  const view: RequestorTool = {
    name: tool.name,
    inputSchema: { ...tool.inputSchema },
    taskSupport,
    callMode: toolCallMode(serverAcceptsTaskCalls, taskSupport)
  };
  if (tool.title !== undefined) view.title = tool.title;
  if (tool.description !== undefined) view.description = tool.description;
  if (tool.outputSchema !== undefined) view.outputSchema = { ...tool.outputSchema };
  return view;
}
