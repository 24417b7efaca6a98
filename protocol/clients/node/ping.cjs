// The successor SDK's TurboModules (RNPingJourney, RNPingOidc, RNPingStorage, RNPingBinding) as plain JS objects that call the
// daemon: what `TurboModuleRegistry.get('RNPingJourney')` or `NativeModules.RNPingJourneyClassic`
// hands the Ping React Native SDK's JS. Methods are own properties (spy-able with jest.spyOn).
//
// createClient/createWebClient are synchronous on the device. Here the stand-in checks the config
// as the native parser does (so a bad one throws at once, as on the device), picks the id itself,
// sends the create call with that id, and makes every later call naming the id wait for it.
// RNPingStorage's register/configure calls are all synchronous: register keeps the config as the
// platform normalizes it (the daemon's StorageConfigNormalizer does the same; a test compares
// them) and configure answers it from there.
'use strict';
const { randomUUID } = require('node:crypto');

const PING_JOURNEY_METHODS = ['configureJourney', 'start', 'next', 'resume', 'getSession', 'refresh', 'revoke', 'userinfo',
  'ssoToken', 'logout', 'dispose'];
const PING_OIDC_METHODS = ['createClient', 'createWebClient', 'disposeClient', 'disposeWebClient', 'clientToken', 'clientRefresh',
  'clientUserinfo', 'clientRevoke', 'clientEndSession', 'authorize', 'hasUser', 'token', 'refresh', 'userinfo', 'revoke', 'logout'];

const PING_BINDING_METHODS = ['bindForJourney', 'signForJourney', 'resolvePin', 'cancelPin', 'selectUserKey', 'cancelUserKey',
  'getAllKeys', 'deleteKey', 'deleteAllKeys'];

const PING_STORAGE_KINDS = ['Session', 'Oidc', 'BindingUserKey', 'Push', 'Oath'];
const PING_STORAGE_METHODS = PING_STORAGE_KINDS.flatMap((kind) => [`register${kind}Storage`, `configure${kind}Storage`]);

/** The config a platform keeps for a registration (storage/ios/RNPingStorageCommon.swift, storage/android/…/RNPingStorageCommon.kt). */
function storageConfig(config, kind, ios) {
  const result = {};
  const copy = (key, type, name = key) => { if (typeof config[key] === type) result[name] = config[key]; };
  if (ios && kind === 'Oath') {
    copy('oathService', 'string', 'service');
    copy('oathRequireBiometrics', 'boolean', 'requireBiometrics');
    copy('oathRequireDevicePasscode', 'boolean', 'requireDevicePasscode');
    copy('oathBiometricPrompt', 'string', 'biometricPrompt');
    copy('oathAccessGroup', 'string', 'accessGroup');
  } else if (ios) {
    copy('cacheable', 'boolean');
    result.account = typeof config.account === 'string' ? config.account : 'com.pingidentity.rnstorage.storage';
    result.encryptor = typeof config.encryptor === 'boolean' ? config.encryptor : true;
  } else if (kind === 'Oath') {
    copy('databaseName', 'string');
  } else {
    result.keyAlias = typeof config.keyAlias === 'string' ? config.keyAlias : 'com.pingidentity.rnstorage.storage';
    result.fileName = typeof config.fileName === 'string' ? config.fileName : 'secure_prefs';
    copy('strongBoxPreferred', 'boolean');
    copy('cacheStrategy', 'string');
  }
  return result;
}

