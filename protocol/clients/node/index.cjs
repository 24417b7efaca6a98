// The reference JS host for AuthBridge: spawn the daemon and call it the way React Native or
// Flutter code calls the native module. No npm dependencies.
//
//   const { spawnBridge } = require('<authbridge>/protocol/clients/node/index.cjs');  // or import from index.mjs
//   const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
//   const step = JSON.parse(await bridge.login());
//
// See README.md in this folder, and docs/testing-with-jest.md.
'use strict';
const { accessSync, constants, existsSync, realpathSync, statSync } = require('node:fs');
const { basename, delimiter, dirname, join } = require('node:path');
const { Connection, RPCError } = require('./transport.cjs');
const {
  pingModules, turboModuleRegistry, classicModules,
  PING_JOURNEY_METHODS, PING_OIDC_METHODS, PING_STORAGE_METHODS, PING_OATH_METHODS, PING_LOGGER_METHODS,
  PING_PROTECT_METHODS, PING_DEVICE_CLIENT_METHODS, PING_BROWSER_METHODS, PING_PUSH_METHODS, PING_FIDO_METHODS,
  PING_DEVICE_PROFILE_METHODS, PING_DEVICE_ID_METHODS, PING_EXTERNAL_IDP_METHODS, PING_BINDING_METHODS,
  PING_DAVINCI_METHODS,
} = require('./ping.cjs');

const here = __dirname;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The platforms a binary package is built for, each `@authbridge/client-<platform>-<arch>`
 * (Node's `process.platform`-`process.arch`), listed in package.json's optionalDependencies so
 * that npm installs the one matching the machine and skips the others (their `os`/`cpu` fields).
 */
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64'];

/** The package that carries the daemon for this machine. */
function platformPackage(platform = process.platform, arch = process.arch) {
  return `@authbridge/client-${platform}-${arch}`;
}

/** The daemon inside the installed platform package (`bin/authbridge`), or undefined. */
function packagedBinary() {
  try {
    return join(dirname(require.resolve(`${platformPackage()}/package.json`)), 'bin', 'authbridge');
  } catch {
    return undefined;
  }
}

/** Why no daemon was found and what to install, for every "binary not found" message. */
function binaryNotFoundHint(platform = process.platform, arch = process.arch) {
  const elsewhere = 'set AUTHBRIDGE_BIN, or put authbridge on PATH (`make install PREFIX=…` in an AuthBridge checkout)';
  if (!PLATFORMS.includes(`${platform}-${arch}`)) {
    return `no @authbridge/client binary package is built for ${platform}-${arch} (only ${PLATFORMS.join(', ')}): `
      + `build authbridge from source, then ${elsewhere}`;
  }
  return `install ${platformPackage(platform, arch)} beside @authbridge/client (npm installs it as an optional `
    + 'dependency unless optional dependencies are omitted; `make pack` in an AuthBridge checkout packs both '
    + `tarballs, to install together); or ${elsewhere}`;
}

/**
 * Where the daemon is looked for, in order: `$AUTHBRIDGE_BIN`; `authbridge` on `PATH` (not this
 * package's own `bin` launcher); the platform package's binary (`@authbridge/client-<platform>-<arch>`,
 * an optional dependency); this checkout's debug build. Returns the path, or undefined.
 */
function findBinary(env = process.env) {
  if (env.AUTHBRIDGE_BIN) return env.AUTHBRIDGE_BIN;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'authbridge');
    if (!executable(candidate)) continue;
    if (basename(realpathSync(candidate)) === 'authbridge.cjs') continue; // a launcher, not the daemon
    return candidate;
  }
  for (const candidate of [packagedBinary(), join(here, '..', '..', '..', '.build', 'debug', 'authbridge')]) {
    if (candidate !== undefined && executable(candidate)) return candidate;
  }
  return undefined;
}

/** The binary spawnBridge uses when none is given (kept for older callers). */
const defaultBinary = () => findBinary();

/** The native module's methods, in the order the sample bridges declare them. */
const BRIDGE_METHODS = ['start', 'login', 'register', 'next', 'getUserInfo', 'getAccessToken', 'logout'];
const TOKEN_SYNC_METHODS = ['tokenSyncReady', 'tokenUpdate', 'exchangeToken'];
const EVENTS = ['TOKEN_EVENT', 'LOGOUT_EVENT', 'TOKEN_REQUEST_EVENT'];

/**
 * A native rejection as React Native hands it to JS: an Error whose `code` is the native code
 * (`Error`, `error`…) and whose `message` is the native message. JSON-RPC errors that are not
 * native rejections (bad arguments: −32602…) keep the numeric code, with `rpcCode` set on both.
 */
