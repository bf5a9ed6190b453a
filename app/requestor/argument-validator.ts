import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { errorMessage } from '../core/errors.js';

/** One problem with one argument. `path` is a JSON pointer into the arguments ('' is the arguments object). */
export interface ArgumentProblem {
  path: string;
  message: string;
}

/**
 * Validates tool arguments against a tool's `inputSchema` before the call is sent.
 *
 * Uses the SDK's Ajv provider (JSON Schema 2020-12 keywords, formats, all errors).
 * Compiled validators are cached per schema object, since a tool list is reused for
 * many calls.
 */
export class ArgumentValidator {
  readonly #ajv = new AjvJsonSchemaValidator();
  readonly #cache = new WeakMap<object, JsonSchemaValidator<unknown>>();

  /** The problems with `args`; empty when they are valid. A schema Ajv cannot compile is reported as one problem. */
  validate(inputSchema: Record<string, unknown>, args: Record<string, unknown>): ArgumentProblem[] {
    let validator = this.#cache.get(inputSchema);
    if (!validator) {
      try {
        validator = this.#ajv.getValidator<unknown>(inputSchema);
      } catch (error) {
        return [
          {
            path: '',
            message: `the tool's inputSchema cannot be used: ${errorMessage(error)}`
          }
        ];
      }
      this.#cache.set(inputSchema, validator);
    }
    const outcome = validator(args);
    return outcome.valid ? [] : splitAjvErrors(outcome.errorMessage ?? 'invalid arguments');
  }
}

/**
 * Splits Ajv's `errorsText` ("data/a must be string, data must have required property 'b'")
 * into one problem per field. The SDK provider only exposes that text, not Ajv's error objects.
 */
export function splitAjvErrors(text: string): ArgumentProblem[] {
  return text.split(/, (?=data[/ ])/).map((part) => {
    const match = /^data(\S*) (.*)$/s.exec(part);
    return match ? { path: match[1] ?? '', message: match[2] ?? part } : { path: '', message: part };
  });
}

/** One line for a person: "topic: must be string; (arguments): must have required property 'x'". */
export function describeProblems(problems: readonly ArgumentProblem[]): string {
  return problems
    .map((p) => `${p.path === '' ? '(arguments)' : p.path.slice(1).replaceAll('/', '.')}: ${p.message}`)
    .join('; ');
}
