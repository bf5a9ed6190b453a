import { HostError, JsonRpcCode } from '../core/errors.js';

/**
 * The `resultType` of a 2026-07-28 server's answer, checked against what the request can be
 * answered with (MCP 2026-07-28, basic/index "ResultType"): the core's `complete` and
 * `input_required`, and the values of the extensions the request declared. The tasks extension
 * adds `task`, for `tools/call` alone (SEP-2663: a `CreateTaskResult` to any other request is an
 * invalid answer). An absent `resultType` is `complete` (a server of an earlier revision).
 *
 * Lists and the tasks extension's acknowledgements have one answer, `complete`: the schema gives
 * them no `InputRequiredResult`, and SEP-2663 sets `complete` on `tasks/update` and `tasks/cancel`.
 */

/** The requests whose answer may be an `InputRequiredResult` or, for `tools/call`, a task. */
export type PolymorphicMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** The requests whose only answer is `complete`. */
export type CompleteOnlyMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'tasks/update' | 'tasks/cancel';

/** Every request whose answer's `resultType` Taskdesk checks. */
export type CheckedMethod = PolymorphicMethod | CompleteOnlyMethod;

const POLYMORPHIC: ReadonlySet<string> = new Set<PolymorphicMethod>(['tools/call', 'prompts/get', 'resources/read']);

/**
 * Returns `response` when its `resultType` is one the request can be answered with; throws
 * −32603 naming the server, the method and the value otherwise, so that an answer Taskdesk
 * cannot read is never taken for the result. For a 2026-07-28 server only: an earlier revision
 * has no `resultType`.
 */
export function checkResultType(
  method: CheckedMethod,
  response: Record<string, unknown>,
  declared: { tasks: boolean },
  serverName: string
): Record<string, unknown> {
  const resultType = response.resultType;
  if (resultType === undefined || resultType === 'complete') return response;
  if (resultType === 'input_required' && POLYMORPHIC.has(method)) return response;
  if (resultType === 'task' && method === 'tools/call' && declared.tasks) return response;
  const why =
    resultType === 'task'
      ? method === 'tools/call'
        ? 'a task, although the request did not declare the tasks extension'
        : `a task, which the tasks extension allows for tools/call only`
      : resultType === 'input_required'
        ? `a request for input, which ${method} cannot be answered with`
        : 'a value Taskdesk does not recognize';
  throw new HostError(
    JsonRpcCode.InternalError,
    `Server "${serverName}" answered ${method} with resultType ${JSON.stringify(resultType)}: ${why}. The answer is invalid.`,
    { resultType }
  );
}
