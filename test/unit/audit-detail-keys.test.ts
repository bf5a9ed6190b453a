import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { auditFieldWords, auditFieldWorded } from '../../app/contract/audit-words.js';
import { detailPairs } from '../../renderer/audit/detail-pairs.js';

/**
 * Every detail field the core writes in an audit entry is worded for the Audit log (a test, so
 * that a field added with a name in code, `modelFile`, fails here rather than show raw): the
 * fields are found in the core's own code by the TypeScript checker, from the entries it makes.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The core's program, type-checked as `tsc -b` checks it. */
function appProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'app/tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      }
    }
  )!;
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

/** Where a detail's fields could not be told from the code: its place, and why. */
interface Unknown {
  at: string;
  why: string;
}

/**
 * The detail fields of every audit entry the core makes: an object literal shaped as an
 * `AuditEntry` (what `record` is given, a summary, an entry a function builds), its `detail`'s
 * fields followed through spreads, conditions, variables, the helpers that take a detail as a
 * parameter (to every call of them) and the functions that return one (to their returns), down
 * to a type whose fields are known.
 */
function auditDetailFields(program: ts.Program): { fields: Map<string, string>; unknown: Unknown[] } {
  const checker = program.getTypeChecker();
  const fields = new Map<string, string>();
  const unknown: Unknown[] = [];
  const sources = program
    .getSourceFiles()
    .filter((source) => !source.isDeclarationFile && source.fileName.startsWith(path.join(root, 'app') + path.sep));
  const where = (node: ts.Node) => {
    const source = node.getSourceFile();
    return `${path.relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  const add = (name: string, node: ts.Node) => {
    if (!fields.has(name)) fields.set(name, where(node));
  };

  /** Every call in the core, for the calls of a helper that takes a detail. */
  const calls: ts.CallExpression[] = [];
  const gather = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) calls.push(node);
    ts.forEachChild(node, gather);
  };
  for (const source of sources) gather(source);

  const isAuditEntryShaped = (type: ts.Type | undefined) =>
    type !== undefined &&
    ['type', 'detail', 'taskId', 'serverName'].every((name) => checker.getPropertyOfType(type, name) !== undefined);

  /** The values a function returns (not those of functions inside it). */
  const returnsOf = (fn: ts.SignatureDeclaration): ts.Expression[] => {
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return [fn.body];
    const out: ts.Expression[] = [];
    const walk = (node: ts.Node): void => {
      if (ts.isReturnStatement(node) && node.expression) out.push(node.expression);
      if (!ts.isFunctionLike(node)) ts.forEachChild(node, walk);
    };
    const body = (fn as { body?: ts.Node }).body;
    if (body) ts.forEachChild(body, walk);
    return out;
  };

  const skipOuter = (node: ts.Expression): ts.Expression => {
    let at = node;
    while (
      ts.isParenthesizedExpression(at) ||
      ts.isAsExpression(at) ||
      ts.isSatisfiesExpression(at) ||
      ts.isNonNullExpression(at) ||
      ts.isTypeAssertionExpression(at)
    )
      at = at.expression;
    return at;
  };

  const followed = new Set<ts.Node>();

  /** The fields of a detail value `node` (see {@link auditDetailFields}). */
  const fieldsOf = (given: ts.Expression): void => {
    const node = skipOuter(given);
    if (followed.has(node)) return;
    followed.add(node);
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) {
        if (ts.isSpreadAssignment(property)) fieldsOf(property.expression);
        else if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteralLike(property.name)))
          add(property.name.text, property);
        else unknown.push({ at: where(property), why: 'a field whose name is computed' });
      }
      return;
    }
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return fieldsOf(node.right);
      if (operator === ts.SyntaxKind.BarBarToken || operator === ts.SyntaxKind.QuestionQuestionToken) {
        fieldsOf(node.left);
        return fieldsOf(node.right);
      }
    }
    if (ts.isConditionalExpression(node)) {
      fieldsOf(node.whenTrue);
      return fieldsOf(node.whenFalse);
    }
    // A value whose type names its fields (no index signature): those.
    const type = checker.getTypeAtLocation(node);
    const parts = (type.isUnion() ? type.types : [type]).filter(
      (part) => !(part.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.BooleanLiteral))
    );
    if (parts.every((part) => checker.getIndexInfosOfType(part).length === 0)) {
      for (const part of parts) for (const property of checker.getPropertiesOfType(part)) add(property.name, node);
      return;
    }
    // Else where it comes from.
    if (ts.isIdentifier(node)) {
      const symbol = ts.isShorthandPropertyAssignment(node.parent)
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
      const declaration = symbol?.valueDeclaration;
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return fieldsOf(declaration.initializer);
      if (declaration && ts.isParameter(declaration) && ts.isFunctionLike(declaration.parent)) {
        const fn = declaration.parent;
        const index = fn.parameters.indexOf(declaration);
        for (const call of calls) {
          if (checker.getResolvedSignature(call)?.getDeclaration() !== fn) continue;
          const argument = call.arguments[index];
          if (argument) fieldsOf(argument);
        }
        return;
      }
    }
    if (ts.isCallExpression(node)) {
      const declaration = checker.getResolvedSignature(node)?.getDeclaration();
      if (declaration && !declaration.getSourceFile().isDeclarationFile) {
        for (const returned of returnsOf(declaration)) fieldsOf(returned);
        return;
      }
    }
    unknown.push({
      at: where(node),
      why: `a detail of type ${checker.typeToString(type)} whose fields cannot be told`
    });
  };

  const visit = (node: ts.Node): void => {
    // An entry as an object literal: given to `record`, returned by a function that makes one, a summary.
    if (ts.isObjectLiteralExpression(node) && isAuditEntryShaped(checker.getContextualType(node))) {
      for (const property of node.properties) {
        if (property.name === undefined || !ts.isIdentifier(property.name) || property.name.text !== 'detail') continue;
        if (ts.isPropertyAssignment(property)) fieldsOf(property.initializer);
        else if (ts.isShorthandPropertyAssignment(property)) fieldsOf(property.name);
      }
    }
    // An entry's detail set afterwards (`entry.detail = { …, truncated }`).
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.name.text === 'detail' &&
      isAuditEntryShaped(checker.getTypeAtLocation(node.left.expression))
    )
      fieldsOf(node.right);
    ts.forEachChild(node, visit);
  };
  for (const source of sources) visit(source);
  return { fields, unknown };
}

describe('the detail fields of the audit log, in words', () => {
  const found = auditDetailFields(appProgram());

  it('finds the fields of every entry the core makes', () => {
    assert.deepEqual(found.unknown, []);
    // What the walk must find, or it finds nothing: a task's ttl, a model file, a summary's count, a cut entry.
    for (const field of ['ttl', 'modelFile', 'count', 'truncated', 'outboundId', 'question'])
      assert.ok(found.fields.has(field), `${field} is found`);
  });

  it('words every field the core writes, or knows it reads as a word already', () => {
    const raw = [...found.fields]
      .filter(([field]) => !auditFieldWorded(field))
      .map(([field, at]) => `${field} (${at})`);
    assert.deepEqual(
      raw,
      [],
      'fields with no words: add them to FIELD_WORDS (or PLAIN_FIELDS) in app/contract/audit-words.ts'
    );
    // As the Audit log shows them: no name in code (camelCase) left.
    for (const field of found.fields.keys()) {
      const [pair] = detailPairs({ [field]: 'x' });
      if (pair) assert.doesNotMatch(pair.name, /[a-z][A-Z]/, field);
      assert.doesNotMatch(auditFieldWords(field), /[a-z][A-Z]/, field);
    }
  });
});