function thrown(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

const text = (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * The reason the native parser refuses an OIDC client config, or undefined (oidc/ios/OidcConfigParser.swift,
 * oidc/android/…/OidcConfigParser.kt; the daemon's OidcConfigParser gives the same texts).
 */
function oidcConfigProblem(config, ios) {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return 'config must be an object';
  if (!text(config.clientId)) return 'Missing required parameter: clientId';
  if (!text(config.redirectUri)) return 'Missing required parameter: redirectUri';
  if (!Array.isArray(config.scopes) || !config.scopes.some((s) => typeof s === 'string')) return 'Missing required parameter: scopes';
  if (ios && !text(config.discoveryEndpoint)) {
    return 'Missing discoveryEndpoint. `openId` alone can no longer bypass discovery — provide discoveryEndpoint; openId will be applied as an override after discovery.';
  }
  if (!ios && !text(config.discoveryEndpoint) && (config.openId === null || typeof config.openId !== 'object')) {
    return 'Missing discoveryEndpoint or openId';
  }
  return undefined;
}

/**
 * `{ RNPingJourney, RNPingOidc, RNPingStorage }` calling `call(wireName, args)`. `flavor` decides id case and
 * the thrown exception's shape (iOS NSException, Android IllegalArgumentException).
 */
function pingModules(call, { flavor = 'rn-ios', jest: jestObject } = {}) {
  const ios = flavor !== 'rn-android';
  const wrap = (fn) => (jestObject ? jestObject.fn(fn) : fn);
  const created = new Map(); // id → the create call's promise
  const after = (id, send) => (created.has(id) ? created.get(id).then(send) : send());
  const newId = () => (ios ? randomUUID().toUpperCase() : randomUUID());

  const RNPingStorage = {};
  const storages = new Map(); // `${kind}:${id}` → the config configure answers
  for (const kind of PING_STORAGE_KINDS) {
    RNPingStorage[`register${kind}Storage`] = wrap((config) => {
      if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new TypeError('config must be an object');
      const id = newId();
      storages.set(`${kind}:${id}`, storageConfig(config, kind, ios));
      created.set(id, call(`RNPingStorage.register${kind}Storage`, [config, id]));
      created.get(id).catch(() => {});
      return id;
    });
    RNPingStorage[`configure${kind}Storage`] = wrap((id) => {
      const config = storages.get(`${kind}:${id}`);
      if (!config) {
        throw thrown(ios ? 'NSInvalidArgumentException' : 'IllegalStateException',
          `No ${kind === 'Oath' ? 'OATH ' : ''}storage config registered for id=${id}`);
      }
      return { ...config };
    });
  }

  const RNPingJourney = {};
  for (const name of PING_JOURNEY_METHODS) {
    RNPingJourney[name] = wrap((...args) => call(`RNPingJourney.${name}`, args));
  }
  // A configuration naming storage handles waits for their registration.
  RNPingJourney.configureJourney = wrap((...args) => {
    const handles = [args[0]?.sessionStorageId, args[0]?.oidcStorageId].filter((id) => created.has(id));
    return Promise.all(handles.map((id) => created.get(id))).then(() => call('RNPingJourney.configureJourney', args));
  });

  const RNPingOidc = {};
  const exception = (reason) => (ios
    ? thrown('NSInvalidArgumentException', `Invalid OIDC client config: ${reason}`)
    : thrown('IllegalArgumentException', reason));
  RNPingOidc.createClient = wrap((config) => {
    const problem = oidcConfigProblem(config, ios);
    if (problem) throw exception(problem);
    // Android's factory refuses an unknown storage handle; iOS's uses the default storage.
    const storageId = text(config.storageId);
    if (storageId && !ios && !storages.has(`Oidc:${storageId}`)) {
      throw thrown('IllegalArgumentException', `No storage config registered for id=${storageId}`);
    }
    const id = newId();
    created.set(id, after(storageId, () => call('RNPingOidc.createClient', [config, id])));
    created.get(id).catch(() => {}); // surfaced by the calls that name the id
    return id;
  });
  RNPingOidc.createWebClient = wrap((clientId) => {
    if (!created.has(clientId)) {
      throw ios ? thrown('NSInvalidArgumentException', `No OIDC client found for id ${clientId}`)
        : thrown('IllegalArgumentException', `Unknown OIDC client id: ${clientId}`);
    }
    const id = newId();
    created.set(id, created.get(clientId).then(() => call('RNPingOidc.createWebClient', [clientId, id])));
    created.get(id).catch(() => {});
    return id;
  });
  for (const name of PING_OIDC_METHODS.slice(2)) {
    RNPingOidc[name] = wrap((...args) => after(args[0], () => call(`RNPingOidc.${name}`, args)));
  }
  for (const module of [RNPingJourney, RNPingOidc, RNPingStorage]) {
    // What NativeEventEmitter requires of a module (these modules emit no events).
    module.addListener = () => {};
    module.removeListeners = () => {};
  }
  const RNPingBinding = bindingModule(call, wrap, after);
  return { RNPingJourney, RNPingOidc, RNPingStorage, RNPingBinding };
}

/**
 * RNPingBinding (binding/src/NativeRNPingBinding.ts). bind/sign resolve once the daemon answers, which for a PIN
 * or key prompt is after JS answered it. resolvePin, cancelPin, selectUserKey and cancelUserKey are `void` on the
 * device: here they send their call and return undefined at once, in call order (one stream to the daemon), so
 * the PinRequired listener's answer reaches the daemon before anything JS calls after it.
 */
function bindingModule(call, wrap, after) {
  const module = {};
  for (const name of PING_BINDING_METHODS) module[name] = wrap((...args) => call(`RNPingBinding.${name}`, args));
  for (const name of ['bindForJourney', 'signForJourney']) {
    // A config naming a user-key storage handle waits for its registration.
    module[name] = wrap((...args) => after(args[2]?.userKeyStorageId, () => call(`RNPingBinding.${name}`, args)));
  }
  for (const name of ['resolvePin', 'cancelPin', 'selectUserKey', 'cancelUserKey']) {
    module[name] = wrap((...args) => {
      call(`RNPingBinding.${name}`, args).catch(() => {});
    });
  }
  module.addListener = () => {};
  module.removeListeners = () => {};
  return module;
}

/** `TurboModuleRegistry` over those modules: `get` (null for other names) and `getEnforcing`. */
function turboModuleRegistry(modules) {
  return {
    get: (name) => modules[name] ?? null,
    getEnforcing: (name) => {
      if (!modules[name]) throw new Error(`TurboModuleRegistry.getEnforcing(...): '${name}' could not be found.`);
      return modules[name];
    },
  };
}

module.exports = {
  pingModules, turboModuleRegistry, oidcConfigProblem, storageConfig, PING_JOURNEY_METHODS, PING_OIDC_METHODS, PING_STORAGE_METHODS,
  PING_BINDING_METHODS,
};
