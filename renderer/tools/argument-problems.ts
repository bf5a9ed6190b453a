/**
 * The host's per-argument problems (`data.problems` of a −32602 from `tools.call`, as Ajv
 * words them) put on their fields: each path's first segment names the argument.
 */
export function placeProblems(
  data: unknown,
  fieldNames: string[]
): { errors: Record<string, string>; unplaced: string[] } {
  const problems = (data as { problems?: unknown } | undefined)?.problems;
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const problem of Array.isArray(problems) ? (problems as Array<{ path?: unknown; message?: unknown }>) : []) {
    const path = typeof problem.path === 'string' ? problem.path : '';
    const message = typeof problem.message === 'string' ? problem.message : 'Invalid';
    // Ajv reports a missing property on the parent: "must have required property 'x'".
    const missing = /required property '([^']+)'/.exec(message)?.[1];
    const name = path
      ? decodeURIComponent(path.split('/')[1] ?? '')
          .replaceAll('~1', '/')
          .replaceAll('~0', '~')
      : missing;
    const target =
      name !== undefined && fieldNames.includes(name) ? name : path === '' && fieldNames.includes('') ? '' : undefined;
    if (target !== undefined)
      errors[target] =
        missing && !path ? 'Required' : `${path.split('/').length > 2 ? `${path.slice(1)}: ` : ''}${message}`;
    else unplaced.push(path ? `${path.slice(1)}: ${message}` : message);
  }
  return { errors, unplaced };
}
