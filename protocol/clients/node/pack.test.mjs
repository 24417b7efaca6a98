// The packages as a team gets them: `make pack` (with the debug build instead of the release one)
// makes the main tarball and this machine's platform tarball; both are installed offline into an
// empty app with npm, and there `spawnBridge()` and `npx authbridge` run the platform package's
// binary. Installed without the platform package, both say which package to install.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { PLATFORMS, binaryNotFoundHint, platformPackage } from './index.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const version = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).version;
const binary = process.env.AUTHBRIDGE_BIN ?? join(root, '.build', 'debug', 'authbridge');
const platform = `${process.platform}-${process.arch}`;
const tools = ['npm', 'make'].filter((tool) => spawnSync(tool, ['--version']).status !== 0);
const skip = !existsSync(binary) ? `no daemon at ${binary} (swift build)`
  : tools.length ? `${tools.join(' and ')} not installed` : !PLATFORMS.includes(platform) ? `no package is built for ${platform}` : false;
if (skip) process.stderr.write(`\nNOTE: packing not tested: ${skip}\n\n`);

// The app's environment: no AUTHBRIDGE_BIN, and no PATH entry holding an authbridge, so only
// the installed packages can supply the daemon.
const hasDaemon = (dir) => { try { accessSync(join(dir, 'authbridge'), constants.X_OK); return true; } catch { return false; } };
const env = { ...process.env, PATH: (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !hasDaemon(dir)).join(delimiter) };
delete env.AUTHBRIDGE_BIN;
delete env.AUTHBRIDGE_ARGS;

let work;
let tarballs;
before(() => {
  if (skip) return;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'authbridge-pack-')));
  const out = join(work, 'out');
  const pack = spawnSync('make', ['-s', '-C', root, 'pack', `BINARY_PATH=${binary}`, `PACK_OUT=${out}`], { encoding: 'utf8' });
  assert.equal(pack.status, 0, `make pack failed:\n${pack.stdout}${pack.stderr}`);
  tarballs = { main: join(out, `authbridge-client-${version}.tgz`), platform: join(out, `authbridge-client-${platform}-${version}.tgz`) };
  assert.deepEqual(readdirSync(out).sort(), [tarballs.main, tarballs.platform].map((path) => path.slice(out.length + 1)).sort());
});
after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

/** An empty app with `files` installed by npm, offline, from a cache of its own. */
function app(name, files) {
  const dir = join(work, name);
  spawnSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), '{ "name": "app", "private": true }\n');
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(work, `cache-${name}`), ...files],
    { cwd: dir, env, encoding: 'utf8' });
  assert.equal(install.status, 0, `npm install failed:\n${install.stdout}${install.stderr}`);
  return dir;
}

const node = (dir, script) => spawnSync(process.execPath, ['-e', script], { cwd: dir, env, encoding: 'utf8' });
const npx = (dir, ...args) => spawnSync('npx', ['--offline', 'authbridge', ...args], { cwd: dir, env, encoding: 'utf8' });

test('the platform package: its package.json says which machines npm installs it on', { skip }, () => {
  const list = spawnSync('tar', ['-xzOf', tarballs.platform, 'package/package.json'], { encoding: 'utf8' });
  const manifest = JSON.parse(list.stdout);
  assert.equal(manifest.name, platformPackage());
  assert.equal(manifest.version, version);
  assert.deepEqual([manifest.os, manifest.cpu], [[process.platform], [process.arch]]);
  const files = spawnSync('tar', ['-tzvf', tarballs.platform], { encoding: 'utf8' }).stdout;
  assert.match(files, /^-rwxr-xr-x .* package\/bin\/authbridge$/m);
  const main = JSON.parse(spawnSync('tar', ['-xzOf', tarballs.main, 'package/package.json'], { encoding: 'utf8' }).stdout);
  assert.deepEqual(main.optionalDependencies, Object.fromEntries(PLATFORMS.map((p) => [`@authbridge/client-${p}`, version])));
});

test('installed together, spawnBridge() and npx authbridge run the platform package\'s binary', { skip }, () => {
  const dir = app('both', [tarballs.main, tarballs.platform]);
  const packaged = join(dir, 'node_modules', '@authbridge', `client-${platform}`, 'bin', 'authbridge');

  const spawned = node(dir, `
    const { spawnBridge, findBinary } = require('@authbridge/client');
    spawnBridge().then(async (bridge) => {
      let exe = null;
      try { exe = require('node:fs').readlinkSync('/proc/' + bridge.pid + '/exe'); } catch {}
      console.log(JSON.stringify({ found: findBinary(), exe, version: bridge.hello.daemonVersion }));
      await bridge.close();
    }, (error) => { console.error(error.message); process.exit(1); });`);
  assert.equal(spawned.status, 0, spawned.stderr);
  const seen = JSON.parse(spawned.stdout);
  assert.equal(seen.found, packaged);
  if (process.platform === 'linux') assert.equal(seen.exe, packaged);
  assert.equal(seen.version, version);

  const run = npx(dir, '--version');
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, spawnSync(binary, ['--version'], { encoding: 'utf8' }).stderr);
});

test('installed without the platform package, spawnBridge() and npx authbridge say what to install', { skip }, () => {
  const dir = app('main-only', [tarballs.main]);
  const wanted = `install @authbridge/client-${platform} beside @authbridge/client`;

  const spawned = node(dir, `require('@authbridge/client').spawnBridge().then(() => process.exit(3), (e) => console.log(e.message))`);
  assert.equal(spawned.status, 0, spawned.stderr);
  assert.ok(spawned.stdout.startsWith(`authbridge binary not found: ${wanted}`), spawned.stdout);

  const run = npx(dir, '--version');
  assert.equal(run.status, 127);
  assert.ok(run.stderr.startsWith(`authbridge: no daemon binary found: ${wanted}`), run.stderr);
});

test('pack.mjs refuses a binary under another platform\'s name', { skip: !existsSync(binary) || !PLATFORMS.includes(platform) }, () => {
  const other = PLATFORMS.find((p) => p !== platform);
  const run = spawnSync(process.execPath, [join(here, 'pack.mjs'), '--out', tmpdir(), '--no-main', '--binary', binary, '--platform', other],
    { encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.equal(run.stderr, `pack.mjs: --binary ${binary} is a ${platform} executable, not ${other}\n`);
});

test('on a machine no package is built for, the hint says so and how to get a binary', () => {
  assert.equal(platformPackage('linux', 'arm64'), '@authbridge/client-linux-arm64');
  assert.match(binaryNotFoundHint('linux', 'arm64'), /^install @authbridge\/client-linux-arm64 beside @authbridge\/client/);
  assert.match(binaryNotFoundHint('win32', 'x64'),
    /^no @authbridge\/client binary package is built for win32-x64 \(only linux-x64, linux-arm64, darwin-arm64, darwin-x64\): build authbridge from source, then set AUTHBRIDGE_BIN/);
});
