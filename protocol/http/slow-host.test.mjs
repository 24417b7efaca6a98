// A stdio host that stops reading stdout does not freeze the HTTP face. The daemon queues what
// goes to stdout and writes it on a thread of its own, so the world is never held while a write
// waits for the host; the stdio requests themselves wait in the pipe, as they always have. The
// old writer blocked inside the Host's unit, and then every HTTP request hung, discovery too.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEMO, binary } from './support.mjs';

const REQUESTS = 3000;

/**
 * Whether a thread of `pid` is blocked writing to a full stdout (Node's 'pipe' is a socket pair on
 * Linux, a pipe elsewhere): from the kernel's wait channel; null where /proc cannot tell.
 */
function blockedOnPipeWrite(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => /pipe_write|pipe_wait|sock_alloc_send|unix_wait/.test(readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8')));
  } catch {
    return null;
  }
}

/** Polls until `predicate` answers (null too: it cannot tell); a hang is the test's timeout. */
async function until(predicate) {
  for (;;) {
    const value = predicate();
    if (value || value === null) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('HTTP discovery is answered while the stdio host does not read; then stdout arrives whole and in order', { timeout: 60_000 }, async () => {
  const child = spawn(binary, ['--http', '127.0.0.1:0', '--seed', '7', '--clock', 'virtual'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (t) => { stderr += t; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const origin = await until(() => stderr.match(/AM over HTTP at (http:\/\/[0-9.]+:[0-9]+)\/am\//)?.[1]);
    // stdout is never read until the end: Node fills its buffer, then the pipe fills, then the
    // daemon's writer blocks. Each requestToken answers with an event ahead of its response.
    const lines = ['{"jsonrpc":"2.0","id":0,"method":"tokenSyncReady"}'];
    for (let id = 1; id <= REQUESTS; id++) {
      lines.push(id % 3 === 0
        ? `{"jsonrpc":"2.0","id":${id},"method":"emulator.requestToken"}`
        : `{"jsonrpc":"2.0","id":${id},"method":"daemon.hello"}`);
    }
    child.stdin.write(lines.join('\n') + '\n');
    // A positive sign that the host's stdout is full: a daemon thread waits in write(2) on the pipe.
    const blocked = await until(() => blockedOnPipeWrite(child.pid));
    if (blocked === null) process.emitWarning('cannot read /proc here: the HTTP request may come before stdout is full');

    const discovery = await fetch(`${origin}/am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    assert.equal((await discovery.json()).issuer.endsWith('/oauth2/realms/root/realms/alpha'), true);
    if (blocked !== null) assert.equal(blockedOnPipeWrite(child.pid), true);

    // Now the host reads again: every response arrives, in order, each event before its response.
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (t) => { stdout += t; });
    await until(() => stdout.includes(`"id":${REQUESTS},`) || stdout.includes(`"id":${REQUESTS}}`));
    child.stdin.end();
    assert.equal(await exited, 0);
    const messages = stdout.trim().split('\n').map((line) => JSON.parse(line));
    const ids = messages.filter((m) => 'id' in m).map((m) => m.id);
    assert.deepEqual(ids, Array.from({ length: REQUESTS + 1 }, (_, i) => i));
    for (const [index, message] of messages.entries()) {
      if (message.id !== undefined && message.id > 0 && message.id % 3 === 0) {
        assert.equal(messages[index - 1].method, 'TOKEN_REQUEST_EVENT', `the event precedes response ${message.id}`);
        assert.equal(messages[index - 1].params.requestId, message.result.requestId);
      }
    }
    assert.equal(messages.filter((m) => m.method === 'TOKEN_REQUEST_EVENT').length, REQUESTS / 3 + 1);
  } finally {
    child.kill('SIGKILL');
  }
});

test('an HTTP request that caused events is answered once the host has read them', { timeout: 60_000 }, async () => {
  const child = spawn(binary, ['--http', '127.0.0.1:0', '--seed', '7', '--clock', 'virtual'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (t) => { stderr += t; });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (t) => { stdout += t; });
  try {
    const origin = await until(() => stderr.match(/AM over HTTP at (http:\/\/[0-9.]+:[0-9]+)\/am\//)?.[1]);
    const json = `${origin}/am/json/realms/root/realms/alpha`;
    const step = JSON.stringify({ callbacks: [
      { type: 'NameCallback', input: [{ name: 'IDToken1', value: DEMO.username }] },
      { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: DEMO.password }] },
    ] });
    child.stdin.write([
      '{"jsonrpc":"2.0","id":0,"method":"tokenSyncReady"}', '{"jsonrpc":"2.0","id":1,"method":"start"}',
      '{"jsonrpc":"2.0","id":2,"method":"login"}',
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'next', params: [step] }), '{"jsonrpc":"2.0","id":4,"method":"getAccessToken"}',
    ].join('\n') + '\n');
    await until(() => stdout.includes('"id":4,'));
    const line = stdout.split('\n').find((l) => l.includes('"id":4,'));
    const { sessionToken } = JSON.parse(JSON.parse(line).result);
    // The host stops reading and keeps writing until the daemon waits on stdout.
    child.stdout.pause();
    const lines = [];
    for (let id = 100; id < 100 + REQUESTS; id++) lines.push(`{"jsonrpc":"2.0","id":${id},"method":"daemon.hello"}`);
    child.stdin.write(lines.join('\n') + '\n');
    const blocked = await until(() => blockedOnPipeWrite(child.pid));
    let resumed = false;
    let answeredBeforeResume;
    const logout = fetch(`${json}/sessions/?_action=logout`, { method: 'POST', headers: { Cookie: `iPlanetDirectoryPro=${sessionToken}` } })
      .then((response) => { answeredBeforeResume = !resumed; return response; });
    // The logout's unit has run once the session no longer validates: its LOGOUT_EVENT is queued.
    const validate = () => fetch(`${json}/sessions?_action=validate`, { method: 'POST', body: JSON.stringify({ tokenId: sessionToken }) }).then((r) => r.json());
    while ((await validate()).valid) { /* the logout's unit has not run yet */ }
    if (blocked !== null) assert.equal(answeredBeforeResume, undefined, 'the logout waits for the host to read');
    resumed = true;
    child.stdout.resume();
    assert.equal((await logout).status, 200);
    assert.equal(answeredBeforeResume, false);
    await until(() => stdout.includes('LOGOUT_EVENT'));
    child.stdin.end();
    await until(() => stdout.includes(`"id":${99 + REQUESTS},`));
  } finally {
    child.kill('SIGKILL');
  }
});
