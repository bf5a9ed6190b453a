import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The layering rule of the house (VS Code's `code-layering` lint, as a test): Electron appears
 * only under main/; nothing in app/ or renderer/ imports it; renderer/ (bundled by Vite for the
 * browser) reaches app/ only for the host API contract, and never Node's modules.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const CONTRACT_DIR = path.join(root, 'app/contract');

/** One module reference in a source file. */
interface ModuleReference {
  specifier: string;
  /** Erased at compile time: `import type`, `export type`, or an `import('x').T` type. */
  typeOnly: boolean;
  kind: 'import' | 'export' | 'require' | 'dynamic-import' | 'import-type';
  line: number;
}

/** Every module a source text refers to, found by parsing it (comments and strings cannot fool it). */
function moduleReferences(fileName: string, text: string): ModuleReference[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: ModuleReference[] = [];
  const add = (node: ts.Node, literal: ts.Node | undefined, kind: ModuleReference['kind'], typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: literal.text, typeOnly, kind, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      // `import { type A, type B } from` is erased too (verbatimModuleSyntax keeps `import {}` only when it has values).
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && allNamedTypes));
      add(node, node.moduleSpecifier, 'import', typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allNamedTypes =
        !!clause &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier, 'export', node.isTypeOnly || allNamedTypes);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, 'require', node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument)) add(node, argument.literal, 'import-type', true);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, first, 'dynamic-import', false);
      else if (isRequire(node.expression)) add(node, first, 'require', false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `require(...)`, `module.require(...)` and `createRequire(...)(...)` style callees named require. */
function isRequire(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text === 'require';
  return false;
}

/** Electron and the packages that load it at runtime. */
function isElectron(specifier: string): boolean {
  return /^(?:electron|electron-store)(?:\/|$)/.test(specifier) || specifier.startsWith('@electron/');
}

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function referencesOf(file: string): ModuleReference[] {
  return moduleReferences(file, fs.readFileSync(file, 'utf8'));
}

const where = (file: string, ref: ModuleReference) =>
  `${path.relative(root, file)}:${ref.line} ${ref.kind} '${ref.specifier}'`;

/** Node's own modules, which a page cannot load. */
const NODE_BUILTINS = new Set(builtinModules);

/**
 * Where a renderer file's reference may not point. Undefined when it is allowed.
 *
 * Vite bundles the renderer, so packages (React) and the contract's modules may be imported
 * at runtime; Node's modules, Electron and the rest of app/ may not.
 */
function rendererViolation(file: string, ref: ModuleReference): string | undefined {
  if (isElectron(ref.specifier)) return 'renderer/ must not import Electron';
  if (!ref.specifier.startsWith('.')) {
    const bare = ref.specifier.replace(/^node:/, '').split('/')[0]!;
    if (ref.specifier.startsWith('node:') || NODE_BUILTINS.has(bare))
      return ref.typeOnly ? undefined : 'renderer/ runs in the browser: no Node modules';
    return undefined;
  }
  const target = path.resolve(path.dirname(file), ref.specifier);
  const inApp = target.startsWith(path.join(root, 'app') + path.sep);
  if (!inApp)
    return target.startsWith(path.join(root, 'renderer') + path.sep)
      ? undefined
      : 'renderer/ imports only itself and the contract';
  return path.dirname(target) === CONTRACT_DIR ? undefined : 'renderer/ imports nothing from app/ except app/contract/';
}

describe('layering', () => {
  it('finds every form of module reference, and tells type-only ones apart', () => {
    const refs = moduleReferences(
      'sample.ts',
      [
        "import { app } from 'electron';",
        "import type { HostApiClient } from '../app/contract/host-api.js';",
        "import { type A, type B } from './types.js';",
        "import { type C, d } from './mixed.js';",
        "export { x } from 'electron/main';",
        "export type { Y } from './y.js';",
        "import 'electron-store';",
        "const e = require('electron');",
        'const f = await import(`electron/renderer`);',
        "import g = require('electron');",
        "type T = import('electron').BrowserWindow;",
        "// import { nope } from 'electron';",
        'const text = "require(\'electron\')";'
      ].join('\n')
    );
    assert.deepEqual(
      refs.map((ref) => [ref.specifier, ref.kind, ref.typeOnly]),
      [
        ['electron', 'import', false],
        ['../app/contract/host-api.js', 'import', true],
        ['./types.js', 'import', true],
        ['./mixed.js', 'import', false],
        ['electron/main', 'export', false],
        ['./y.js', 'export', true],
        ['electron-store', 'import', false],
        ['electron', 'require', false],
        ['electron/renderer', 'dynamic-import', false],
        ['electron', 'require', false],
        ['electron', 'import-type', true]
      ]
    );
    assert.ok(
      isElectron('electron') &&
        isElectron('electron/main') &&
        isElectron('electron-store') &&
        isElectron('@electron/remote')
    );
    assert.ok(!isElectron('electron-like') && !isElectron('./electron.js'));
  });

  it('judges renderer references by where they point', () => {
    const file = path.join(root, 'renderer/views/some-view.tsx');
    const ref = (specifier: string, typeOnly: boolean): ModuleReference => ({
      specifier,
      typeOnly,
      kind: 'import',
      line: 1
    });
    assert.equal(rendererViolation(file, ref('../../app/contract/host-api.js', true)), undefined);
    assert.equal(rendererViolation(file, ref('../../app/contract/schema-fields.js', false)), undefined);
    assert.equal(rendererViolation(file, ref('../dom.js', false)), undefined);
    assert.equal(rendererViolation(file, ref('react', false)), undefined, 'Vite bundles packages');
    assert.match(rendererViolation(file, ref('../../app/host/host.js', true)) ?? '', /except app\/contract/);
    assert.match(rendererViolation(file, ref('node:fs', false)) ?? '', /no Node modules/);
    assert.match(rendererViolation(file, ref('path', false)) ?? '', /no Node modules/);
    assert.match(rendererViolation(file, ref('electron', true)) ?? '', /Electron/);
    assert.match(rendererViolation(file, ref('../../main/ipc-channels.js', false)) ?? '', /only itself/);
  });

  it('parses .tsx files (JSX) like the others', () => {
    const refs = moduleReferences(
      'sample.tsx',
      "import { useState } from 'react';\nexport const A = () => <div>{'electron'}</div>;\nimport 'electron';"
    );
    assert.deepEqual(
      refs.map((r) => r.specifier),
      ['react', 'electron']
    );
    assert.ok(
      sourceFiles('renderer').some((f) => f.endsWith('.tsx')),
      'the renderer scan sees .tsx files'
    );
  });

  it('keeps Electron out of app/ and renderer/', () => {
    const files = [...sourceFiles('app'), ...sourceFiles('renderer')];
    assert.ok(files.length > 10, 'the scan sees the source files');
    const offenders = files.flatMap((file) =>
      referencesOf(file)
        .filter((ref) => isElectron(ref.specifier))
        .map((ref) => where(file, ref))
    );
    assert.deepEqual(offenders, []);
  });

  it('lets renderer/ import only itself, packages and the host API contract', () => {
    const files = sourceFiles('renderer');
    assert.ok(files.length > 0, 'the renderer has sources');
    const offenders = files.flatMap((file) =>
      referencesOf(file).flatMap((ref) => {
        const problem = rendererViolation(file, ref);
        return problem ? [`${where(file, ref)}: ${problem}`] : [];
      })
    );
    assert.deepEqual(offenders, []);
  });

  /**
   * The contract modules the Desk takes values from carry no zod, not even through another
   * contract module: zod 4 probes for `new Function` when it loads, and under the Desk's
   * Content-Security-Policy (no 'unsafe-eval') that probe is reported as a violation. Types are
   * erased and may come from anywhere in the contract.
   */
  it('lets renderer/ take values only from contract modules that do not load zod', () => {
    const loadsZod = (file: string, seen = new Set<string>()): boolean => {
      if (seen.has(file)) return false;
      seen.add(file);
      return referencesOf(file).some(
        (ref) =>
          !ref.typeOnly &&
          (ref.specifier === 'zod' ||
            (ref.specifier.startsWith('.') &&
              loadsZod(path.resolve(path.dirname(file), ref.specifier).replace(/\.js$/, '.ts'), seen)))
      );
    };
    const offenders = sourceFiles('renderer').flatMap((file) =>
      referencesOf(file).flatMap((ref) => {
        if (ref.typeOnly || !ref.specifier.startsWith('.')) return [];
        const target = path.resolve(path.dirname(file), ref.specifier).replace(/\.js$/, '.ts');
        if (path.dirname(target) !== CONTRACT_DIR) return [];
        return loadsZod(target) ? [`${where(file, ref)}: loads zod into the page`] : [];
      })
    );
    assert.deepEqual(offenders, []);
  });

  /**
   * Packages the contract may import: zod, and the Markdown parser `markdownPlainText` reads a
   * question with (pure code that runs in the page, the shell and the core alike).
   */
  const CONTRACT_PACKAGES = new Set([
    'zod',
    'mdast',
    'mdast-util-from-markdown',
    'mdast-util-gfm',
    'micromark-extension-gfm'
  ]);

  it('keeps the host API contract a leaf: app/contract/ imports only zod, the Markdown parser and itself', () => {
    const files = sourceFiles('app/contract');
    assert.ok(files.length >= 4, 'the contract has sources');
    const contractDir = path.join(root, 'app', 'contract');
    const offenders = files.flatMap((file) =>
      referencesOf(file)
        .filter((ref) => {
          if (CONTRACT_PACKAGES.has(ref.specifier)) return false;
          if (!ref.specifier.startsWith('.')) return true;
          return path.dirname(path.resolve(path.dirname(file), ref.specifier)) !== contractDir;
        })
        .map((ref) => where(file, ref))
    );
    assert.deepEqual(offenders, []);
  });

  it('finds Electron in main/, the one place it belongs', () => {
    const electronFiles = sourceFiles('main').filter((file) =>
      referencesOf(file).some((ref) => isElectron(ref.specifier) && !ref.typeOnly)
    );
    assert.ok(electronFiles.length > 0, 'main/ is where Electron is used, so the detector has something real to find');
  });

  it('gives the sandboxed preload nothing to require but electron', () => {
    // A sandboxed preload gets a polyfilled `require` that loads only a few built-in modules.
    const preloads = sourceFiles('main/preload');
    assert.ok(preloads.length > 0, 'the preload exists');
    const offenders = preloads.flatMap((file) =>
      referencesOf(file)
        .filter((ref) => !ref.typeOnly && ref.specifier !== 'electron')
        .map((ref) => where(file, ref))
    );
    assert.deepEqual(offenders, []);
  });
});
