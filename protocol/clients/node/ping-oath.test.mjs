// RNPingOath and RNPingLogger as @ping-identity/rn-oath and rn-logger call them through the Node client's
// stand-ins: an OATH device registered through the embedded server's OATH registration journey (the app reads
// the registration step's URI, adds it with addCredentialFromUri, then types generateCode's code into the
// verifier), TOTP and HOTP, on both platforms. Every code is also computed here with node:crypto from the
// URI's secret, an independent check of the chain: URI, base32, HMAC, the daemon's clock.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';
import { hotp } from './oath-reference.mjs';

const exports = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa', import.meta.url));
const journeyConfig = {
  serverUrl: 'http://localhost:8080/am', realm: 'alpha', clientId: 'ReactNativeOAuthClient',
  discoveryEndpoint: 'http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration',
  redirectUri: 'https://com.example.reactnative.todo/callback', scopes: ['openid', 'profile'],
};
const demo = { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] };

/** The registration journey with the OATH nodes set to HOTP (a copy in a temporary folder). */
function hotpJourneys() {
  const folder = mkdtempSync(join(tmpdir(), 'oath-hotp-'));
  const text = readFileSync(join(exports, 'oath_registration.journey.json'), 'utf8');
  writeFileSync(join(folder, 'oath_registration.journey.json'), text.replaceAll('"algorithm": "TOTP"', '"algorithm": "HOTP"'));
  return folder;
}

/** Signs in to oath_registration and answers the registration step: the URI, and the verifier step. */
async function register(journey, oath, handle) {
  const id = await journey.configureJourney(journeyConfig);
  await journey.start(id, 'oath_registration');
  const step = await journey.next(id, '', demo);
  const hidden = step.callbacks.find((c) => c.type === 'HiddenValueCallback');
  const uri = hidden.raw.output.find((o) => o.name === 'value').value;
  const credential = await oath.addCredentialFromUri(handle, uri);
  const verifier = await journey.next(id, '', { callbacks: [{ type: 'ConfirmationCallback', value: 0 }] });
  assert.deepEqual(verifier.callbacks.map((c) => c.type), ['NameCallback', 'ConfirmationCallback']);
  return { id, uri, credential };
}

