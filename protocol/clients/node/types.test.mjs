// The TypeScript face: index.d.ts and jest.d.ts declare what index.cjs and jest.cjs export, and
// `tsc --strict` accepts the TypeScript example (whose @ts-expect-error lines are mistakes the
// types must reject). tsc is Debian's `node-typescript` (installed by .ci/run); where it is
// missing the tsc check is skipped with a visible note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('.', import.meta.url));
const tsc = spawnSync('tsc', ['--version'], { encoding: 'utf8' }).status === 0 ? 'tsc' : null;
const missing = 'tsc not installed (CI installs Debian\'s node-typescript: .ci/run); the TypeScript example was not type-checked';
if (!tsc) process.stderr.write(`\nNOTE: ${missing}\n\n`);

function declared(file) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  return new Set([...text.matchAll(/^export (?:declare )?(?:function|const|class) (\w+)/gm)].map((m) => m[1]));
}

test('every runtime export is declared, and nothing declared is missing at runtime', () => {
  for (const [runtime, types] of [['./index.cjs', './index.d.ts'], ['./jest.cjs', './jest.d.ts']]) {
    const exported = Object.keys(require(runtime)).sort();
    assert.deepEqual([...declared(types)].sort(), exported, `${types} vs ${runtime}`);
  }
});

test('the package manifest points at files that exist', () => {
  const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
  const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin),
    ...Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))];
  for (const target of targets) require.resolve(new URL(target, import.meta.url).pathname);
  for (const file of manifest.files) assert.doesNotThrow(() => readFileSync(new URL(file.replace(/\/$/, '/authbridge.cjs'), import.meta.url)), file);
});

test('tsc --strict accepts the TypeScript example and rejects its mistakes', { skip: tsc ? false : missing }, () => {
  const run = spawnSync(tsc, ['-p', `${here}examples/typescript/tsconfig.json`], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  // The check is real: the same file without its @ts-expect-error lines has exactly that many errors.
  const source = readFileSync(`${here}examples/typescript/example.ts`, 'utf8');
  const expected = source.match(/^\s*\/\/ @ts-expect-error/gm).length;
  assert.ok(expected >= 5);
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-tsc-'));
  try {
    writeFileSync(join(dir, 'example.ts'), source.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
    const config = JSON.parse(readFileSync(`${here}examples/typescript/tsconfig.json`, 'utf8'));
    config.compilerOptions.baseUrl = `${here}examples/typescript`;
    config.files = [join(dir, 'example.ts')];
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const stripped = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    assert.notEqual(stripped.status, 0);
    assert.equal((stripped.stdout.match(/error TS\d+/g) ?? []).length, expected, stripped.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Jest's own types, where they are installed (Debian's `jest` ships @types/jest and @jest/globals
// under /usr/share/nodejs; an app has them in node_modules).
function jestTypes() {
  const roots = [join(here, 'node_modules'), join(process.cwd(), 'node_modules'), '/usr/share/nodejs'];
  const find = (name) => roots.find((root) => {
    try { return readFileSync(join(root, name, 'package.json')) && true; } catch { return false; }
  });
  return { typesJest: find('@types/jest'), globals: find('@jest/globals') };
}

for (const [file, needs] of [['jest-global.ts', 'typesJest'], ['jest-globals.ts', 'globals']]) {
  const root = jestTypes()[needs];
  const why = !tsc ? missing : !root ? `${needs === 'typesJest' ? '@types/jest' : '@jest/globals'} not installed (CI installs Debian's jest)` : false;
  if (why && tsc) process.stderr.write(`\nNOTE: ${why}; ${file} was not type-checked\n\n`);
  test(`tsc --strict accepts the Jest helpers with ${needs === 'typesJest' ? "@types/jest's global jest" : "@jest/globals' jest"}`, { skip: why }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'authbridge-tsc-jest-'));
    try {
      const config = {
        compilerOptions: {
          strict: true, noEmit: true, target: 'es2022', module: 'commonjs', moduleResolution: 'node', lib: ['es2022', 'dom'],
          // Jest's own declarations are not what is checked here (Debian's lack some of their peers).
          skipLibCheck: true,
          typeRoots: [join(root, '@types')], types: needs === 'typesJest' ? ['jest'] : [],
          baseUrl: dir,
          paths: {
            '@authbridge/client': [join(here, 'index.d.ts')], '@authbridge/client/jest': [join(here, 'jest.d.ts')],
            '*': [join(root, '*'), join(root, '@types', '*')],
          },
        },
        files: [join(here, 'examples/typescript', file)],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
      const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      // Without its @ts-expect-error line the misspelled API is an error: the check is real.
      const source = readFileSync(join(here, 'examples/typescript', file), 'utf8');
      writeFileSync(join(dir, file), source.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
      config.files = [join(dir, file)];
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
      const stripped = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      assert.match(stripped.stdout, /error TS\d+: Type '"setTimout"' is not assignable/);
      assert.equal((stripped.stdout.match(/error TS\d+/g) ?? []).length, 1, stripped.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
