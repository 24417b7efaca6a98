// docs/remote.md's CI recipe, run as written: an app folder with ios/MyApp/FRAuthConfig.plist and a
// test suite that calls spawnBridge() with no daemon options, then `npm test` with the recipe's
// AUTHBRIDGE_ARGS, once as the per-commit job (embedded, seeded, virtual clock) and once as the
// nightly job (remote mode against a "tenant": a second authbridge's HTTP face). The suite prints
// which server it talked to; a client that ignored AUTHBRIDGE_ARGS would test the embedded server
// both times, which is what this test exists to catch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { CLIENT_ID, DEMO, REDIRECT_URI, binary, startDaemon } from '../http/support.mjs';
import { freePort } from './support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const client = join(root, 'protocol', 'clients', 'node', 'index.cjs');
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0 ? 'npm' : null;
const noNpm = 'npm not installed: the recipe runs `npm test`; not run';
if (!npm) process.stderr.write(`\nNOTE: ${noNpm}\n\n`);

/** The recipe's two jobs: the AUTHBRIDGE_ARGS each passes, read from the doc itself. */
function recipe() {
  const doc = readFileSync(join(root, 'docs', 'remote.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## CI recipe'));
  const yaml = section.slice(section.indexOf('```yaml'), section.indexOf('```', section.indexOf('```yaml') + 3));
  const perCommit = yaml.match(/run: AUTHBRIDGE_ARGS="([^"]*)" npm test/);
  const nightly = yaml.match(/\n\s+AUTHBRIDGE_ARGS: (.*)\n/);
  assert.ok(perCommit && nightly, `the recipe in docs/remote.md no longer has its two AUTHBRIDGE_ARGS jobs:\n${yaml}`);
  return { perCommit: perCommit[1], nightly: nightly[1].trim() };
}

// What an app's suite does: no daemon options of its own, the demo user from the environment.
const SUITE = `
const { spawnBridge } = require(${JSON.stringify(client)});
(async () => {
  const bridge = await spawnBridge();
  try {
    await bridge.start();
    const step = JSON.parse(await bridge.login());
    step.callbacks[0].input[0].value = process.env.TEST_USERNAME ?? 'demo';
    step.callbacks[1].input[0].value = process.env.TEST_PASSWORD ?? 'Ch4ng3it!';
    const done = await bridge.next(JSON.stringify(step));
    const { server } = bridge.hello;
    console.log(JSON.stringify({ type: done.type, server: server.kind, url: server.url ?? null,
      user: (await bridge.getUserInfo()).preferred_username, now: (await bridge.request('emulator.state')).now }));
    await bridge.logout();
  } finally {
    await bridge.close();
  }
})().catch((error) => { console.error(error); process.exit(1); });
`;

let port;
let tenant;
let app;
before(async () => {
  port = await freePort();
  tenant = await startDaemon(['--http', `127.0.0.1:${port}`]);
  app = mkdtempSync(join(tmpdir(), 'authbridge-ci-recipe-'));
  mkdirSync(join(app, 'ios', 'MyApp'), { recursive: true });
  const entries = {
    forgerock_url: `http://127.0.0.1:${port}/am`, forgerock_realm: 'alpha', forgerock_oauth_client_id: CLIENT_ID,
    forgerock_oauth_redirect_uri: REDIRECT_URI, forgerock_oauth_scope: 'openid profile email',
  };
  writeFileSync(join(app, 'ios', 'MyApp', 'FRAuthConfig.plist'), '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
    + Object.entries(entries).map(([key, value]) => `  <key>${key}</key><string>${value}</string>\n`).join('') + '</dict>\n</plist>\n');
  writeFileSync(join(app, 'suite.js'), SUITE);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { test: 'node suite.js' } }));
});
after(() => { tenant?.close(); if (app) rmSync(app, { recursive: true, force: true }); });

function npmTest(env) {
  const run = spawnSync(npm, ['test', '--silent'], {
    cwd: app, encoding: 'utf8', timeout: 60_000,
    env: { ...process.env, AUTHBRIDGE_BIN: binary, npm_config_offline: 'true', npm_config_update_notifier: 'false', ...env },
  });
  assert.equal(run.status, 0, `npm test failed:\n${run.stdout}\n${run.stderr}`);
  return { result: JSON.parse(run.stdout.trim().split('\n').pop()), stderr: run.stderr };
}

test('the per-commit job: the embedded server, seeded, on the virtual clock', { skip: npm ? false : noNpm }, () => {
  const { perCommit } = recipe();
  const { result, stderr } = npmTest({ AUTHBRIDGE_ARGS: perCommit });
  assert.deepEqual(result, { type: 'LoginSuccess', server: 'embedded', url: null, user: 'demo', now: 1767225600 });
  assert.match(stderr, new RegExp(`authbridge: started \\S+ --seed 1 --clock virtual \\(AUTHBRIDGE_ARGS added ${perCommit}\\): server embedded`));
});

test('the nightly job: remote mode against the tenant the app config names', { skip: npm ? false : noNpm }, () => {
  const { nightly } = recipe();
  const { result, stderr } = npmTest({ AUTHBRIDGE_ARGS: nightly, TEST_USERNAME: DEMO.username, TEST_PASSWORD: DEMO.password });
  assert.equal(result.type, 'LoginSuccess');
  assert.equal(result.server, 'remote');
  assert.equal(result.url, `http://127.0.0.1:${port}/am`);
  assert.equal(result.user, 'demo');
  assert.ok(stderr.includes(`(AUTHBRIDGE_ARGS added ${nightly}): server remote http://127.0.0.1:${port}/am`), stderr);
  assert.ok(!stderr.includes(DEMO.password), 'the password is never printed');
});

test('AUTHBRIDGE_ARGS with a quoted path, and one that does not parse', { skip: npm ? false : noNpm }, () => {
  mkdirSync(join(app, 'ios', 'My App'), { recursive: true });
  writeFileSync(join(app, 'ios', 'My App', 'FRAuthConfig.plist'), readFileSync(join(app, 'ios', 'MyApp', 'FRAuthConfig.plist')));
  const quoted = npmTest({ AUTHBRIDGE_ARGS: `--config 'ios/My App/FRAuthConfig.plist' --timeout 30` });
  assert.equal(quoted.result.server, 'remote');
  const run = spawnSync(npm, ['test', '--silent'], { cwd: app, encoding: 'utf8', env: { ...process.env, AUTHBRIDGE_BIN: binary, AUTHBRIDGE_ARGS: '--config "ios/MyApp' } });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /AUTHBRIDGE_ARGS has an unterminated " quote/);
});