for (const flavor of ['rn-ios', 'rn-android']) {
  const ios = flavor === 'rn-ios';

  test(`${flavor}: a TOTP device registered through the journey, its code accepted by the verifier`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', exports] });
    try {
      const registry = bridge.turboModuleRegistry();
      const journey = registry.get('RNPingJourney');
      const oath = registry.get('RNPingOath');
      assert.equal(bridge.nativeModules().RNPingOathClassic, oath);
      const handle = await oath.create({ enableCredentialCache: false });
      const { id, uri, credential } = await register(journey, oath, handle);
      assert.deepEqual({ ...credential, id: undefined, createdAt: undefined }, {
        id: undefined, issuer: 'ForgeRock', displayIssuer: 'ForgeRock', accountName: 'demo', displayAccountName: 'demo',
        type: 'TOTP', userId: 'demo', resourceId: credential.resourceId, digits: 6, period: 30, counter: 0, imageURL: '',
        backgroundColor: ios ? '032b75' : '#032b75', isLocked: false, algorithm: 'SHA1', createdAt: undefined,
        policies: ios ? null : '', lockingPolicy: null,
      });
      assert.equal(credential.id, ios ? credential.id.toUpperCase() : credential.id.toLowerCase());
      assert.match(credential.resourceId, /^[0-9A-F-]{36}$/);
      const { now } = await bridge.emulator.state();
      const info = await oath.generateCodeWithValidity(handle, credential.id);
      const step = Math.floor(now / 30);
      assert.deepEqual(info, {
        code: hotp(uri, step), timeRemaining: (step + 1) * 30 - Math.floor(now), counter: -1,
        progress: 1 - ((step + 1) * 30 - Math.floor(now)) / 30, totalPeriod: 30,
      });
      const done = await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: await oath.generateCode(handle, credential.id) }] });
      assert.equal(done.type, 'SuccessNode');
      assert.deepEqual(await oath.getCredentials(handle), [credential]);
      // The same credential on the same phone, as a test reaches it: the emulator shows the same code.
      const shown = await bridge.emulator.oathCode({ phone: 'app' });
      assert.deepEqual([shown.id, shown.code], ['ForgeRock:demo', info.code]);
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: an HOTP device: each code moves the counter, as the platform's SDK counts`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', hotpJourneys()] });
    try {
      const journey = bridge.turboModuleRegistry().get('RNPingJourney');
      const oath = bridge.turboModuleRegistry().get('RNPingOath');
      const handle = await oath.create({});
      const { id, uri, credential } = await register(journey, oath, handle);
      assert.equal(credential.type, 'HOTP');
      const first = await oath.generateCodeWithValidity(handle, credential.id);
      // iOS shows the code at the stored counter, Android at the counter plus one; both then store counter + 1.
      assert.deepEqual(first, { code: hotp(uri, ios ? 0 : 1), timeRemaining: -1, counter: 1, progress: 0, totalPeriod: 0 });
      assert.equal((await oath.getCredential(handle, credential.id)).counter, 1);
      const done = await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: first.code }] });
      assert.equal(done.type, 'SuccessNode');
      assert.equal(await oath.generateCode(handle, credential.id), hotp(uri, ios ? 1 : 2));
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: URIs, saves, deletes and handles rejected as the platform's module rejects them`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const oath = bridge.turboModuleRegistry().get('RNPingOath');
      const handle = await oath.create({});
      const reject = (promise, code, type, message) => assert.rejects(promise, (error) => {
        assert.deepEqual([error.code, error.userInfo?.type, error.message], [code, type, message]);
        return true;
      });
      await reject(oath.addCredentialFromUri(handle, 'https://example.com'), 'OATH_INVALID_URI', 'argument_error',
        ios ? 'Unsupported URI scheme: https' : 'Invalid URI scheme: https, expected: otpauth or mfauth');
      await reject(oath.addCredentialFromUri(handle, 'otpauth://totp/Acme:ada'), ios ? 'OATH_MISSING_PARAMETER' : 'OATH_INVALID_PARAMETER',
        'argument_error', ios ? 'Missing or empty secret parameter' : 'Missing required parameter: secret');
      const uri = 'mfauth://totp/Acme:ada?secret=JBSWY3DPEHPK3PXP&issuer=QWNtZQ&b=%23ff0000&image=https%3A%2F%2Fa.example%2Fi.png';
      const added = await oath.addCredentialFromUri(handle, uri);
      assert.deepEqual([added.issuer, added.backgroundColor, added.imageURL], ['Acme', ios ? 'ff0000' : '#ff0000', 'https://a.example/i.png']);
      if (ios) {
        assert.notEqual((await oath.addCredentialFromUri(handle, uri)).id, added.id, 'iOS keeps both under new ids');
      } else {
        await reject(oath.addCredentialFromUri(handle, uri), 'OATH_DUPLICATE_CREDENTIAL', 'state_error',
          "Credential already exists for issuer 'Acme' and account 'ada'");
      }
      const saved = await oath.saveCredential(handle, { ...added, displayIssuer: 'Acme Corp', digits: 8 });
      assert.deepEqual([saved.displayIssuer, saved.digits], ['Acme Corp', 6]);
      await assert.rejects(oath.saveCredential(handle, { ...added, issuer: '' }), (error) => error.code === (ios ? 'OATH_MISSING_PARAMETER' : 'OATH_INVALID_PARAMETER'));
      assert.equal(await oath.deleteCredential(handle, added.id), true);
      assert.equal(await oath.deleteCredential(handle, added.id), false);
      assert.equal(await oath.getCredential(handle, added.id), null);
      await reject(oath.generateCode(handle, added.id), ios ? 'OATH_CREDENTIAL_NOT_FOUND' : 'OATH_UNKNOWN_ERROR',
        ios ? 'state_error' : 'unknown_error', ios ? added.id : `Failed to generate code for credential with ID ${added.id}`);
      assert.equal(await oath.close(handle), null);
      await reject(oath.getCredentials(handle), 'OATH_STATE_ERROR', 'state_error',
        ios ? 'OATH client handle not found. The client may have been closed.' : `No OATH client found for handle ${handle}`);
      await reject(oath.create({ storageId: 'nope' }), 'OATH_INITIALIZATION_FAILED', 'argument_error', 'Unresolvable storageId: nope');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: policies: a failing one refuses registration; a client checking more locks the credential`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const oath = bridge.turboModuleRegistry().get('RNPingOath');
      const storage = bridge.turboModuleRegistry().get('RNPingStorage');
      const evaluator = oath.registerOathPolicyEvaluator({ policies: ['biometricAvailable', 'nonsense'], loggerId: 'l' });
      assert.deepEqual(oath.configureOathPolicyEvaluator(evaluator), { policies: ['biometricAvailable'], loggerId: 'l' });
      if (ios) assert.deepEqual(oath.configureOathPolicyEvaluator('nope'), { policies: [] });
      else assert.throws(() => oath.configureOathPolicyEvaluator('nope'), { code: 'IllegalStateException' });
      // The emulated phone is untampered (score 0): a threshold of 0 fails, the default 0.8 holds.
      const policies = Buffer.from('{"deviceTampering":{"score":0}}').toString('base64url');
      const uri = `otpauth://totp/Acme:ada?secret=JBSWY3DPEHPK3PXP&policies=${policies}`;
      const strict = await oath.create({});
      await assert.rejects(oath.addCredentialFromUri(strict, uri), (error) => error.code === 'OATH_POLICY_VIOLATION'
        && error.message === 'This credential cannot be registered on this device. It violates the following policy: deviceTampering');
      const lenient = await oath.create({ policyEvaluatorId: evaluator });
      const added = await oath.addCredentialFromUri(lenient, uri);
      assert.equal(added.policies, '{"deviceTampering":{"score":0}}');
      assert.equal(typeof await oath.generateCode(lenient, added.id), 'string');
      const [locked] = await oath.getCredentials(strict);
      assert.deepEqual([locked.isLocked, locked.lockingPolicy], [true, 'deviceTampering']);
      await assert.rejects(oath.generateCode(strict, added.id), (error) => error.code === 'OATH_CREDENTIAL_LOCKED'
        && error.message === (ios ? added.id : "Credential is locked due to policy 'deviceTampering': Credential is currently locked"));
      const [unlocked] = await oath.getCredentials(lenient);
      assert.equal(unlocked.isLocked, false);
      // Another OATH store (an RNPingStorage registration) holds none of these.
      const other = await oath.create({ storageId: storage.registerOathStorage(ios ? { oathService: 'other' } : { databaseName: 'other.db' }) });
      assert.deepEqual(await oath.getCredentials(other), []);
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: registerLogger answers at once; a client with its id logs at the level asked, never a code`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const logger = bridge.turboModuleRegistry().get('Logger');
      assert.equal(bridge.nativeModules().RNPingLoggerClassic, logger);
      const id = logger.registerLogger({ level: 'STANDARD' });
      assert.equal(typeof id, 'string');
      assert.equal(logger.syncLogger({ id: 'unknown', level: 'WARN' }), undefined);
      const oath = bridge.turboModuleRegistry().get('RNPingOath');
      const handle = await oath.create({ loggerId: id });
      const added = await oath.addCredentialFromUri(handle, 'otpauth://totp/Acme:ada?secret=JBSWY3DPEHPK3PXP');
      const code = await oath.generateCode(handle, added.id);
      logger.syncLogger({ id, level: 'NONE' });
      await oath.generateCode(handle, added.id);
      await oath.create({ loggerId: 'not-registered' }); // accepted, as the natives resolve it to no logger
      await bridge.emulator.state(); // every earlier unit is answered, its lines written
      const text = bridge.stderr;
      assert.match(text, /authbridge native debug: \[PingOath\] Generating OTP code for credential/);
      assert.equal(text.split('Generating OTP code').length - 1, 1, 'NONE logs nothing');
      assert.ok(!text.includes(code) && !text.includes('JBSWY3DPEHPK3PXP'));
    } finally {
      await bridge.close();
    }
  });
}

// RNPingProtect as @ping-identity/rn-protect calls it, and AM's PingOne Protect nodes met by an RNPingJourney app.
const protectJourneys = fileURLToPath(new URL('../../../docs/examples/am-exports/protect', import.meta.url));
const protectScenario = fileURLToPath(new URL('../../../docs/examples/protect-scenario.json', import.meta.url));

for (const flavor of ['rn-ios', 'rn-android']) {
  const ios = flavor === 'rn-ios';

  test(`${flavor}: RNPingProtect: initialize, pause and resume; no DaVinci collector to collect for`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const protect = bridge.turboModuleRegistry().get('RNPingProtect');
      assert.equal(bridge.nativeModules().RNPingProtectClassic, protect);
      if (ios) {
        // Before initialize the Signals SDK has no shared instance: iOS throws, Android resolves.
        await assert.rejects(protect.pauseBehavioralData({}), (error) => error.code === 'PROTECT_COLLECT_ERROR'
          && error.userInfo.type === 'auth_error' && error.message === 'PingOneSignals shared instance is not available');
      } else {
        assert.equal(await protect.pauseBehavioralData({}), null);
      }
      assert.equal(await protect.initialize({ envId: 'env', isBehavioralDataCollection: true }, { loggerId: ' ' }), null);
      assert.equal(await protect.pauseBehavioralData({}), null);
      assert.equal(await protect.resumeBehavioralData({ loggerId: 'unknown' }), null);
      await assert.rejects(protect.collectForDaVinci(' ', {}, {}), (error) => error.code === 'PROTECT_COLLECTOR_NOT_FOUND'
        && error.userInfo.type === 'argument_error' && error.message === 'DaVinci id must not be empty for Protect data collection.');
      await assert.rejects(protect.collectForDaVinci('flow-1', {}, {}), (error) => error.code === 'PROTECT_COLLECTOR_NOT_FOUND'
        && error.userInfo.type === 'state_error' && error.message === (ios ? 'No active DaVinci collectors found for id flow-1.'
        : 'No active Protect collector found for DaVinci flow-1 at index 0.'));
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: a journey through AM's Protect nodes: the callbacks kept, submitted as received, the risk from the scenario`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', protectJourneys, '--scenario', protectScenario] });
    try {
      const journey = bridge.turboModuleRegistry().get('RNPingJourney');
      const id = await journey.configureJourney(journeyConfig);
      await journey.start(id, 'ProtectLogin');
      const init = await journey.next(id, '', demo);
      assert.deepEqual(init.callbacks.map((c) => c.type), ['PingOneProtectInitializeCallback']);
      assert.equal(init.callbacks[0].raw.output.find((o) => o.name === 'envId').value, 'protect-worker');
      // No RN package answers them: a value is refused, as the journey module refuses it.
      await assert.rejects(journey.next(id, '', { callbacks: [{ type: 'PingOneProtectInitializeCallback', value: '' }] }),
        (error) => error.code === 'JOURNEY_MISSING_INTEGRATION_ERROR' && error.userInfo.type === 'state_error');
      const evaluation = await journey.next(id, '', {});
      assert.deepEqual(evaluation.callbacks.map((c) => c.type), ['PingOneProtectEvaluationCallback']);
      assert.equal((await journey.next(id, '', {})).type, 'SuccessNode');
      // The scenario can make the risk high: the FAILED result, then AM's failure.
      assert.deepEqual(
        await bridge.emulator.setNodeOutcome({ journey: 'ProtectLogin', node: 'PingOne Protect Evaluation', outcome: 'high' }),
        { journey: 'ProtectLogin', node: 'PingOne Protect Evaluation', outcome: 'high' });
      await journey.start(id, 'ProtectLogin', { forceAuth: true });
      await journey.next(id, '', demo);
      await journey.next(id, '', {});
      assert.equal((await journey.next(id, '', {})).type, 'ErrorNode');
    } finally {
      await bridge.close();
    }
  });
}
