// A hand-written authenticator app answering AM's push device endpoint over HTTP, as the
// ForgeRock Authenticator does (forgerock-android-sdk forgerock-authenticator PushFactory.java,
// PushResponder.java, util/RequestBuilder.java): it reads the pushauth:// URI of the
// push_registration journey's QR step, answers the registration with an HS256 JWT made with
// plain node:crypto, reads the notification the push sender handed to SNS, and approves it.
// The endpoint's refusals (a wrong signature, alg none, an unknown message, a replay) are
// AM's 400, and nothing is taken.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { startDaemon } from './support.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'examples', 'am-exports', 'mfa');
const JOURNEY = 'push_registration';
const STEP_HEADERS = { 'Content-Type': 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1' };
const BAD_REQUEST = { code: 400, reason: 'Bad Request', message: 'Bad Request' };

let daemon;
before(async () => { daemon = await startDaemon(['--seed', '7', '--clock', 'virtual', '--journeys', fixtures]); });
after(() => daemon.close());

const b64url = (buffer) => Buffer.from(buffer).toString('base64url');
const jwt = (claims, secret, header = { typ: 'JWT', alg: 'HS256' }) => {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};
/** base64(HMAC-SHA256(secret, challenge)): PushResponder.generateChallengeResponse. */
const response = (secret, challenge) => createHmac('sha256', secret).update(challenge).digest('base64');

/** POST {messageId, jwt} as RequestBuilder sends it. */
async function answer(url, body, cookie) {
  const headers = { 'Content-Type': 'application/json', 'Accept-API-Version': 'resource=1.0, protocol=1.0' };
  if (cookie) headers.Cookie = cookie;
  const reply = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: reply.status, body: await reply.json() };
}

async function next(step) {
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=${JOURNEY}`;
  const reply = await fetch(url, { method: 'POST', headers: STEP_HEADERS, body: step ? JSON.stringify(step) : undefined });
  return { status: reply.status, body: await reply.json() };
}

test('an authenticator app registers and approves over /json/push/sns/message', async () => {
  const page = (await next()).body;
  page.callbacks[0].input[0].value = 'demo';
  page.callbacks[1].input[0].value = 'Ch4ng3it!';
  const qr = (await next(page)).body;
  assert.deepEqual(qr.callbacks.map((c) => c.type), ['TextOutputCallback', 'TextOutputCallback', 'HiddenValueCallback', 'PollingWaitCallback']);
  const uri = new URL(qr.callbacks[2].output[0].value);
  assert.equal(uri.protocol, 'pushauth:');
  const q = uri.searchParams;
  const secret = Buffer.from(q.get('s'), 'base64url');
  const challenge = Buffer.from(q.get('c'), 'base64url');
  const register = Buffer.from(q.get('r'), 'base64url').toString();
  const authenticate = Buffer.from(q.get('a'), 'base64url').toString();
  const cookie = Buffer.from(q.get('l'), 'base64url').toString();
  assert.match(register, /\/json\/alpha\/push\/sns\/message\?_action=register$/);
  const claims = { deviceId: 'node-token', deviceName: 'node', deviceType: 'android', communicationType: 'gcm', mechanismUid: 'node-mech', response: response(secret, challenge) };

  // Refusals first: a wrong key, alg none, an unknown message. Nothing is taken.
  assert.deepEqual(await answer(register, { messageId: q.get('m'), jwt: jwt(claims, Buffer.alloc(32, 1)) }), { status: 400, body: BAD_REQUEST });
  const none = `${b64url(JSON.stringify({ alg: 'none' }))}.${b64url(JSON.stringify(claims))}.`;
  assert.equal((await answer(register, { messageId: q.get('m'), jwt: none })).status, 400);
  assert.equal((await answer(register, { messageId: 'REGISTER:unknown', jwt: jwt(claims, secret) })).status, 400);
  const still = (await next(qr)).body;
  assert.equal(still.callbacks[3].type, 'PollingWaitCallback', 'still waiting for the registration');

  assert.deepEqual(await answer(register, { messageId: q.get('m'), jwt: jwt(claims, secret) }, cookie), { status: 200, body: {} });
  assert.equal((await answer(register, { messageId: q.get('m'), jwt: jwt(claims, secret) })).status, 400, 'a replay');
  const wait = (await next(still)).body;
  assert.deepEqual(wait.callbacks.map((c) => c.type), ['PollingWaitCallback', 'ConfirmationCallback']);

  // The notification as SNS was handed it: verified with the shared secret, as the app does.
  const delivery = await daemon.connection.request('emulator.lastPushNotification');
  assert.equal(delivery.deviceId, 'node-token');
  const [header, payload, signature] = delivery.message.split('.');
  assert.equal(createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url'), signature);
  const message = JSON.parse(Buffer.from(payload, 'base64url').toString());
  assert.equal(message.u, 'node-mech');
  assert.equal(message.m, 'Login attempt from demo at ForgeRock');
  const approval = jwt({ response: response(secret, Buffer.from(message.c, 'base64')) }, secret);
  assert.deepEqual(await answer(authenticate, { messageId: delivery.messageId, jwt: approval }), { status: 200, body: {} });
  assert.equal((await answer(authenticate, { messageId: delivery.messageId, jwt: approval })).status, 400, 'a replay');

  await daemon.connection.request('emulator.advanceClock', { seconds: 6 });
  const done = await next(wait);
  assert.equal(done.status, 200);
  assert.ok(done.body.tokenId);
});
