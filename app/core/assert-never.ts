/** Fails at compile time when a `switch` misses a case, and at run time if one slips through. */
export function assertNever(value: never, message = 'Unexpected value'): never {
  throw new Error(`${message}: ${JSON.stringify(value)}`);
}
