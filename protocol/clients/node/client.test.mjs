// The reference client driving the daemon the way the ForgeRock React Native sample's JS does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnBridge } from './index.mjs';

/** What the sample's journey form does: parse the step, fill inputs by name, stringify the payload. */
function answer(stepString, values) {
  const step = JSON.parse(stepString);
  for (const callback of step.callbacks) {
    for (const input of callback.input ?? []) {
      if (input.name in values) input.value = values[input.name];
    }
  }
  return JSON.stringify(step);
}

const credentials = { IDToken1: 'demo', IDToken2: 'Ch4ng3it!' };

test('the seed guide login flow, as the sample app runs it', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    assert.equal(await bridge.start(), 'SDK initialized');
    const step = await bridge.login();
    assert.equal(typeof step, 'string', 'a step is a JSON string');
    const parsed = JSON.parse(step);
    assert.deepEqual(parsed.callbacks.map((c) => c.type), ['NameCallback', 'PasswordCallback']);
    const response = await bridge.next(answer(step, credentials));
    assert.equal(response?.type, 'LoginSuccess');
    const user = await bridge.getUserInfo();
    assert.equal(user.name, 'Demo User');
    assert.equal(user.email, 'demo@example.com');
    const { tokenType, value } = JSON.parse(await bridge.getAccessToken());
    assert.equal(tokenType, 'Bearer');
    assert.match(value, /^eyJ/);
    assert.equal(await bridge.logout(), null);
    await assert.rejects(bridge.getUserInfo(), { code: 'error', message: 'Invalid SDK state: No current user for which to request user info' });
  } finally {
    assert.equal((await bridge.close()).code, 0);
  }
});

test('a wrong password rejects like React Native: an Error with code and message', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    const step = await bridge.login();
    const error = await bridge.next(answer(step, { IDToken1: 'demo', IDToken2: 'wrong' })).catch((e) => e);
    assert.ok(error instanceof Error);
    assert.equal(error.code, 'Error');
    assert.equal(error.message, 'LoginFailure');
    assert.equal(error.detail, 'Login failure');
  } finally {
    await bridge.close();
  }
});

test("the sample's retry: already authenticated → logout without waiting → login", async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    await bridge.next(answer(await bridge.login(), credentials));
    let data;
    try {
      data = await bridge.login();
      assert.fail('login must reject while a user is logged in');
    } catch (error) {
      assert.equal(error.message, 'User is already authenticated');
      bridge.logout(); // the sample does not await it; requests are answered in order
      data = await bridge.login();
    }
    assert.equal(JSON.parse(data).callbacks.length, 2);
  } finally {
    await bridge.close();
  }
});

test('token events reach NativeEventEmitter listeners before the call that caused them resolves', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  const { AuthenticationTokenModule } = bridge.nativeModules();
  const emitter = new bridge.NativeEventEmitter(AuthenticationTokenModule);
  const seen = [];
  const subscriptions = ['TOKEN_EVENT', 'LOGOUT_EVENT', 'TOKEN_REQUEST_EVENT'].map((event) =>
    emitter.addListener(event, (params) => seen.push([event, params.reason, params.generation])));
  try {
    await AuthenticationTokenModule.tokenSyncReady();
    assert.deepEqual(seen.splice(0), [['TOKEN_REQUEST_EVENT', 'ready', undefined]]);

    await bridge.start();
    await bridge.next(answer(await bridge.login(), credentials));
    assert.deepEqual(seen.splice(0), [['TOKEN_EVENT', 'login', 1]]);

    await bridge.emulator.advanceClock(3550);
    await bridge.getAccessToken();
    assert.deepEqual(seen.splice(0), [['TOKEN_EVENT', 'refresh', 2]]);
    assert.equal((await bridge.emulator.state()).server.refreshCount, 1);

    await bridge.emulator.nativeLogout();
    assert.deepEqual(seen.splice(0), [['LOGOUT_EVENT', 'native_logout', 3]]);

    for (const s of subscriptions) s.remove();
    await bridge.emulator.requestToken();
    assert.deepEqual(seen, [], 'removed listeners hear nothing');
  } finally {
    await bridge.close();
  }
});

test('tokenUpdate is not echoed and a bad map names its key', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  const heard = [];
  bridge.emitter.addListener('TOKEN_EVENT', (p) => heard.push(p));
  try {
    await bridge.tokenSyncReady();
    const map = { accessToken: 'js-a', refreshToken: 'js-r', expiresAt: 1767229200 };
    assert.equal(await bridge.tokenUpdate(map), null);
    assert.equal(await bridge.tokenUpdate(map), null);
    assert.equal((await bridge.emulator.state()).generation, 1);
    assert.deepEqual(heard, []);
    await assert.rejects(bridge.tokenUpdate({ ...map, expires_at: 1 }), (error) => {
      assert.equal(error.code, -32602);
      assert.equal(error.data.param, '0.expires_at');
      return true;
    });
  } finally {
    await bridge.close();
  }
});

