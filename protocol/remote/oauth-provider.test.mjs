// Optional: remote mode's OAuth half against an independent provider, django-oauth-toolkit (DOT)
// from PyPI, installed by this test into a temporary venv (nothing cached in the repo; about 30 s
// of pip on a warm network). Where python3, pip, PyPI or openssl is missing every test is skipped,
// saying why. The site (dot_site.py) serves DOT's own views at AM's OAuth paths; the journey and
// session endpoints, which no OAuth provider has, are a small stand-in that logs the Django user
// in (docs/remote.md says what is checked here and what cannot be).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { CLIENT_ID, REDIRECT_URI } from '../http/support.mjs';
import { LOGIN, bridgeWith, freePort } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'dot-'));
const python = join(dir, 'venv', 'bin', 'python');
let provider;
let port;

/** Runs a command to its end, or fails after `seconds` (a slow PyPI must not hang the suite). */
function run(command, args, seconds) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: seconds * 1000, killSignal: 'SIGKILL', cwd: dir }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.slice(0, 3).join(' ')}: ${error.killed ? `no end within ${seconds} s` : (stderr || error.message).trim().split('\n').pop()}`));
      else resolve(stdout);
    });
  });
}

/** Installs DOT, sets the site up and starts it; resolves with why not, or null. */
async function startProvider() {
  // The one test that downloads: AUTHBRIDGE_OFFLINE=1 skips it (README.md says so).
  if (process.env.AUTHBRIDGE_OFFLINE === '1') return 'AUTHBRIDGE_OFFLINE=1: nothing is downloaded, so django-oauth-toolkit is not installed';
  const started = Date.now();
  try {
    await run('python3', ['-m', 'venv', join(dir, 'venv')], 60);
    await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '--timeout', '15', '--retries', '2', 'django-oauth-toolkit'], 240);
  } catch (error) {
    return `django-oauth-toolkit could not be installed from PyPI (${error.message})`;
  }
  try {
    await run('openssl', ['genrsa', '-out', join(dir, 'rsa.pem'), '2048'], 30);
  } catch (error) {
    return `no RSA key for DOT's id tokens: openssl failed (${error.message})`;
  }
  await run(python, [join(here, 'dot_site.py'), 'setup', dir], 60);
  port = await freePort();
  provider = spawn(python, [join(here, 'dot_site.py'), 'serve', dir, String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  provider.stderr.on('data', (chunk) => { log += chunk; });
  for (const deadline = Date.now() + 20_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/o/.well-known/openid-configuration`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`the DOT site did not start: ${log}`);
  }
  process.stderr.write(`oauth-provider.test: django-oauth-toolkit installed and serving in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return null;
}

const skip = (await startProvider()) ?? false;
if (skip) process.stderr.write(`oauth-provider.test: SKIPPED: ${skip}\n`);
after(() => {
  provider?.kill();
  rmSync(dir, { recursive: true, force: true });
});

function bridge(extra = []) {
  const options = join(dir, 'froptions.json');
  writeFileSync(options, JSON.stringify({
    url: `http://127.0.0.1:${port}/am`, realm: 'alpha', cookieName: 'sessionid', oauthClientId: CLIENT_ID,
    oauthRedirectUri: REDIRECT_URI, oauthScope: 'openid profile email',
  }));
  return bridgeWith(['--config', options, '--clock', 'virtual', ...extra]);
}

test('DOT: authorize with PKCE (the 302 read), code exchange, userinfo, refresh, revoke on logout', { skip }, async () => {
  const client = bridge();
  try {
    await client.request('start');
    await client.request('login');
    const success = await client.request('next', [LOGIN]);
    assert.equal(success.type, 'LoginSuccess');
    const first = JSON.parse(await client.request('getAccessToken'));
    assert.equal(first.tokenType, 'Bearer');
    assert.ok(first.refreshToken, 'DOT issued a refresh token');
    assert.equal(first.idToken.split('.').length, 3, 'DOT issued an id token (RS256, OIDC enabled)');
    assert.deepEqual(await client.request('getUserInfo'), { sub: '1' }, 'DOT\'s userinfo for the demo user');

    // Past the access token's hour on the bridge's clock: it refreshes at DOT, which rotates both tokens.
    await client.request('emulator.advanceClock', { seconds: 3590 });
    const second = JSON.parse(await client.request('getAccessToken'));
    assert.notEqual(second.value, first.value);
    assert.notEqual(second.refreshToken, first.refreshToken);
    const userinfo = (token) => fetch(`http://127.0.0.1:${port}/o/userinfo/`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal((await userinfo(first.value)).status, 401, 'DOT revoked the old access token at the refresh');
    assert.equal((await userinfo(second.value)).status, 200);

    await client.request('logout');
    assert.equal((await userinfo(second.value)).status, 401, 'logout revoked the tokens at DOT');
    await assert.rejects(client.request('getAccessToken'));
  } finally {
    client.close();
  }
});

test('DOT\'s own discovery document has no revocation_endpoint: the start stops naming it, as the SDK would', { skip }, async () => {
  const url = `http://127.0.0.1:${port}/o/.well-known/openid-configuration`;
  const child = bridge(['--discovery', url]);
  const { code } = await child.exited;
  assert.equal(code, 2);
  assert.match(child.stderr, new RegExp(`the discovery document ${url.replaceAll('.', '\\.')} has no revocation_endpoint`));
});
