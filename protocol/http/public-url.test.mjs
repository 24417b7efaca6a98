// --public-url: the server names itself by the URL its clients use, not by the address the
// listener was bound to, so a daemon on a port picked at random still issues tokens whose `iss`,
// discovery and redirects a golden transcript (or a proxy's client) can rely on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { validate } from '../schema/validate.mjs';
import { CookieJar, binary, loginOverHTTP, startDaemon, tokensOverHTTP } from './support.mjs';

const PUBLIC = 'http://127.0.0.1:8080/am';
const helloSchema = JSON.parse(readFileSync(new URL('../schema/daemon.hello.result.schema.json', import.meta.url)));
const ISSUER = `${PUBLIC}/oauth2/realms/root/realms/alpha`;

test('with --public-url, discovery, the code redirect and the tokens name it, whatever port was bound', async () => {
  const daemon = await startDaemon(['--public-url', `${PUBLIC}/`]);
  try {
    assert.notEqual(daemon.origin, 'http://127.0.0.1:8080', 'the listener is on a port of its own');
    const discovery = await (await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).json();
    assert.equal(discovery.issuer, ISSUER);
    assert.equal(discovery.token_endpoint, `${ISSUER}/access_token`);

    const jar = new CookieJar();
    assert.equal((await loginOverHTTP(daemon, jar)).status, 200);
    const { location, body } = await tokensOverHTTP(daemon, jar);
    assert.equal(location.searchParams.get('iss'), ISSUER);
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url'));
    assert.equal(claims.iss, ISSUER);
    // daemon.hello says where to connect, and what clients are told to use.
    const hello = await daemon.connection.request('daemon.hello');
    assert.deepEqual(hello.http, {
      origin: daemon.origin, baseUrl: `${daemon.origin}/am/`, publicUrl: `${PUBLIC}/`, inspector: `${daemon.origin}/inspector/`,
    });
    assert.deepEqual(validate(helloSchema, hello), []);
  } finally {
    daemon.close();
  }
});

test('a malformed --public-url, or one without --http, stops the start with what to write instead', () => {
  const cases = [
    [['--http', '0', '--public-url', 'localhost:8080/am'], /--public-url needs http\(s\):\/\/HOST\[:PORT\]\/am.*no http:\/\/ or https:\/\//],
    [['--http', '0', '--public-url', 'http://127.0.0.1:70000/am'], /the port is a number from 1 to 65535, got 70000/],
    [['--http', '0', '--public-url', 'http://127.0.0.1:8080/openam'], /the path is \/am or nothing/],
    [['--http', '0', '--public-url', 'http://127.0.0.1:8080/am?x=1'], /no query or fragment/],
    [['--public-url', PUBLIC], /--public-url names where the HTTP face is reached: it needs --http/],
  ];
  for (const [args, message] of cases) {
    const run = spawnSync(binary, args, { input: '', encoding: 'utf8' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
});