test('invokeMethod passes one argument, as a Flutter MethodChannel does', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.invokeMethod('start');
    const step = await bridge.invokeMethod('login');
    const response = await bridge.invokeMethod('next', answer(step, credentials));
    assert.equal(response.type, 'LoginSuccess');
  } finally {
    await bridge.close();
  }
});

test('stderr is kept apart from results, and a missing binary says what to do', async () => {
  const lines = [];
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual', logLevel: 'info', onStderr: (t) => lines.push(t) });
  await bridge.start();
  await bridge.close();
  assert.match(bridge.stderr, /end of input/);
  assert.ok(lines.join('').length > 0);
  await assert.rejects(spawnBridge({ binary: '/nonexistent/authbridge' }),
    /binary not found at \/nonexistent\/authbridge \(the binary option\): run `swift build`.*install @authbridge\/client-/);
});

test('a failed login says why: emulator.lastFailure, the info log and the trace, never the password', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual', logLevel: 'trace' });
  try {
    await bridge.start();
    assert.equal(await bridge.emulator.lastFailure(), null);
    await assert.rejects(bridge.next(answer(await bridge.login(), { ...credentials, IDToken2: 'typed-Secret-9' })));
    const failure = await bridge.emulator.lastFailure();
    assert.equal(failure.journey, 'Login');
    assert.equal(failure.username, 'demo');
    assert.equal(failure.reason.code, 'wrong_password');
    assert.equal(typeof failure.node.type, 'string');
    assert.equal(typeof failure.at, 'number');
  } finally {
    await bridge.close();
  }
  assert.match(bridge.stderr, /authbridge info: journey Login failed at node .*: the password given for demo is wrong \[wrong_password\]/);
  assert.match(bridge.stderr, /authbridge trace: \S+Z journey-failure \{.*"code":"wrong_password"/);
  assert.ok(!bridge.stderr.includes('typed-Secret-9'), 'the typed password is never logged');
});

