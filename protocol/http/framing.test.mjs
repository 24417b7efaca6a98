// How the HTTP face reads a request's framing and how long it waits for one, end to end: a
// request that once killed the daemon, framings a proxy could read otherwise (RFC 9112, strictly),
// and a client that trickles its head in, all against the daemon with both faces.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startDaemon } from './support.mjs';

let daemon;
before(async () => { daemon = await startDaemon(['--http-request-timeout', '0.3']); });
after(() => daemon.close());

/** Writes `text` on a new connection; resolves with everything read until the server closes. */
function exchange(text) {
  const url = new URL(daemon.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk; });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

const AUTHENTICATE = 'POST /am/json/realms/root/realms/alpha/authenticate HTTP/1.1\r\nHost: x\r\n';

async function bothFacesServe() {
  assert.equal((await fetch(`${daemon.json}/serverinfo/*`)).status, 200);
  assert.deepEqual(await daemon.connection.request('daemon.ping'), {});
}

test('a chunk size of -1 is 400, and the daemon serves both faces after it', async () => {
  const answer = await exchange(`${AUTHENTICATE}Transfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n0\r\n\r\n`);
  assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  await bothFacesServe();
});

test('framings two parsers could read differently are 400', async () => {
  const chunked = (body) => `${AUTHENTICATE}Transfer-Encoding: chunked\r\n\r\n${body}`;
  for (const request of [
    chunked('+2\r\n{}\r\n0\r\n\r\n'),
    chunked('-0\r\n\r\n'),
    chunked(`2 2\r\n${'x'.repeat(34)}\r\n0\r\n\r\n`),
    `${AUTHENTICATE}Content-Length:\r\n\r\n`,
    `${AUTHENTICATE}Content-Length: 2, 3\r\n\r\n{}`,
    `${AUTHENTICATE}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ]) {
    assert.match(await exchange(request), /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(request));
  }
  await bothFacesServe();
});

test('a head still incomplete at --http-request-timeout is answered 408 and closed', async () => {
  // Half a head, then nothing: the idle limit (30 s) is far off; the request's deadline is not.
  const answer = await exchange(`${AUTHENTICATE}Content-Type: appl`);
  assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(answer, /\r\nConnection: close\r\n/);
  await bothFacesServe();
});
