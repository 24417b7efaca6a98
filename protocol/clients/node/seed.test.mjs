// Seed data in, state out through the Node client (docs/seed.md): an exported state imported into
// a fresh daemon answers the same users, devices and sessions; a bad document is refused by JSON
// path with nothing loaded; reset returns to the start state; `authbridge export --state-dir`
// writes what emulator.export answers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';

const exports = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa', import.meta.url));
const binary = process.env.AUTHBRIDGE_BIN ?? fileURLToPath(new URL('../../../.build/debug/authbridge', import.meta.url));
const OATH_JOURNEY = ['--journeys', exports, '--auth-service', 'oath_registration', '--callbacks', 'complete'];

/** RFC 6238 with SHA-1 and 6 digits, from the secret's bytes: computed here, independently of the daemon. */
function totp(secret, unixSeconds) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function signInWithPassword(FRAuthSampleBridge) {
  const page = JSON.parse(await FRAuthSampleBridge.login());
  page.callbacks[0].input[0].value = 'demo';
  page.callbacks[1].input[0].value = 'Ch4ng3it!';
  return JSON.parse(await FRAuthSampleBridge.next(JSON.stringify(page)));
}

test('an exported state imported into a fresh daemon answers the same users, devices and sessions', async () => {
  const first = await spawnBridge({ seed: 7, clock: 'virtual', args: OATH_JOURNEY });
  let exported;
  try {
    const { FRAuthSampleBridge } = first.nativeModules();
    await FRAuthSampleBridge.start();
    // Registration: the phone scans the QR code, then its code signs in (the session the export carries).
    const registration = await signInWithPassword(FRAuthSampleBridge);
    const uri = registration.callbacks.find((c) => c.type === 'HiddenValueCallback').output.find((o) => o.name === 'value').value;
    await first.emulator.scanOath({ username: 'demo', uri });
    const verifier = JSON.parse(await FRAuthSampleBridge.next(JSON.stringify(registration)));
    verifier.callbacks[0].input[0].value = (await first.emulator.oathCode({ username: 'demo' })).code;
    assert.equal((await FRAuthSampleBridge.next(JSON.stringify(verifier))).type, 'LoginSuccess');
    exported = await first.emulator.export();
  } finally {
    await first.close();
  }
  const demo = exported.users.find((u) => u.username === 'demo');
  assert.equal(demo.devices.oath.length, 1);
  assert.equal(exported.sessions.length, 1);

  const second = await spawnBridge({ seed: 99, clock: 'virtual', args: [...OATH_JOURNEY, '--http', '127.0.0.1:0'] });
  try {
    assert.deepEqual(await second.emulator.import(exported), { users: 1, sessions: 1, clients: 1 });
    // The same export back: users, devices and sessions as they were.
    assert.deepEqual(await second.emulator.export(), exported);
    // The device is listed on the profile, as AM's device endpoint lists it.
    const { registered } = await second.emulator.devices('demo');
    assert.deepEqual(registered.oath.map((d) => d._id), demo.devices.oath.map((d) => d.uuid));
    // The session validates over AM's REST API.
    const validate = await fetch(`${second.hello.http.baseUrl}json/realms/root/realms/alpha/sessions?_action=validate`, {
      method: 'POST', headers: { iPlanetDirectoryPro: exported.sessions[0].token, 'Accept-API-Version': 'resource=2.1, protocol=1.0' },
    });
    assert.equal((await validate.json()).valid, true);
    // The password and the device sign in: a code computed here from the exported secret (a later
    // time step than the first daemon's last login, which the device refuses to see again).
    const { FRAuthSampleBridge } = second.nativeModules();
    await FRAuthSampleBridge.start();
    const { now } = await second.emulator.advanceClock(30);
    const step = await signInWithPassword(FRAuthSampleBridge);
    assert.deepEqual(step.callbacks.map((c) => c.type), ['NameCallback', 'ConfirmationCallback']);
    step.callbacks[0].input[0].value = totp(Buffer.from(demo.devices.oath[0].sharedSecret, 'base64url'), now);
    assert.equal((await FRAuthSampleBridge.next(JSON.stringify(step))).type, 'LoginSuccess');
  } finally {
    await second.close();
  }
});

test('a bad document is refused by JSON path and nothing of it is loaded', async () => {
  const bridge = await spawnBridge({ seed: 1, clock: 'virtual' });
  try {
    const bad = [
      [{ version: 1, users: [{ username: 'ada', password: 'a' }, { username: 'Ada', password: 'b' }] }, 'users[1].username'],
      [{ version: 1, users: [{ username: 'ada', password: 'a', role: 'admin' }] }, 'users[0].role'],
      [{ version: 1, users: [{ username: 'ada', passwordHash: { algorithm: 'SHA1', iterations: 1000, salt: 'AAAA', hash: 'AAAA' } }] },
        'users[0].passwordHash.algorithm'],
      [{ version: 1, users: [{ username: 'ada', password: 'a' }], sessions: [{ token: 't', username: 'ada', authTime: '2026-01-01' }] },
        'sessions[0].authTime'],
      [{ version: 1, users: [{ username: 'ada', password: 'a' }], sessions: [{ token: 't', username: 'nobody' }] }, 'sessions[0].username'],
    ];
    for (const [document, path] of bad) {
      await assert.rejects(bridge.emulator.import(document), (error) => {
        assert.equal(error.code, -32602);
        assert.equal(error.data.path, path);
        assert.equal(error.data.param, 'document');
        return true;
      });
    }
    assert.deepEqual((await bridge.emulator.export()).users.map((u) => u.username), ['demo']);
  } finally {
    await bridge.close();
  }
});

test('a file by path; reset goes back to the start state, --import and --state-dir included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'seed-'));
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify({ version: 1, users: [{ username: 'ada', password: 'An4lytical!' }] }));
  const later = join(dir, 'later.json');
  writeFileSync(later, JSON.stringify({ version: 1, users: [{ username: 'grace', password: 'C0bol!' }] }));
  try {
    const bridge = await spawnBridge({ seed: 2, clock: 'virtual', stateDir: join(dir, 'state'), args: ['--import', seedFile] });
    let live;
    try {
      assert.deepEqual(await bridge.emulator.import({ path: later }), { users: 1, sessions: 0, clients: 0 });
      await assert.rejects(bridge.emulator.import({ path: join(dir, 'missing.json') }), (error) => error.data.param === 'path');
      assert.deepEqual((await bridge.emulator.export()).users.map((u) => u.username), ['ada', 'demo', 'grace']);
      assert.deepEqual(await bridge.emulator.reset(), { reset: true });
      live = await bridge.emulator.export();
      assert.deepEqual(live.users.map((u) => u.username), ['ada', 'demo']);
    } finally {
      await bridge.close();
    }
    // The same document from the state directory, without a daemon.
    const cli = spawnSync(binary, ['export', '--state-dir', join(dir, 'state')], { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), live);
    const missing = spawnSync(binary, ['export', '--state-dir', join(dir, 'nothing')], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no state directory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--import with a bad file stops the start, naming the file and the path at fault', () => {
  const dir = mkdtempSync(join(tmpdir(), 'seed-bad-'));
  try {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ version: 1, users: [{ username: 'ada', password: 'a', lock: { until: 'soon' } }] }));
    const run = spawnSync(binary, ['--import', file], { input: '', encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, new RegExp(`--import ${file} refused: users\\[0\\]\\.lock\\.until: not a date`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
