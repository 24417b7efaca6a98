// The successor SDK's TurboModules (RNPingJourney, RNPingOidc, RNPingStorage and the device packages' modules) as plain JS objects that call the
// daemon: what `TurboModuleRegistry.get('RNPingJourney')` or `NativeModules.RNPingJourneyClassic`
// hands the Ping React Native SDK's JS. Methods are own properties (spy-able with jest.spyOn).
//
// createClient/createWebClient are synchronous on the device. Here the stand-in checks the config
// as the native parser does (so a bad one throws at once, as on the device), picks the id itself,
// sends the create call with that id, and makes every later call naming the id wait for it.
// RNPingStorage's register/configure calls are all synchronous: register keeps the config as the
// platform normalizes it (the daemon's StorageConfigNormalizer does the same; a test compares
// them) and configure answers it from there.
// RNPingDeviceClient's calls all answer through promises and go straight to the daemon.
// RNPingBrowser's configure and reset are synchronous on the device and answer nothing: the
// stand-in sends them and returns undefined (a config that is not an object throws at once).
'use strict';
const { randomUUID } = require('node:crypto');

const PING_JOURNEY_METHODS = ['configureJourney', 'start', 'next', 'resume', 'getSession', 'refresh', 'revoke', 'userinfo',
  'ssoToken', 'logout', 'dispose'];
const PING_OIDC_METHODS = ['createClient', 'createWebClient', 'disposeClient', 'disposeWebClient', 'clientToken', 'clientRefresh',
  'clientUserinfo', 'clientRevoke', 'clientEndSession', 'authorize', 'hasUser', 'token', 'refresh', 'userinfo', 'revoke', 'logout'];

const PING_OATH_METHODS = ['create', 'addCredentialFromUri', 'getCredential', 'getCredentials', 'saveCredential', 'deleteCredential',
  'generateCode', 'generateCodeWithValidity', 'close', 'registerOathPolicyEvaluator', 'configureOathPolicyEvaluator'];
const PING_LOGGER_METHODS = ['registerLogger', 'syncLogger'];
const PING_PROTECT_METHODS = ['initialize', 'pauseBehavioralData', 'resumeBehavioralData', 'collectForDaVinci'];
const OATH_POLICY_KINDS = ['biometricAvailable', 'deviceTampering'];
const PING_DEVICE_CLIENT_METHODS = ['create', 'get', 'update', 'deleteDevice', 'dispose'];
const PING_BROWSER_METHODS = ['configure', 'reset', 'open'];
// RNPingPush (push/src/NativeRNPingPush.ts): every method is a promise, so each is a plain call.
const PING_PUSH_METHODS = ['initialize', 'addCredentialFromUri', 'getCredential', 'getCredentials', 'saveCredential',
  'deleteCredential', 'setDeviceToken', 'getDeviceToken', 'processNotification', 'processNotificationFromMessage',
  'approveNotification', 'approveChallengeNotification', 'approveBiometricNotification', 'denyNotification',
  'getPendingNotifications', 'getAllNotifications', 'getNotification', 'cleanupNotifications', 'close',
  'consumePendingMessages', 'refreshToken'];
// RNPingFido, RNPingDeviceProfile, RNPingDeviceId: every method returns a promise, passed straight through.
const PING_FIDO_METHODS = ['registerCredential', 'authenticateCredential', 'registerCredentialForJourney',
  'authenticateCredentialForJourney'];
const PING_DEVICE_PROFILE_METHODS = ['collectDeviceProfile', 'collectDeviceProfileForJourney'];
const PING_DEVICE_ID_METHODS = ['getDefaultDeviceId'];
const PING_EXTERNAL_IDP_METHODS = ['authorizeForJourney', 'selectProviderForJourney', 'authorizeForDaVinci'];
const PING_BINDING_METHODS = ['bindForJourney', 'signForJourney', 'resolvePin', 'cancelPin', 'selectUserKey', 'cancelUserKey',
  'getAllKeys', 'deleteKey', 'deleteAllKeys'];

