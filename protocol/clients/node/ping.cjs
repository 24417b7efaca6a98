// The successor SDK's TurboModules (RNPingJourney, RNPingOidc) as plain JS objects that call the
// daemon: what `TurboModuleRegistry.get('RNPingJourney')` or `NativeModules.RNPingJourneyClassic`
// hands the Ping React Native SDK's JS. Methods are own properties (spy-able with jest.spyOn).
//
// createClient/createWebClient are synchronous on the device. Here the stand-in checks the config
// as the native parser does (so a bad one throws at once, as on the device), picks the id itself,
// sends the create call with that id, and makes every later call naming the id wait for it.
'use strict';
const { randomUUID } = require('node:crypto');

const PING_JOURNEY_METHODS = ['configureJourney', 'start', 'next', 'resume', 'getSession', 'refresh', 'revoke', 'userinfo',
  'ssoToken', 'logout', 'dispose'];
const PING_OIDC_METHODS = ['createClient', 'createWebClient', 'disposeClient', 'disposeWebClient', 'clientToken', 'clientRefresh',
  'clientUserinfo', 'clientRevoke', 'clientEndSession', 'authorize', 'hasUser', 'token', 'refresh', 'userinfo', 'revoke', 'logout'];

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
 * `{ RNPingJourney, RNPingOidc }` calling `call(wireName, args)`. `flavor` decides id case and
 * the thrown exception's shape (iOS NSException, Android IllegalArgumentException).
 */
function pingModules(call, { flavor = 'rn-ios', jest: jestObject } = {}) {
  const ios = flavor !== 'rn-android';
  const wrap = (fn) => (jestObject ? jestObject.fn(fn) : fn);
  const created = new Map(); // id → the create call's promise
  const after = (id, send) => (created.has(id) ? created.get(id).then(send) : send());

  const RNPingJourney = {};
  for (const name of PING_JOURNEY_METHODS) {
    RNPingJourney[name] = wrap((...args) => call(`RNPingJourney.${name}`, args));
  }

  const RNPingOidc = {};
  const newId = () => (ios ? randomUUID().toUpperCase() : randomUUID());
  const exception = (reason) => (ios
    ? thrown('NSInvalidArgumentException', `Invalid OIDC client config: ${reason}`)
    : thrown('IllegalArgumentException', reason));
  RNPingOidc.createClient = wrap((config) => {
    const problem = oidcConfigProblem(config, ios);
    if (problem) throw exception(problem);
    const id = newId();
    created.set(id, call('RNPingOidc.createClient', [config, id]));
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
  for (const module of [RNPingJourney, RNPingOidc]) {
    // What NativeEventEmitter requires of a module (these modules emit no events).
    module.addListener = () => {};
    module.removeListeners = () => {};
  }
  return { RNPingJourney, RNPingOidc };
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

module.exports = { pingModules, turboModuleRegistry, oidcConfigProblem, PING_JOURNEY_METHODS, PING_OIDC_METHODS };