function toJSError(error) {
  if (!(error instanceof RPCError)) return error;
  const native = error.code === -32000 && error.data && typeof error.data.code === 'string';
  const jsError = new Error(error.message);
  jsError.code = native ? error.data.code : error.code;
  jsError.rpcCode = error.code;
  if (native && error.data.detail !== undefined) jsError.detail = error.data.detail;
  // The Ping modules' `userInfo` ({type, error, message…}): what PingError.from reads for `type`.
  if (native && error.data.userInfo !== undefined) jsError.userInfo = error.data.userInfo;
  if (!native && error.data !== undefined) jsError.data = error.data;
  return jsError;
}

/** Listeners per event name, shaped like React Native's NativeEventEmitter. */
class EventHub {
  #listeners = new Map();

  addListener(event, listener) {
    if (typeof listener !== 'function') throw new TypeError('addListener needs a function');
    if (!this.#listeners.has(event)) this.#listeners.set(event, new Set());
    const entry = (params) => listener(params);
    this.#listeners.get(event).add(entry);
    return { remove: () => this.#listeners.get(event)?.delete(entry) };
  }

  removeAllListeners(event) {
    if (event === undefined) this.#listeners.clear();
    else this.#listeners.delete(event);
  }

  listenerCount(event) { return this.#listeners.get(event)?.size ?? 0; }

  emit(event, params) {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) listener(params);
  }
}

/** The options spawnBridge knows; anything else is a mistake it names. */
const SPAWN_OPTIONS = ['flavor', 'bridge', 'seed', 'clock', 'stateDir', 'logLevel', 'trace', 'args', 'binary', 'onStderr', 'emitter'];

/** The closest known name within two edits, for "did you mean". */
function closest(name, known) {
  const distance = (a, b) => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length];
  };
  let best;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d <= 2 && (best === undefined || d < best.d)) best = { candidate, d };
  }
  return best?.candidate;
}

function checkOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`spawnBridge takes an options object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (SPAWN_OPTIONS.includes(key)) continue;
    const guess = closest(key, SPAWN_OPTIONS);
    throw new TypeError(`spawnBridge: unknown option "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; `
      + `the options are ${SPAWN_OPTIONS.join(', ')} (daemon flags go in args: ['--flag', 'value'])`);
  }
  if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((a) => typeof a !== 'string'))) {
    throw new TypeError('spawnBridge: args must be an array of strings, e.g. [\'--journeys\', \'journeys.json\']');
  }
}

/**
 * `AUTHBRIDGE_ARGS` split into words as a POSIX shell splits them: blanks separate words, '…'
 * keeps everything literally, "…" and a backslash escape. So a CI job can write
 * `AUTHBRIDGE_ARGS="--config 'ios/My App/FRAuthConfig.plist' --timeout 30"`.
 */
function splitArgs(text) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null; else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\') {
      word = (word ?? '') + (text[++i] ?? '');
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new Error(`AUTHBRIDGE_ARGS has an unterminated ${quote} quote: ${text}`);
  if (word !== null) words.push(word);
  return words;
}

/** The daemon's reason for refusing to start, without the usage text that follows it. */
function startFailure(stderr) {
  const text = stderr.trim();
  const usage = text.search(/\n\s*usage: authbridge/);
  return usage < 0 ? text : `${text.slice(0, usage).trim()} (authbridge --help lists the options)`;
}

/**
 * Starts a daemon and resolves when it answers `daemon.hello`. `$AUTHBRIDGE_ARGS`, when set, adds
 * daemon options after the ones given here (a CI job points the same suite at a tenant with it),
 * and the daemon started is then printed on stderr, so a job can see what it tested.
 * @param {{flavor?: string, seed?: number, clock?: 'system'|'virtual'|string, stateDir?: string,
 *          args?: string[], binary?: string, logLevel?: string, trace?: string, onStderr?: (text: string) => void}} options
 */
