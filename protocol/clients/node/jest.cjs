// @authbridge/client/jest: AuthBridge in a Jest suite, as a team copies it.
//
//   // jest.setup.js (setupFilesAfterEnv)
//   const authbridge = require('@authbridge/client/jest');
//   authbridge.setupAuthBridge({ seed: 7, clock: 'virtual' });     // a fresh daemon per test file
//   jest.mock('react-native', () => require('@authbridge/client/jest').reactNativeMock());
//
// Jest evaluates setup files in every test file's environment, inside the worker that runs it:
// each worker has one daemon at a time, started before the file's tests and ended after them, so
// every test file starts from a clean state and parallel workers never share one. The state
// lives on the environment's global, so jest.resetModules() does not lose the daemon.
'use strict';
const { spawnBridge, EventHub, BRIDGE_METHODS } = require('./index.cjs');
const { pingModules, turboModuleRegistry, classicModules } = require('./ping.cjs');

function state() {
  globalThis.__authbridgeJest ??= { hub: new EventHub(), current: null, failure: null };
  return globalThis.__authbridgeJest;
}

/** The daemon of the running test file. */
function bridge() {
  const { current, failure } = state();
  if (!current && failure) {
    // Jest still runs a file's tests after its beforeAll failed: repeat why, not a second story.
    const error = new Error(`AuthBridge did not start for this test file: ${failure.message}`);
    error.cause = failure;
    throw error;
  }
  if (!current) {
    throw new Error('AuthBridge is not running in this test file: call setupAuthBridge() in a setupFilesAfterEnv file '
      + '(or await startAuthBridge() in beforeAll)');
  }
  return current;
}

function adopt(next) {
  state().current = next;
  globalThis.authbridge = next;
  return next;
}

/** Starts this test file's daemon (events go to the file's NativeEventEmitter stand-ins). */
async function startAuthBridge(options = {}) {
  if (state().current) await stopAuthBridge();
  state().failure = null;
  try {
    return adopt(await spawnBridge({ ...options, emitter: state().hub }));
  } catch (error) {
    state().failure = error;
    throw error;
  }
}

/** Ends this test file's daemon and waits for it. */
async function stopAuthBridge() {
  const current = state().current;
  state().current = null;
  state().failure = null;
  if (globalThis.authbridge === current) delete globalThis.authbridge;
  if (current) await current.close();
}

/**
 * A fresh daemon, same options, same listeners: a clean state in a few milliseconds, for a test
 * (or a beforeEach) that needs one. Resolves the new bridge (also `globalThis.authbridge`).
 */
async function respawn(overrides = {}) {
  return adopt(await bridge().respawn(overrides));
}

/** Registers beforeAll (start) and afterAll (stop) for the current test file. */
function setupAuthBridge(options = {}) {
  beforeAll(() => startAuthBridge(options));
  afterAll(() => stopAuthBridge());
  return { bridge, respawn };
}

const RN_MODULES = {
  FRAuthSampleBridge: BRIDGE_METHODS,
  AuthenticationTokenModule: ['tokenSyncReady', 'tokenUpdate', 'logout'],
  HydraTokenExchangeModule: ['exchangeToken'],
};

/**
 * The `react-native` module for `jest.mock('react-native', () => …)`: `NativeModules` as plain
 * objects holding the native methods under their real names (so `jest.spyOn(module, 'login')`
 * and its `mockRejectedValueOnce`… work, and a misspelled method is `undefined`), each method
 * calling the running daemon when called; `NativeEventEmitter` fed by the daemon's events;
 * `Platform.OS` from the flavor. Pass `{ jest }` to get each method as a `jest.fn` instead
 * (then `NativeModules.FRAuthSampleBridge.login.mockRejectedValueOnce(…)` works directly; with
 * `resetMocks: true` in the Jest config prefer the plain functions and spyOn).
 * `extra` is merged into the returned module (e.g. `jest.requireActual('react-native')` parts).
 */
function reactNativeMock({ flavor = 'rn-ios', jest: jestObject, extra = {} } = {}) {
  if (flavor !== 'rn-ios' && flavor !== 'rn-android') {
    throw new Error(`reactNativeMock: flavor ${flavor} is not React Native (rn-ios or rn-android); a Flutter host calls bridge.invokeMethod`);
  }
  const method = (name) => {
    const forward = (...args) => bridge().call(name, args);
    return jestObject ? jestObject.fn(forward) : forward;
  };
  const NativeModules = {};
  for (const [moduleName, methods] of Object.entries(RN_MODULES)) {
    const nativeModule = {};
    for (const name of methods) nativeModule[name] = method(name);
    // What React Native's NativeEventEmitter requires of a module.
    nativeModule.addListener = () => {};
    nativeModule.removeListeners = () => {};
    NativeModules[moduleName] = nativeModule;
  }
  class NativeEventEmitter {
    constructor(nativeModule) { this.nativeModule = nativeModule; }
    addListener(event, listener) { return state().hub.addListener(event, listener); }
    removeAllListeners(event) { state().hub.removeAllListeners(event); }
    listenerCount(event) { return state().hub.listenerCount(event); }
  }
  // The Ping SDK's modules: TurboModuleRegistry.get('RNPingJourney') and the classic fallbacks
  // NativeModules.RNPingJourneyClassic, RNPingOidcClassic… are the same objects.
  const ping = pingModules((name, args) => bridge().call(name, args), { flavor, jest: jestObject });
  Object.assign(NativeModules, classicModules(ping));
  // RNPingPush's and RNPingBinding's JS listen on DeviceEventEmitter: the same daemon events.
  const DeviceEventEmitter = {
    addListener: (event, listener) => state().hub.addListener(event, listener),
    removeAllListeners: (event) => state().hub.removeAllListeners(event),
    listenerCount: (event) => state().hub.listenerCount(event),
  };
  const TurboModuleRegistry = turboModuleRegistry(ping);
  const OS = flavor === 'rn-android' ? 'android' : 'ios';
  const Platform = { OS, select: (choices) => (OS in choices ? choices[OS] : choices.default) };
  return { ...extra, NativeModules, NativeEventEmitter, DeviceEventEmitter, Platform, TurboModuleRegistry };
}

// Every fakeable API but Date: the daemon's answers arrive through real I/O and timers.
const NOT_DATE = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame',
  'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval',
  'setTimeout', 'clearTimeout'];

/**
 * Puts Jest's clock on the daemon's (start it with `clock: 'virtual'`): fakes `Date` only (pass
 * `fakeTimers` to fake more) with `Date.now()` at the daemon's now, so app code comparing
 * `expiresAt * 1000` with `Date.now()` sees what a device would. Resolves the time (Unix s).
 */
async function useDaemonClock(jestObject, fakeTimers = { doNotFake: NOT_DATE }) {
  const { now } = await bridge().emulator.state();
  jestObject.useFakeTimers({ ...fakeTimers, now: Math.round(now * 1000) });
  return now;
}

/** Sets Jest's fake system time to the daemon's now (fake timers already installed). */
async function syncClock(jestObject) {
  const { now } = await bridge().emulator.state();
  jestObject.setSystemTime(Math.round(now * 1000));
  return now;
}

/** Moves the daemon's virtual clock and Jest's fake system time together. Resolves the new now. */
async function advanceClock(jestObject, seconds) {
  const { now } = await bridge().emulator.advanceClock(seconds);
  jestObject.setSystemTime(Math.round(now * 1000));
  return now;
}

module.exports = {
  setupAuthBridge, startAuthBridge, stopAuthBridge, respawn, bridge, reactNativeMock,
  useDaemonClock, syncClock, advanceClock,
};