// RNPingDavinci (davinci/src/NativeRNPingDavinci.ts): every method is a promise; pollDaVinci's ticks arrive as
// com.pingidentity.rndavinci.PollingStatus events (the SDK's JS buffers ticks that come before its subscriptionId).
const PING_DAVINCI_METHODS = ['configureDaVinci', 'start', 'next', 'getSession', 'refresh', 'revoke', 'userinfo', 'logout',
  'dispose', 'pollDaVinci'];

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
  const { RNPingOath, RNPingLogger } = modulesWithSyncIds(call, { ios, wrap, created, newId });
  /** A module whose methods each send their arguments as they are (every method a promise on the device). */
  const passThrough = (moduleName, methods) => {
    const module = {};
    for (const name of methods) module[name] = wrap((...args) => call(`${moduleName}.${name}`, args));
    return module;
  };
  const RNPingDeviceClient = passThrough('RNPingDeviceClient', PING_DEVICE_CLIENT_METHODS);
  const RNPingPush = passThrough('RNPingPush', PING_PUSH_METHODS);
  const RNPingFido = passThrough('RNPingFido', PING_FIDO_METHODS);
  const RNPingDeviceProfile = passThrough('RNPingDeviceProfile', PING_DEVICE_PROFILE_METHODS);
  const RNPingDeviceId = passThrough('RNPingDeviceId', PING_DEVICE_ID_METHODS);
  const RNPingExternalIdp = passThrough('RNPingExternalIdp', PING_EXTERNAL_IDP_METHODS);
  const RNPingProtect = passThrough('RNPingProtect', PING_PROTECT_METHODS);
  const RNPingBinding = bindingModule(call, wrap, after);
  const RNPingDavinci = passThrough('RNPingDavinci', PING_DAVINCI_METHODS);

  const RNPingBrowser = {};
  RNPingBrowser.configure = wrap((config) => {
    if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new TypeError('config must be an object');
    call('RNPingBrowser.configure', [config]).catch(() => {});
  });
  RNPingBrowser.reset = wrap(() => { call('RNPingBrowser.reset', []).catch(() => {}); });
  RNPingBrowser.open = wrap((...args) => call('RNPingBrowser.open', args));

  for (const module of [RNPingJourney, RNPingOidc, RNPingStorage, RNPingOath, RNPingLogger, RNPingProtect, RNPingDeviceClient,
    RNPingBrowser, RNPingPush, RNPingFido, RNPingDeviceProfile, RNPingDeviceId, RNPingExternalIdp, RNPingBinding,
    RNPingDavinci]) {
    // What NativeEventEmitter requires of a module (RNPingPush's and RNPingBinding's events go through DeviceEventEmitter).
    module.addListener = () => {};
    module.removeListeners = () => {};
  }
  // The logger's TurboModule is registered as 'Logger' (logger/ios/RNPingLogger.mm exports the class Logger).
  return {
    RNPingJourney, RNPingOidc, RNPingStorage, RNPingOath, RNPingLogger, Logger: RNPingLogger, RNPingProtect, RNPingDeviceClient,
    RNPingBrowser, RNPingPush, RNPingFido, RNPingDeviceProfile, RNPingDeviceId,
    RNPingExternalIdp, RNPingBinding,
    RNPingDavinci,
  };
}

/**
 * RNPingOath and RNPingLogger, whose synchronous methods (registerOathPolicyEvaluator/configureOathPolicyEvaluator,
 * registerLogger/syncLogger) answer here at once, as on the device, and tell the daemon with the id picked; a
 * promise call naming such an id (create's policyEvaluatorId, loggerId, storageId) waits for that call.
 */
function modulesWithSyncIds(call, { ios, wrap, created, newId }) {
  const RNPingOath = {};
  for (const name of PING_OATH_METHODS.slice(0, 9)) {
    RNPingOath[name] = wrap((...args) => call(`RNPingOath.${name}`, args));
  }
  RNPingOath.create = wrap((config) => {
    const ids = [config?.storageId, config?.policyEvaluatorId, config?.loggerId].filter((id) => created.has(id));
    return Promise.all(ids.map((id) => created.get(id))).then(() => call('RNPingOath.create', [config]));
  });
  const evaluators = new Map(); // id → the descriptor configureOathPolicyEvaluator answers
  RNPingOath.registerOathPolicyEvaluator = wrap((config) => {
    if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new TypeError('config must be an object');
    const id = newId();
    const policies = Array.isArray(config.policies) ? config.policies.filter((kind) => OATH_POLICY_KINDS.includes(kind)) : [];
    evaluators.set(id, typeof config.loggerId === 'string' ? { policies, loggerId: config.loggerId } : { policies });
    created.set(id, call('RNPingOath.registerOathPolicyEvaluator', [config, id]));
    created.get(id).catch(() => {});
    return id;
  });
  RNPingOath.configureOathPolicyEvaluator = wrap((id) => {
    const descriptor = evaluators.get(id);
    if (descriptor) return { ...descriptor, policies: [...descriptor.policies] };
    // oath/ios/RNPingOathCommon.swift answers an empty descriptor; Android's error(…) throws.
    if (ios) return { policies: [] };
    throw thrown('IllegalStateException', 'No OATH policy evaluator registered for id');
  });

  const RNPingLogger = {};
  RNPingLogger.registerLogger = wrap((config) => {
    if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new TypeError('config must be an object');
    const id = newId();
    created.set(id, call('RNPingLogger.registerLogger', [config, id]));
    created.get(id).catch(() => {});
    return id;
  });
  // Sent at once: it follows the register call on the wire, and calls after it must see the new level.
  RNPingLogger.syncLogger = wrap((config) => { call('RNPingLogger.syncLogger', [config]).catch(() => {}); });
  return { RNPingOath, RNPingLogger };
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
  return module;
}

/** `NativeModules.<name>Classic` for each module (the old-architecture fallback every package's getNativeModule tries). */
function classicModules(modules) {
  const classic = {};
  for (const [name, module] of Object.entries(modules)) if (name.startsWith('RNPing')) classic[`${name}Classic`] = module;
  return classic;
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
  pingModules, turboModuleRegistry, classicModules, oidcConfigProblem, storageConfig, PING_JOURNEY_METHODS, PING_OIDC_METHODS, PING_STORAGE_METHODS,
  PING_OATH_METHODS, PING_LOGGER_METHODS, PING_PROTECT_METHODS,
  PING_DEVICE_CLIENT_METHODS, PING_BROWSER_METHODS,
  PING_PUSH_METHODS,
  PING_FIDO_METHODS, PING_DEVICE_PROFILE_METHODS, PING_DEVICE_ID_METHODS,
  PING_EXTERNAL_IDP_METHODS,
  PING_BINDING_METHODS,
  PING_DAVINCI_METHODS,
};