async function spawnBridge(options = {}) {
  checkOptions(options);
  const binary = options.binary ?? findBinary();
  if (binary === undefined) {
    throw new Error(`authbridge binary not found: ${binaryNotFoundHint()}`);
  }
  if (!existsSync(binary)) {
    const from = options.binary !== undefined ? 'the binary option' : 'AUTHBRIDGE_BIN';
    throw new Error(`authbridge binary not found at ${binary} (${from}): run \`swift build\` (or \`make build\`) in the `
      + `AuthBridge checkout if it is the debug build, or name another binary, or leave ${from} unset and ${binaryNotFoundHint()}`);
  }
  const args = [];
  if (options.flavor) args.push('--flavor', options.flavor);
  if (options.bridge) args.push('--bridge', options.bridge);
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.clock) args.push('--clock', options.clock);
  if (options.stateDir) args.push('--state-dir', options.stateDir);
  if (options.logLevel) args.push('--log-level', options.logLevel);
  if (options.trace) args.push('--trace', options.trace);
  args.push(...(options.args ?? []));
  const extra = splitArgs(process.env.AUTHBRIDGE_ARGS ?? '');
  args.push(...extra);

  const events = options.emitter ?? new EventHub();
  const connection = new Connection(binary, args, {
    onNotification: (method, params) => events.emit(method, params),
    onStderr: options.onStderr,
  });
  let hello;
  try {
    hello = await connection.request('daemon.hello');
  } catch (error) {
    if (error instanceof RPCError) throw error;
    // It exited before answering: stderr says why (the reason first, then the usage).
    const { code, signal } = await connection.exited;
    const failure = new Error(`authbridge exited (${signal ?? code}) before answering: ${startFailure(connection.stderr)}`
      + (extra.length > 0 ? ` [arguments: ${args.join(' ')}; from AUTHBRIDGE_ARGS: ${extra.join(' ')}]` : ''));
    failure.stderr = connection.stderr;
    failure.args = args;
    throw failure;
  }
  if (extra.length > 0) {
    const server = hello.server ?? {};
    process.stderr.write(`authbridge: started ${binary} ${args.join(' ')} (AUTHBRIDGE_ARGS added ${extra.join(' ')}): `
      + `server ${server.kind ?? 'unknown'}${server.url ? ` ${server.url}` : ''}\n`);
  }
  return new Bridge(connection, events, hello, options);
}

class Bridge {
  constructor(connection, events, hello, options = {}) {
    this.connection = connection;
    /** The options it was spawned with (respawn() reuses them). */
    this.options = options;
    /** What `daemon.hello` said: flavor, methods, events, server. */
    this.hello = hello;
    /** A NativeEventEmitter-like emitter fed by the daemon's events. */
    this.emitter = events;
    for (const method of [...BRIDGE_METHODS, ...TOKEN_SYNC_METHODS]) {
      this[method] = (...args) => this.call(method, args);
    }
    const named = (method) => (params) => this.request(method, params);
    this.emulator = {
      advanceClock: (seconds) => this.request('emulator.advanceClock', { seconds }),
      addUser: named('emulator.addUser'),
      nativeLogout: named('emulator.nativeLogout'),
      requestToken: named('emulator.requestToken'),
      revokeSession: (username) => this.request('emulator.revokeSession', username === undefined ? {} : { username }),
      expireTokens: (username) => this.request('emulator.expireTokens', { username }),
      state: named('emulator.state'),
      setServiceNames: named('emulator.setServiceNames'),
      setNodeOutcome: named('emulator.setNodeOutcome'),
      lastOneTimeCode: named('emulator.lastOneTimeCode'),
      lastFailure: named('emulator.lastFailure'),
      rotateSigningKeys: named('emulator.rotateSigningKeys'),
      lastSuspendedJourney: named('emulator.lastSuspendedJourney'),
      resumeJourney: (suspendedId) => this.request('emulator.resumeJourney', { suspendedId }),
      devices: (username) => this.request('emulator.devices', { username }),
      resetDevice: named('emulator.resetDevice'),
      cloneDevice: named('emulator.cloneDevice'),
      scanOath: named('emulator.scanOath'),
      oathCode: named('emulator.oathCode'),
      bindingKeys: named('emulator.bindingKeys'),
      deleteBindingKeys: named('emulator.deleteBindingKeys'),
      setBindingPrompts: named('emulator.setBindingPrompts'),
      answerBinding: named('emulator.answerBinding'),
      scanPush: named('emulator.scanPush'),
      pushNotifications: named('emulator.pushNotifications'),
      approvePush: named('emulator.approvePush'),
      denyPush: named('emulator.denyPush'),
      expirePush: named('emulator.expirePush'),
      lastPushNotification: named('emulator.lastPushNotification'),
      passkeys: named('emulator.passkeys'),
      answerWebAuthn: named('emulator.answerWebAuthn'),
      fault: named('emulator.fault'),
      faults: named('emulator.faults'),
      clearFaults: (id) => this.request('emulator.clearFaults', id === undefined ? {} : { id }),
      // Seed data in, state out (docs/seed.md): a document inline, or `{ path }` for a file.
      import: (document) => this.request('emulator.import',
        document && typeof document.path === 'string' && document.version === undefined ? { path: document.path } : { document }),
      export: named('emulator.export'),
      reset: named('emulator.reset'),
      davinciFlows: named('emulator.davinciFlows'),
      loadDavinciFlow: (flow) => this.request('emulator.loadDavinciFlow', { flow }),
      setConnectorOutcome: named('emulator.setConnectorOutcome'),
    };
    const bridge = this;
    /** `new NativeEventEmitter(module)` for code under test; every instance hears the daemon. */
    this.NativeEventEmitter = class NativeEventEmitter {
      constructor(nativeModule) { this.nativeModule = nativeModule; }
      addListener(event, listener) { return bridge.emitter.addListener(event, listener); }
      removeAllListeners(event) { bridge.emitter.removeAllListeners(event); }
      listenerCount(event) { return bridge.emitter.listenerCount(event); }
    };
    /**
     * React Native's `DeviceEventEmitter`, which RNPingPush's and RNPingBinding's JS listen on
     * (`com.pingidentity.rnpush.PushMessageReceived`, `RNPingBinding_PinRequired`…): the same daemon events.
     */
    this.DeviceEventEmitter = {
      addListener: (event, listener) => bridge.emitter.addListener(event, listener),
      removeAllListeners: (event) => bridge.emitter.removeAllListeners(event),
      listenerCount: (event) => bridge.emitter.listenerCount(event),
    };
  }

