// Remote mode against a hostile tenant: a Node http server that answers the journey with a huge
// body (announced, and chunked without a length), drips its answer a byte at a time, or sets
// thousands of cookies. The bridge keeps its memory bounded (its peak resident set, VmHWM in
// /proc/PID/status, stays far below what it was sent), fails the call as a transport error that
// names the limit, is cut at --timeout, sends back a jar bounded as a browser's, and answers
// the next call normally.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { bridgeTo } from './support.mjs';

const STEP = JSON.stringify({
  authId: 'hostile',
  callbacks: [{ type: 'NameCallback', output: [{ name: 'prompt', value: 'User Name' }], input: [{ name: 'IDToken1', value: '' }] }],
  stage: '', header: '', description: '',
});
const MiB = 1024 * 1024;
const SENT = 512 * MiB;
// The bridge's peak resident set may not pass this: its own few tens of MiB, the 4 MiB reply
// limit, room for a debug build, and nowhere near the 512 MiB it is sent.
const PEAK_BOUND = 192 * MiB;

let mode = 'step';
const cookieHeaders = [];
const sockets = new Set();
const server = createServer((request, response) => {
  request.resume();
  if (!request.url.includes('/authenticate')) {
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"code":404}');
    return;
  }
  cookieHeaders.push(request.headers.cookie ?? '');
  switch (mode) {
    case 'announced':
    case 'chunked': {
      const headers = { 'Content-Type': 'application/json' };
      if (mode === 'announced') headers['Content-Length'] = String(SENT);
      response.writeHead(200, headers);
      // `{"a":"xxx…` for ever: one MiB at a time, as fast as the bridge reads, until it hangs up.
      const chunk = Buffer.alloc(MiB, 'x');
      let written = 0;
      const pump = () => {
        while (written < SENT && !response.destroyed) {
          const piece = written === 0 ? Buffer.concat([Buffer.from('{"a":"'), chunk.subarray(6)]) : chunk;
          written += piece.length;
          if (!response.write(piece)) { response.once('drain', pump); return; }
        }
        if (written >= SENT && !response.destroyed) response.end();
      };
      response.on('error', () => {});
      pump();
      return;
    }
    case 'drip': {
      // Headers at once, then one byte of the body every 50 ms: never idle, never done.
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
      response.write('{');
      const timer = setInterval(() => { if (!response.destroyed) response.write(' '); }, 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case 'cookies': {
      const cookies = Array.from({ length: 3000 }, (_, index) => `flood${index}=${'v'.repeat(20)}; Path=/`);
      cookies.push(`huge=${'h'.repeat(5000)}; Path=/`);
      response.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': cookies }).end(STEP);
      return;
    }
    default:
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(STEP);
  }
});
server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });

let bridge;
before(async () => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  bridge = bridgeTo(`http://127.0.0.1:${server.address().port}/am`, ['--timeout', '2', '--log-level', 'debug']);
  await bridge.request('start');
});
after(() => {
  bridge?.close();
  for (const socket of sockets) socket.destroy();
  server.close();
});

/** The bridge's peak resident set so far, in bytes (`authbridge` execs `authbridge-remote`: one PID). */
function peakResident() {
  const line = readFileSync(`/proc/${bridge.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
  return Number(line.match(/(\d+) kB/)[1]) * 1024;
}

async function loginWorks() {
  mode = 'step';
  const step = JSON.parse(await bridge.request('login'));
  assert.equal(step.callbacks[0].type, 'NameCallback', 'the next call is answered normally');
}

for (const shape of ['announced', 'chunked']) {
  test(`a 512 MiB reply (${shape === 'announced' ? 'with a Content-Length' : 'chunked, no length'}) fails the call naming the limit; memory stays bounded`, async (t) => {
    if (process.platform !== 'linux') return t.skip('reads /proc/PID/status');
    mode = shape;
    await assert.rejects(bridge.request('login'), (error) => {
      assert.match(error.message,
        /^the reply of the identity server 127\.0\.0\.1:\d+ to POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate exceeded 4194304 bytes and was dropped \(--max-reply-bytes N raises the limit\)$/);
      return true;
    });
    const peak = peakResident();
    t.diagnostic(`peak resident set ${(peak / MiB).toFixed(1)} MiB`);
    assert.ok(peak < PEAK_BOUND, `peak resident set ${(peak / MiB).toFixed(1)} MiB, bound ${PEAK_BOUND / MiB} MiB`);
    await loginWorks();
  });
}

test('a tenant that drips its reply is cut at --timeout', async () => {
  mode = 'drip';
  // No wall-clock assertion: the message names the deadline, and a hang is the runner's to catch.
  await assert.rejects(bridge.request('login'), (error) => {
    assert.match(error.message, /did not answer POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate within 2 s \(timeout\)/);
    return true;
  });
  await loginWorks();
});

test('3,000 cookies and a 5,000-byte one: the jar keeps the newest 50 and the requests stay small', async () => {
  mode = 'cookies';
  await bridge.request('login');
  cookieHeaders.length = 0;
  await loginWorks();
  await loginWorks();
  for (const header of cookieHeaders) {
    const names = header.split('; ').map((pair) => pair.split('=')[0]);
    assert.equal(names.length, 50, 'at most 50 cookies for the tenant');
    assert.ok(names.every((name) => /^flood(29[5-9]\d)$/.test(name)), 'the oldest were evicted, the oversize one dropped');
    assert.ok(header.length < 8192, `Cookie is ${header.length} bytes`);
  }
  // The debug log names what went, never a value.
  assert.match(bridge.stderr, /cookie jar: evicted the oldest cookie flood0 for 127\.0\.0\.1: more than 50 cookies for 127\.0\.0\.1/);
  assert.match(bridge.stderr, /cookie jar: dropped the cookie huge from 127\.0\.0\.1: 5013 bytes, more than 4096/);
  assert.ok(!bridge.stderr.includes('v'.repeat(20)) && !bridge.stderr.includes('h'.repeat(20)), 'no cookie value is logged');
});
