import { HostError, JsonRpcCode } from '../core/errors.js';

/**
 * The `resultType` of a 2026-07-28 server's answer, checked against what the request can be
 * answered with (MCP 2026-07-28, basic/index "ResultType"): the core's `complete` and
 * `input_required`, and the values of the extensions the request declared. The tasks extension
 * adds `task`, for `tools/call` alone (SEP-2663: a `CreateTaskResult` to any other request is an
 * invalid answer). An absent `resultType` is `complete` (a server of an earlier revision).
 */

/** The requests whose answer may be an `InputRequiredResult` or, for `tools/call`, a task. */
export type PolymorphicMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * Returns `response` when its `resultType` is one the request can be answered with; throws
 * −32603 naming the value otherwise, so that an answer Taskdesk cannot read is never taken for
 * the result.
 */
export function checkResultType(
  method: PolymorphicMethod,
  response: Record<string, unknown>,
  declared: { tasks: boolean },
  serverName: string
): Record<string, unknown> {
  const resultType = response.resultType;
  if (resultType === undefined || resultType === 'complete' || resultType === 'input_required') return response;
  if (resultType === 'task' && method === 'tools/call' && declared.tasks) return response;
  const why =
    resultType === 'task'
      ? method === 'tools/call'
        ? 'a task, although the request did not declare the tasks extension'
        : `a task, which the tasks extension allows for tools/call only`
      : 'a value Taskdesk does not recognize';
  throw new HostError(
    JsonRpcCode.InternalError,
    `Server "${serverName}" answered ${method} with resultType ${JSON.stringify(resultType)}: ${why}. The answer is invalid.`,
    { resultType }
  );
}