  /** The process id, for tests that signal it. */
  get pid() { return this.connection.pid; }
  /** Everything the daemon wrote to stderr so far (logs, never results). */
  get stderr() { return this.connection.stderr; }

  /** A bridge method by name with positional arguments, rejecting as React Native does. */
  async call(method, args = []) {
    try {
      return await this.connection.request(method, args);
    } catch (error) {
      throw toJSError(error);
    }
  }

  /** Any JSON-RPC method with named params (daemon.*, emulator.*). */
  async request(method, params) {
    try {
      return await this.connection.request(method, params);
    } catch (error) {
      throw toJSError(error);
    }
  }

  /**
   * Flutter's `MethodChannel.invokeMethod(name, arguments)`: one optional argument, passed as
   * the method's single positional parameter.
   */
  invokeMethod(name, argument) {
    return this.call(name, argument === undefined ? [] : [argument]);
  }

  /**
   * `NativeModules` for `jest.mock('react-native', …)`: the FRAuth bridge, and the seed app's
   * token modules. Each has `addListener`/`removeListeners`, which `new NativeEventEmitter(module)`
   * requires of a module.
   */
  nativeModules() {
    const withEvents = (methods) => {
      const module = {};
      for (const name of methods) module[name] = (...args) => this.call(name, args);
      module.addListener = () => {};
      module.removeListeners = () => {};
      return module;
    };
    return {
      FRAuthSampleBridge: withEvents(BRIDGE_METHODS),
      AuthenticationTokenModule: withEvents(['tokenSyncReady', 'tokenUpdate', 'logout']),
      HydraTokenExchangeModule: withEvents(['exchangeToken']),
      ...classicModules(this.pingModules()),
    };
  }

  /**
   * The Ping SDK's TurboModules, `{ RNPingJourney, RNPingOidc, RNPingStorage }`, calling this daemon
   * (created once per bridge, so ids from createClient and the register calls stay known). See ping.cjs.
   */
  pingModules() {
    this.ping ??= pingModules((method, args) => this.call(method, args), { flavor: this.hello.flavor });
    return this.ping;
  }

  /** `TurboModuleRegistry` for `jest.mock('react-native', …)`: get('RNPingJourney'|'RNPingOidc'|'RNPingStorage'). */
  turboModuleRegistry() { return turboModuleRegistry(this.pingModules()); }

  /** Ends the daemon (stdin EOF: it finishes what is in flight and exits 0) and waits for it. */
  close() { return this.connection.close(); }

  /**
   * A fresh daemon with the same options (and the same emitter, so listeners carry over), after
   * this one has ended: a clean state in a few milliseconds. Resolves the new Bridge.
   */
  async respawn(overrides = {}) {
    await this.close();
    return spawnBridge({ ...this.options, emitter: this.emitter, ...overrides });
  }
}

module.exports = {
  spawnBridge, findBinary, PLATFORMS, platformPackage, binaryNotFoundHint, EventHub, RPCError, defaultBinary, BRIDGE_METHODS, TOKEN_SYNC_METHODS, EVENTS,
  // Every Ping module's method names (listed by name, so ES imports see them).
  PING_JOURNEY_METHODS, PING_OIDC_METHODS, PING_STORAGE_METHODS, PING_OATH_METHODS, PING_LOGGER_METHODS,
  PING_PROTECT_METHODS, PING_DEVICE_CLIENT_METHODS, PING_BROWSER_METHODS, PING_PUSH_METHODS, PING_FIDO_METHODS,
  PING_DEVICE_PROFILE_METHODS, PING_DEVICE_ID_METHODS, PING_EXTERNAL_IDP_METHODS, PING_BINDING_METHODS,
  PING_DAVINCI_METHODS,
};
