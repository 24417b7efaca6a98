// The Node client's typed emulator helpers for users, sessions, failures and the emulated phone,
// each over stdio as a test calls them (no raw `request('emulator.…')`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnBridge } from './index.mjs';

const fill = (step, values) => JSON.stringify({
  ...step,
  callbacks: step.callbacks.map((cb) => ({
    ...cb,
    input: cb.input.map((i) => (i.name in values ? { ...i, value: values[i.name] } : i)),
  })),
});
const signIn = async (bridge, username, password) =>
  bridge.next(fill(JSON.parse(await bridge.login()), { IDToken1: username, IDToken2: password }));

test('addUser makes a user who signs in; revokeSession ends their session', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    const added = await bridge.emulator.addUser({ username: 'grace', password: 'Hopper-1906', email: 'grace@example.com' });
    assert.equal(added.username, 'grace');
    assert.equal(typeof added.id, 'string');
    assert.equal((await signIn(bridge, 'grace', 'Hopper-1906')).type, 'LoginSuccess');
    const ended = await bridge.emulator.revokeSession('grace');
    assert.equal(ended.sessionsEnded, 1);
    assert.equal(typeof ended.grantsRevoked, 'number');
  } finally {
    await bridge.close();
  }
});

test('lastFailure names a journey whose time ran out before its step was answered', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    const late = JSON.parse(await bridge.login());
    await bridge.emulator.advanceClock(24 * 3600);
    await assert.rejects(bridge.next(fill(late, { IDToken1: 'demo', IDToken2: 'Ch4ng3it!' })));
    let failure = await bridge.emulator.lastFailure();
    assert.equal(failure.journey, 'Login');
    assert.equal(failure.reason.code, 'session_timed_out');
    assert.equal(failure.node, null);

    assert.equal(failure.reason.node.id, 'credentials', 'the node whose step waited');
  } finally {
    await bridge.close();
  }
});

test('the phone helpers: a cloned phone holds copies, a reset one holds nothing, push and passkeys start empty', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    const uri = 'otpauth://totp/ForgeRock:demo?secret=JBSWY3DPEHPK3PXP&period=30&digits=6';
    const scanned = await bridge.emulator.scanOath({ username: 'demo', uri });
    const clone = await bridge.emulator.cloneDevice({ username: 'demo' });
    assert.equal(clone.owner, 'demo');
    assert.notEqual(clone.id, 'demo');
    assert.deepEqual(clone.oath.map((c) => c.id), [scanned.id]);
    const first = await bridge.emulator.oathCode({ username: 'demo' });
    const copy = await bridge.emulator.oathCode({ phone: clone.id });
    assert.equal(copy.code, first.code, 'the copy shows the same code');

    const wiped = await bridge.emulator.resetDevice({ phone: clone.id });
    assert.deepEqual(wiped.oath, []);
    await assert.rejects(bridge.emulator.oathCode({ phone: clone.id }), (error) => error.code === -32602);
    const { phones } = await bridge.emulator.devices('demo');
    assert.deepEqual(phones.map((p) => p.id), ['demo', clone.id]);

    assert.deepEqual((await bridge.emulator.pushNotifications({ username: 'demo' })).notifications, []);
    assert.equal(await bridge.emulator.lastPushNotification(), null);
    await assert.rejects(bridge.emulator.approvePush({ username: 'demo' }), (error) => error.code === -32602);
    await assert.rejects(bridge.emulator.denyPush({ username: 'demo' }), (error) => error.code === -32602);
    await assert.rejects(bridge.emulator.expirePush({ username: 'demo' }), (error) => error.code === -32602);
    assert.deepEqual((await bridge.emulator.passkeys({ username: 'demo' })).passkeys, []);
    assert.deepEqual((await bridge.emulator.bindingKeys({ username: 'demo' })).keys, []);
  } finally {
    await bridge.close();
  }
});
