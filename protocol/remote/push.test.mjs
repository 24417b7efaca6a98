// Push in remote mode: the phone reaches the tenant the way a real one does. A bridge with
// --callbacks complete runs the tenant's push_registration journey; its native side scans the
// QR code into the user's emulated phone, whose registration answer RemoteAM forwards to the
// tenant's /push/sns/message; the tenant (a second authbridge) verifies it and saves the device.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { startDaemon } from '../http/support.mjs';
import { bridgeTo } from './support.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'examples', 'am-exports', 'mfa');

let tenant;
before(async () => {
  tenant = await startDaemon(['--clock', 'virtual', '--seed', '3', '--journeys', fixtures]);
});
after(() => tenant?.close());

test('the phone registers with the tenant through its push endpoint', async () => {
  const bridge = bridgeTo(`${tenant.origin}/am`, ['--callbacks', 'complete', '--auth-service', 'push_registration']);
  try {
    await bridge.request('start');
    const page = JSON.parse(await bridge.request('login'));
    page.callbacks[0].input[0].value = 'demo';
    page.callbacks[1].input[0].value = 'Ch4ng3it!';
    const qr = JSON.parse(await bridge.request('next', [JSON.stringify(page)]));
    assert.equal(qr.callbacks[2].output[1].value, 'mfaDeviceRegistration');
    const wait = JSON.parse(await bridge.request('next', [JSON.stringify(qr)]));
    assert.deepEqual(wait.callbacks.map((c) => c.type), ['PollingWaitCallback', 'ConfirmationCallback']);
    const phone = (await bridge.request('emulator.devices', { username: 'demo' })).phones[0];
    assert.equal(phone.push.length, 1, "the bridge's phone holds the registration");
    const onTenant = await tenant.connection.request('emulator.devices', { username: 'demo' });
    assert.equal(onTenant.registered.push.length, 1, 'the tenant saved the device');
    assert.equal(onTenant.phones.length, 0, "the tenant's own phones took no part");
  } finally {
    bridge.close();
  }
});
