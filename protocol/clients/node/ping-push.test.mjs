// RNPingPush driven as @ping-identity/rn-push's JS drives it (push/src/push.ts createPushClient):
// initialize, the token (Android's refreshToken, or setDeviceToken), a DeviceEventEmitter listener on
// com.pingidentity.rnpush.PushMessageReceived that hands the message data to processNotification,
// then approve or deny. The journey is Frodo's push_registration export through RNPingJourney: the
// first run registers the app's phone (addCredentialFromUri with the step's pushauth:// URI), the
// second is a push sign-in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';

const exports = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa', import.meta.url));
const MESSAGE = 'com.pingidentity.rnpush.PushMessageReceived';
const demo = { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] };

/** What createPushClient sets up: the client, its token, and the notifications its listener processed. */
async function pushClient(bridge, ios) {
  const push = bridge.turboModuleRegistry().get('RNPingPush');
  const clientId = await push.initialize({});
  if (ios) await push.setDeviceToken(clientId, 'apns-token-from-the-app-delegate', null);
  else assert.match((await push.refreshToken(clientId)).token, /^[0-9a-f]{64}$/);
  const received = [];
  let arrived = () => {};
  bridge.DeviceEventEmitter.addListener(MESSAGE, async (data) => {
    const { notification } = await push.processNotification(clientId, data);
    received.push(notification);
    arrived();
  });
  const next = () => new Promise((resolve) => { arrived = () => resolve(received.at(-1)); });
  return { push, clientId, next };
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: a push registration, then a sign-in approved and one denied from the SDK's JS`, async () => {
    const bridge = await spawnBridge({ flavor, seed: 3, clock: 'virtual', args: ['--journeys', exports] });
    try {
      const { push, clientId, next } = await pushClient(bridge, flavor === 'rn-ios');
      const { RNPingJourney } = bridge.pingModules();
      const journey = await RNPingJourney.configureJourney({ serverUrl: 'http://localhost:8080/am' });
      await RNPingJourney.start(journey, 'push_registration');
      const qr = await RNPingJourney.next(journey, '', demo);
      const hidden = qr.callbacks.find((c) => c.type === 'HiddenValueCallback');
      const uri = hidden.raw.output.find((o) => o.name === 'value').value;
      const credential = await push.addCredentialFromUri(clientId, uri);
      assert.equal(credential.issuer, 'ForgeRock');
      assert.equal(credential.accountName, 'demo');

      // The registration step's poll: AM sees the phone's answer and its Push Sender notifies the app.
      let arriving = next();
      const wait = await RNPingJourney.next(journey, '', {});
      assert.equal(wait.type, 'ContinueNode');
      let notification = await arriving;
      assert.equal(notification.credentialId, credential.id);
      assert.deepEqual((await push.getPendingNotifications(clientId)).notifications.map((n) => n.id), [notification.id]);
      assert.equal(await push.approveNotification(clientId, notification.id), true);
      await bridge.emulator.advanceClock(6);
      assert.equal((await RNPingJourney.next(journey, '', {})).type, 'SuccessNode');

      // A push sign-in: the same journey, the device now registered.
      const signIn = await RNPingJourney.configureJourney({ serverUrl: 'http://localhost:8080/am' });
      await RNPingJourney.start(signIn, 'push_registration', { forceAuth: true });
      arriving = next();
      await RNPingJourney.next(signIn, '', demo);
      notification = await arriving;
      assert.equal(notification.pending, true);
      assert.equal(await push.denyNotification(clientId, notification.id), true);
      await bridge.emulator.advanceClock(6);
      const denied = await RNPingJourney.next(signIn, '', {});
      assert.notEqual(denied.type, 'SuccessNode');
      const all = (await push.getAllNotifications(clientId)).notifications;
      assert.deepEqual(all.map((n) => [n.approved, n.pending]), [[true, false], [false, false]]);
    } finally {
      await bridge.close();
    }
  });
}
