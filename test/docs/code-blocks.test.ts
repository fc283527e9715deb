// Every ```ts (or ```typescript) block of README.md and the guides compiles against the library's
// public API, so that the documentation cannot drift from it. The blocks are compiled together in one
// TypeScript program, each as a module of its own, with `hcp-cdk` and `hcp-cdk/aws` mapped to
// lib/index.ts and lib/aws/index.ts. The conventions the guides follow:
// - a block may use any export of `hcp-cdk` without importing it (it is imported for the block), and
//   the names of CONTEXT below without declaring them (the app, the management cluster, the cluster
//   the guide is about, a cluster's other props, ...);
// - a block that is deliberately incomplete is marked ```ts fragment and skipped (keep them rare: the
//   test says how many there are).
import * as path from 'path';
import * as ts from 'typescript';
import { ROOT } from '../util';
import { CodeBlock, codeBlocks, documentationFiles } from './markdown';

/** The names a block may use without declaring them, and what they are. */
const CONTEXT = `
/** The app. */
declare const app: import('hcp-cdk').HcpApp;
/** The management cluster. */
declare const hub: import('hcp-cdk').ManagementCluster;
/** The hosted cluster the guide is about. */
declare const cluster: import('hcp-cdk').HostedCluster;
/** The agent lab's hosted cluster. */
declare const vcluster2: import('hcp-cdk').HostedCluster;
/** A hosted cluster's props that the block does not show. */
declare const clusterProps: import('hcp-cdk').HostedClusterProps;
/** The aws-cdk-lib stacks of the AWS guide: the management account's, and one hosted cluster's. */
declare const managementStack: import('aws-cdk-lib').Stack;
declare const clusterStack: import('aws-cdk-lib').Stack;
/** The mirror registry's CA certificate, PEM. */
declare const REGISTRY_CA: string;
`;

const TYPESCRIPT = new Set(['ts', 'typescript']);
const blocks = documentationFiles(ROOT)
  .flatMap(codeBlocks)
  .filter((block) => TYPESCRIPT.has(block.info.split(/\s+/)[0]));
const fragments = blocks.filter((block) => block.info.split(/\s+/).includes('fragment'));
const compiled = blocks.filter((block) => !fragments.includes(block));

/** The names a block declares or imports at its top level, which must not be imported for it. */
function declaredNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const bindingNames = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) names.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bindingNames(declaration.name);
    } else if (
      (ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

interface Compiled {
  readonly diagnostics: string[];
  readonly files: number;
}

function compile(toCompile: CodeBlock[]): Compiled {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    lib: ['lib.es2022.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    types: ['node'],
    baseUrl: ROOT,
    paths: { 'hcp-cdk': ['lib/index.ts'], 'hcp-cdk/aws': ['lib/aws/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const virtual = new Map<string, { text: string; block?: CodeBlock; headerLines: number }>();
  const contextFile = path.join(ROOT, 'docs', '__code-blocks__', 'context.d.ts');
  virtual.set(contextFile, { text: CONTEXT, headerLines: 0 });

  // Every export of hcp-cdk, from a first pass over the entry point alone (its files are reused below).
  const entryProgram = ts.createProgram([path.join(ROOT, 'lib', 'index.ts')], options, host);
  const checker = entryProgram.getTypeChecker();
  const entry = entryProgram.getSourceFile(path.join(ROOT, 'lib', 'index.ts'))!;
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!).map((symbol) => symbol.name);

  toCompile.forEach((block, index) => {
    const parsed = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    const declared = declaredNames(parsed);
    const used = new Set(block.code.match(/[A-Za-z_$][\w$]*/g) ?? []);
    const imports = exported.filter((name) => used.has(name) && !declared.has(name));
    const header = `${imports.length ? `import { ${imports.join(', ')} } from 'hcp-cdk';` : ''}\nexport {};\n`;
    const file = path.join(ROOT, 'docs', '__code-blocks__', `${block.file.replace(/[/.]/g, '_')}_${block.line}_${index}.ts`);
    virtual.set(file, { text: header + block.code + '\n', block, headerLines: 2 });
  });

  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const entryFile = virtual.get(path.resolve(fileName));
    if (entryFile) return ts.createSourceFile(fileName, entryFile.text, languageVersion, true, ts.ScriptKind.TS);
    return entryProgram.getSourceFile(fileName) ?? read(fileName, languageVersion, onError, shouldCreate);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => virtual.has(path.resolve(fileName)) || fileExists(fileName);

  const program = ts.createProgram([...virtual.keys()], options, host, entryProgram);
  const diagnostics: string[] = [];
  for (const [fileName, { block, headerLines }] of virtual) {
    const source = program.getSourceFile(fileName)!;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      diagnostics.push(block ? `${block.file}:${block.line + line - headerLines}: ${message}` : `context: ${message}`);
    }
  }
  return { diagnostics, files: virtual.size - 1 };
}

// A block that cannot compile, compiled with the others, shows how a failure is reported.
const BROKEN: CodeBlock = { file: 'docs/not-a-guide.md', line: 10, info: 'ts', code: "const pool = 1;\nnew HostedCluster(hub, 'x', { colour: 'red' });" };
let result: Compiled;

beforeAll(() => {
  result = compile([...compiled, BROKEN]);
}, 120_000);

test('README and the guides have TypeScript blocks, and few are fragments', () => {
  expect(compiled.length).toBeGreaterThanOrEqual(15);
  expect(fragments.length).toBeLessThanOrEqual(Math.ceil(blocks.length / 10));
});

test('every TypeScript block compiles against the public API', () => {
  process.stdout.write(`documentation code blocks: ${compiled.length} compiled, ${fragments.length} skipped as fragments ` + `(${fragments.map((f) => `${f.file}:${f.line}`).join(', ') || 'none'})\n`);
  expect(result.files).toBe(compiled.length + 1);
  expect(result.diagnostics.filter((d) => !d.startsWith(`${BROKEN.file}:`))).toEqual([]);
});

test('a block that does not compile is reported with its file and line', () => {
  const reported = result.diagnostics.filter((d) => d.startsWith(`${BROKEN.file}:`));
  expect(reported.length).toBeGreaterThan(0);
  expect(reported.every((d) => d.startsWith(`${BROKEN.file}:11: `))).toBe(true);
});

// A cdk8s App has no delivery, no prune protection, no schema check and no all-or-nothing write: a guide
// that shows one would describe output its reader does not get. aws-cdk-lib's App is fine.
test('no block builds a plain cdk8s App: every guide shows an HcpApp', () => {
  const plainApps = compiled.filter((block) => /import\s*\{[^}]*\bApp\b[^}]*\}\s*from\s*'cdk8s'/.test(block.code)).map((block) => `${block.file}:${block.line}`);
  expect(plainApps).toEqual([]);
});
