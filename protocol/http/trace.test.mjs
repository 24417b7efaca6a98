// The HTTP face's log lines (info, and so every `--log-level trace` run) name the method, the path
// and the status, never a query, a header or a body: a password sent over HTTP, well formed or
// not, never reaches stderr.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { CookieJar, loginOverHTTP, startDaemon } from './support.mjs';

const SECRET = 'Htt9-Pa55word';

function raw(origin, bytes) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (t) => { answer += t; });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

test('with --log-level trace, no HTTP request shows its password on stderr', async () => {
  const daemon = await startDaemon(['--log-level', 'trace']);
  try {
    const jar = new CookieJar();
    const failed = await loginOverHTTP(daemon, jar, { username: 'demo', password: SECRET });
    assert.equal(failed.status, 401);
    const query = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login&password=${SECRET}&IDToken2=${SECRET}`;
    await fetch(query, { method: 'POST', headers: { 'X-OpenAM-Password': SECRET, 'X-OpenAM-Username': 'demo' } });
    const body = `{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"${SECRET}\\q"}]}]}`;
    await fetch(`${daemon.json}/authenticate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const head = `POST /am/json/realms/root/realms/alpha/authenticate?password=${SECRET} HTTP/1.1\r\nHost: x\r\nX-Password: ${SECRET}\r\n`;
    await raw(daemon.origin, `${head}Content-Length: 2\r\n\r\n${SECRET}`);
    await raw(daemon.origin, `${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n${SECRET}\r\n0\r\n\r\n`);
    // A request the daemon answered after all of these: their log lines are written.
    await daemon.connection.request('daemon.ping');
    assert.match(daemon.connection.stderr, /HTTP POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate 401/);
    assert.equal(daemon.connection.stderr.includes(SECRET), false, 'stderr shows the password');
  } finally {
    daemon.close();
  }
});