test('logLevel trace shows each call with its duration, redacted; trace writes it to a file', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual', logLevel: 'trace' });
  await bridge.start();
  await bridge.next(answer(await bridge.login(), credentials));
  const { value } = JSON.parse(await bridge.getAccessToken());
  await bridge.close();
  assert.match(bridge.stderr, /authbridge trace: \S+Z request 1 daemon\.hello/);
  assert.match(bridge.stderr, /response \d+ next \d+\.\d\d ms \{"result":\{"type":"LoginSuccess"/);
  assert.ok(!bridge.stderr.includes('Ch4ng3it!'), 'the password is redacted');
  assert.ok(!bridge.stderr.includes(value), 'the access token is redacted');

  const dir = mkdtempSync(join(tmpdir(), 'authbridge-trace-'));
  try {
    const traced = await spawnBridge({ trace: join(dir, 'trace.log') });
    await traced.start();
    await traced.close();
    assert.doesNotMatch(traced.stderr, /authbridge trace:/);
    assert.match(readFileSync(join(dir, 'trace.log'), 'utf8'), /request 2 start \[\]\n.*response 2 start/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a daemon that cannot start says why in one line; the whole stderr stays on the error', async () => {
  const error = await spawnBridge({ args: ['--no-such-flag'] }).then(() => null, (e) => e);
  assert.equal(error.message, 'authbridge exited (2) before answering: authbridge: unknown option --no-such-flag (authbridge --help lists the options)');
  assert.match(error.stderr, /usage: authbridge/);
  assert.deepEqual(error.args, ['--no-such-flag']);
});

test('an option spawnBridge does not know is refused, naming the ones it knows', async () => {
  await assert.rejects(spawnBridge({ seeds: 7 }), {
    name: 'TypeError',
    message: 'spawnBridge: unknown option "seeds" (did you mean "seed"?); the options are flavor, bridge, seed, clock, stateDir, '
      + 'logLevel, trace, args, binary, onStderr, emitter (daemon flags go in args: [\'--flag\', \'value\'])',
  });
  await assert.rejects(spawnBridge({ journeys: 'x.json' }), /unknown option "journeys"; the options are/);
  await assert.rejects(spawnBridge({ args: '--seed 1' }), /args must be an array of strings/);
  await assert.rejects(spawnBridge('rn-ios'), /spawnBridge takes an options object, got string/);
});

test('with no daemon anywhere, the hint names the platform package to install', () => {
  // A copy of the client outside the checkout, so neither PATH nor the checkout's build has one.
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-nobin-'));
  try {
    for (const file of ['index.cjs', 'transport.cjs', 'ping.cjs']) copyFileSync(new URL(file, import.meta.url), join(dir, file));
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(dir, 'index.cjs'))}).spawnBridge().catch((e) => { console.log(e.message); })`],
      { encoding: 'utf8', env: { PATH: '' } });
    assert.match(run.stdout, new RegExp(`authbridge binary not found: install @authbridge/client-${process.platform}-${process.arch} `
      + 'beside @authbridge/client .*`make pack`.*; or set AUTHBRIDGE_BIN, or put authbridge on PATH'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('nativeModules has the shape NativeEventEmitter needs', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    const modules = bridge.nativeModules();
    for (const name of ['start', 'login', 'register', 'next', 'getUserInfo', 'getAccessToken', 'logout', 'addListener', 'removeListeners']) {
      assert.equal(typeof modules.FRAuthSampleBridge[name], 'function', name);
    }
    assert.equal(typeof modules.HydraTokenExchangeModule.exchangeToken, 'function');
    // The token-sync events first, then the Ping modules' own.
    assert.deepEqual(bridge.hello.events.slice(0, 3), ['TOKEN_EVENT', 'LOGOUT_EVENT', 'TOKEN_REQUEST_EVENT']);
    assert.ok(bridge.hello.events.includes('RNPingBinding_PinRequired'));
  } finally {
    await bridge.close();
  }
});

test('one login flow per flavor, as each platform answers it', async () => {
  for (const flavor of ['rn-ios', 'rn-android']) {
    const bridge = await spawnBridge({ flavor, seed: 7, clock: 'virtual' });
    try {
      assert.equal(bridge.hello.flavor, flavor);
      await bridge.start();
      const step = JSON.parse(await bridge.login());
      const key = flavor === 'rn-ios' ? 'header' : 'pageHeader';
      assert.equal(step[key], 'Sign In', `${flavor} names the header ${key}`);
      const wrong = await bridge.next(answer(JSON.stringify(step), { IDToken1: 'demo', IDToken2: 'x' })).catch((e) => e);
      assert.equal(wrong.code, flavor === 'rn-ios' ? 'Error' : 'error');
      assert.equal(wrong.message, flavor === 'rn-ios' ? 'LoginFailure' : '{"code":401,"reason":"Unauthorized","message":"Login failure"}');
      const response = await bridge.next(answer(await bridge.login(), credentials));
      assert.equal(response.type, 'LoginSuccess');
      const tokens = JSON.parse(flavor === 'rn-ios' ? response.tokens : response.sessionToken);
      assert.equal(typeof tokens.scope, flavor === 'rn-ios' ? 'string' : 'object');
      assert.equal((await bridge.getUserInfo()).email, 'demo@example.com');
      const { tokenType, value } = JSON.parse(await bridge.getAccessToken());
      assert.equal(`${tokenType} ${value}`.slice(0, 10), 'Bearer eyJ');
    } finally {
      await bridge.close();
    }
  }
});

test('the Flutter flow: every result is a string the Dart code decodes', async () => {
  for (const [flavor, startMethod, started] of [['flutter-ios', 'frAuthStart', 'SDK Initialised'], ['flutter-android', 'frAuthStart', 'SDK Initialized']]) {
    const bridge = await spawnBridge({ flavor, seed: 7, clock: 'virtual' });
    try {
      assert.equal(await bridge.invokeMethod(startMethod), started);
      const node = JSON.parse(await bridge.invokeMethod('login'));
      for (const callback of node.callbacks) callback.input[0].value = callback.type === 'NameCallback' ? 'demo' : 'Ch4ng3it!';
      const result = await bridge.invokeMethod('next', JSON.stringify(node));
      assert.equal(typeof result, 'string');
      assert.equal(JSON.parse(result).type, 'LoginSuccess');
      const user = JSON.parse(await bridge.invokeMethod('getUserInfo'));
      assert.equal(user.name, 'Demo User');
      assert.equal(await bridge.invokeMethod('logout'), 'User logged out');
      await assert.rejects(bridge.invokeMethod('getAccessToken'), { code: -32601 });
      await assert.rejects(bridge.invokeMethod('next', 5), { code: '500', message: 'Arguments not parsed correctly' });
    } finally {
      await bridge.close();
    }
  }
});

test('a second factor by e-mail: the code comes from emulator.lastOneTimeCode', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    assert.deepEqual(await bridge.emulator.setServiceNames({ authServiceName: 'SecondFactor' }),
      { authServiceName: 'SecondFactor', registrationServiceName: 'Registration' });
    const choice = await bridge.next(answer(await bridge.login(), credentials));
    assert.equal(JSON.parse(choice).callbacks[0].type, 'ChoiceCallback');
    const otp = await bridge.next(answer(choice, { IDToken1: 0 }));
    assert.equal(JSON.parse(otp).stage, 'OneTimePasswordEmail');
    const sent = await bridge.emulator.lastOneTimeCode();
    assert.equal(sent.to, 'demo@example.com');
    const success = await bridge.next(answer(otp, { IDToken1: sent.code }));
    assert.equal(success.type, 'LoginSuccess');
  } finally {
    await bridge.close();
  }
});

test('a suspended journey resumes with the e-mailed id, once', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    await bridge.emulator.setServiceNames({ authServiceName: 'EmailSuspend' });
    const suspended = await bridge.next(answer(await bridge.login(), { IDToken1: 'demo' }));
    assert.equal(JSON.parse(suspended).callbacks[0].type, 'SuspendedTextOutputCallback');
    const { suspendedId } = await bridge.emulator.lastSuspendedJourney();
    assert.equal((await bridge.emulator.resumeJourney(suspendedId)).type, 'LoginSuccess');
    await bridge.logout();
    await assert.rejects(bridge.emulator.resumeJourney(suspendedId), /LoginFailure/);
  } finally {
    await bridge.close();
  }
});
