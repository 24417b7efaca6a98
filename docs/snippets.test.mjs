// Every documented command marked runnable runs as written. A fenced block right after an
// `<!-- doc-test: sh -->` or `<!-- doc-test: js -->` comment, in README.md, docs/ or protocol/,
// is run from the repository root against the built binary: shell blocks with bash (every line
// they print on stdout must be a JSON-RPC frame), JS blocks with node, where
// `@authbridge/client` resolves to protocol/clients/node as an installed package does.
// Blocks without the comment are illustrations (a Jest config, a wire excerpt) or need more
// than a test may do (make install, npm install); the Jest example itself runs under
// protocol/clients/node/examples/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env.AUTHBRIDGE_BIN ?? join(root, '.build/debug/authbridge');

function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

export function snippets(text) {
  const found = [];
  const pattern = /<!-- doc-test: (sh|js) -->\n```\w*\n([\s\S]*?)\n```/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ kind: match[1], code: match[2], line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')), ...markdownFiles(join(root, 'protocol'))];
const all = files.flatMap((file) => snippets(readFileSync(file, 'utf8')).map((s) => ({ ...s, file: relative(root, file) })));

test('the marker finds the runnable snippets (and would notice losing them)', () => {
  assert.ok(all.filter((s) => s.kind === 'sh').length >= 3, 'shell snippets');
  assert.ok(all.filter((s) => s.kind === 'js').length >= 1, 'JS snippets');
  assert.deepEqual(snippets('<!-- doc-test: sh -->\n```sh\necho hi\n```\n```sh\nnot marked\n```').map((s) => s.code), ['echo hi']);
});

let packageDir;
function withPackage() {
  if (packageDir) return packageDir;
  packageDir = mkdtempSync(join(tmpdir(), 'authbridge-doc-'));
  mkdirSync(join(packageDir, 'node_modules', '@authbridge'), { recursive: true });
  symlinkSync(join(root, 'protocol/clients/node'), join(packageDir, 'node_modules', '@authbridge', 'client'));
  return packageDir;
}
test.after(() => { if (packageDir) rmSync(packageDir, { recursive: true, force: true }); });

for (const snippet of all) {
  test(`${snippet.file}:${snippet.line} (${snippet.kind}) runs as written`, () => {
    const env = { ...process.env, AUTHBRIDGE_BIN: binary };
    if (snippet.kind === 'sh') {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', snippet.code], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}`);
      for (const line of run.stdout.split('\n').filter(Boolean)) {
        assert.equal(JSON.parse(line).jsonrpc, '2.0', `not a frame on stdout: ${line}`);
      }
    } else {
      const dir = withPackage();
      const file = join(dir, `snippet-${snippet.line}.cjs`);
      writeFileSync(file, snippet.code);
      const run = spawnSync(process.execPath, [file], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}`);
    }
  });
}

test("the banner's lines do what the banner says: TOKEN_EVENT on login, LOGOUT_EVENT on emulator.nativeLogout", () => {
  const banner = spawnSync(binary, ['--banner'], { input: '', encoding: 'utf8' }).stderr;
  const lines = banner.split('\n').map((l) => l.trim());
  const frames = lines.filter((l) => l.startsWith('{"jsonrpc"'));
  const inline = [...banner.matchAll(/\{"jsonrpc":"2\.0","id":\d+,"method":"[\w.]+"\}/g)].map((m) => m[0]);
  const ready = inline.find((f) => f.includes('tokenSyncReady'));
  const nativeLogout = inline.find((f) => f.includes('emulator.nativeLogout'));
  assert.ok(ready && nativeLogout, 'the banner names tokenSyncReady and emulator.nativeLogout');
  const pasted = frames.filter((f) => f !== ready && f !== nativeLogout);
  assert.equal(pasted.length, 5);
  const [, login, next] = pasted;
  const input = [ready, ...pasted, login, next, nativeLogout].join('\n') + '\n';
  const run = spawnSync(binary, [], { input, encoding: 'utf8' });
  const events = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).method).filter(Boolean);
  assert.deepEqual(events, ['TOKEN_REQUEST_EVENT', 'TOKEN_EVENT', 'TOKEN_EVENT', 'LOGOUT_EVENT']);
});

test('README: "Two commands" shows two, and what make test downloads is said, with the way to skip it', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Two commands'), readme.indexOf('\n## ', readme.indexOf('## Two commands') + 3));
  const commands = section.split('\n').filter((line) => /^ {4}\S/.test(line)).map((line) => line.trim().split(/\s+#/)[0].trim());
  assert.deepEqual(commands, ['make run', 'make test']);
  // Whatever a test under protocol/ or docs/ installs from PyPI, the README names it and its skip.
  const installers = [];
  for (const dir of ['protocol', 'docs']) {
    for (const file of readdirSync(join(root, dir), { recursive: true })) {
      if (!String(file).endsWith('.test.mjs')) continue;
      const text = readFileSync(join(root, dir, String(file)), 'utf8');
      for (const m of text.matchAll(/'pip', 'install'[^\]]*'([\w-]+)'\]/g)) installers.push(m[1]);
    }
  }
  assert.ok(installers.length > 0, 'the pip installs are found (the check would notice a new one)');
  for (const name of installers) assert.ok(section.includes(name), `README's Two commands section names ${name}, which make test installs`);
  assert.match(section, /AUTHBRIDGE_OFFLINE=1 make test/);
});
