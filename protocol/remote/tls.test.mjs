// Remote mode over real TLS: a Node https server with a certificate from a CA made here by
// `openssl req` (so no system store knows it) fronts a second authbridge's HTTP face. The bridge
// refuses it by default with a message saying what to do, accepts it with --ca-file pointing at
// that CA, and with --insecure (warning on stderr). Skipped, saying so, where openssl is missing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { binary, startDaemon } from '../http/support.mjs';
import { LOGIN, bridgeTo } from './support.mjs';

const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const skip = openssl.status === 0 ? false : 'openssl is not installed: the TLS tests need it to make a CA and a certificate';
if (skip) console.log(`SKIPPED remote TLS tests: ${skip}`);

/** A CA and a certificate it signs for 127.0.0.1, in `dir`. */
function makeCertificates(dir) {
  const run = (...args) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    assert.equal(result.status, 0, `openssl ${args.join(' ')}: ${result.stderr}`);
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=AuthBridge test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1',
    '-extfile', 'san.cnf');
  return { ca: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) };
}

/** https on a free loopback port, each request passed on to `target` (an http origin) as it came. */
async function tlsFront(target, { key, cert }) {
  const server = createServer({ key, cert }, (incoming, outgoing) => {
    const forward = httpRequest(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

let dir;
let tenant;
let front;
let ca;
before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'remote-tls-'));
  const certificates = makeCertificates(dir);
  ca = certificates.ca;
  tenant = await startDaemon([]);
  front = await tlsFront(tenant.origin, certificates);
});
after(() => {
  front?.close();
  tenant?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function logsIn(bridge) {
  await bridge.request('start');
  assert.equal(JSON.parse(await bridge.request('login')).callbacks[0].type, 'NameCallback');
  assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
  assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo');
}

test('a certificate no trusted CA signed is refused by default, saying what to do', { skip }, async () => {
  const bridge = bridgeTo(`${front.origin}/am`);
  try {
    await bridge.request('start');
    await assert.rejects(bridge.request('login'), (error) => {
      assert.match(error.message, /^TLS with 127\.0\.0\.1:\d+ refused \(POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate\): SSL certificate problem: unable to get local issuer certificate; its certificate is not trusted by the system trust store\. For an AM with its own CA, start with --ca-file CA\.pem; for a local AM with a self-signed certificate, --insecure$/);
      return true;
    });
    assert.deepEqual(await bridge.request('daemon.ping'), {}, 'the bridge keeps serving');
  } finally {
    bridge.close();
  }
});

test('--ca-file with the CA that signed it: the whole login over TLS', { skip }, async () => {
  const bridge = bridgeTo(`${front.origin}/am`, ['--ca-file', ca]);
  try {
    await logsIn(bridge);
    assert.doesNotMatch(bridge.stderr, /WARNING/);
  } finally {
    bridge.close();
  }
});

test('--insecure accepts it and warns on stderr at start', { skip }, async () => {
  const bridge = bridgeTo(`${front.origin}/am`, ['--insecure', '--log-level', 'error']);
  try {
    await logsIn(bridge);
    assert.match(bridge.stderr, /WARNING: --insecure: the TLS certificate of 127\.0\.0\.1:\d+ is NOT verified/);
  } finally {
    bridge.close();
  }
});

test('--ca-file that holds no certificate stops the start naming the file', { skip }, async () => {
  const bogus = join(dir, 'not-a-ca.pem');
  writeFileSync(bogus, 'hello\n');
  const run = spawnSync(binary, ['--server', `${front.origin}/am`, '--realm', 'alpha', '--client-id', 'c',
    '--redirect-uri', 'org.example.app:/cb', '--ca-file', bogus], { input: '', encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, new RegExp(`--ca-file ${bogus} is not a readable file of PEM certificates`));
});
