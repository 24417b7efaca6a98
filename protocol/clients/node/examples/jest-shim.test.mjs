// Runs the Jest example (jest.setup.js + auth.spec.js, tokens.spec.js) under node --test with a
// minimal stand-in for Jest's globals, so the example in docs/testing-with-jest.md is executed by
// `make test` even where Jest is not installed (jest-real.test.mjs runs it under real Jest when it
// is). Only what the example uses is implemented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module, { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);

function matches(actual, expected) {
  if (typeof expected !== 'object' || expected === null) return Object.is(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) => matches(actual[key], value));
}

function makeExpect() {
  const matchers = (actual, negate = false) => {
    const check = (pass, message) => { if (pass === negate) throw new assert.AssertionError({ message: (negate ? 'not: ' : '') + message }); };
    const api = {
      toBe: (expected) => check(Object.is(actual, expected), `expected ${JSON.stringify(actual)} to be ${JSON.stringify(expected)}`),
      toEqual: (expected) => check(isDeepStrictEqual(actual, expected), `expected ${JSON.stringify(actual)} to equal ${JSON.stringify(expected)}`),
      toMatch: (pattern) => check(typeof actual === 'string' && new RegExp(pattern).test(actual), `expected ${JSON.stringify(actual)} to match ${pattern}`),
      toMatchObject: (expected) => check(matches(actual, expected), `expected ${JSON.stringify(actual)} to match ${JSON.stringify(expected)}`),
      toBeUndefined: () => check(actual === undefined, `expected ${typeof actual} to be undefined`),
      toBeGreaterThan: (n) => check(actual > n, `expected ${actual} to be greater than ${n}`),
      toHaveBeenCalledTimes: (n) => check(actual?.mock?.calls?.length === n, `expected ${actual?.mock?.calls?.length} calls to be ${n}`),
    };
    return api;
  };
  const expect = (actual) => ({
    ...matchers(actual),
    not: matchers(actual, true),
    rejects: new Proxy({}, {
      get: (_, name) => async (...args) => {
        let error;
        try { await actual; } catch (e) { error = e; }
        if (error === undefined) throw new assert.AssertionError({ message: 'expected the promise to reject' });
        matchers(error)[name](...args);
      },
    }),
  });
  return expect;
}

/** jest.spyOn: replaces a method with a recording wrapper that calls through unless told otherwise. */
function spyOn(object, name) {
  const original = object[name];
  if (typeof original !== 'function') throw new TypeError(`Cannot spy on ${String(name)}: not a function`);
  const once = [];
  const spy = function (...args) {
    spy.mock.calls.push(args);
    const next = once.shift();
    return next ? next.apply(this, args) : original.apply(this, args);
  };
  spy.mock = { calls: [] };
  spy.mockRejectedValueOnce = (value) => { once.push(() => Promise.reject(value)); return spy; };
  spy.mockResolvedValueOnce = (value) => { once.push(() => Promise.resolve(value)); return spy; };
  spy.mockImplementationOnce = (fn) => { once.push(fn); return spy; };
  spy.mockRestore = () => { object[name] = original; };
  object[name] = spy;
  return spy;
}

/** jest.useFakeTimers({ now }) for Date only (what the example fakes), setSystemTime, useRealTimers. */
function fakeClock() {
  const RealDate = globalThis.Date;
  let now = null;
  const install = () => {
    class FakeDate extends RealDate {
      constructor(...args) { if (args.length === 0) super(now); else super(...args); }
      static now() { return now; }
    }
    globalThis.Date = FakeDate;
  };
  return {
    useFakeTimers: (config = {}) => { now = config.now ?? RealDate.now(); install(); },
    setSystemTime: (time) => { if (now === null) throw new Error('setSystemTime needs fake timers'); now = Number(time); },
    useRealTimers: () => { globalThis.Date = RealDate; now = null; },
  };
}

/** What the example's jest.config.js moduleNameMapper does. */
const packageNames = {
  '@authbridge/client': require.resolve('../index.cjs'),
  '@authbridge/client/jest': require.resolve('../jest.cjs'),
};

/** Loads setup and test files with Jest-like globals; returns the results of every test. */
async function runJestFiles(files) {
  const mocks = new Map();
  const mockFactories = new Map();
  const originalLoad = Module._load;
  Module._load = function (request, parent, isMain) {
    if (mockFactories.has(request)) {
      if (!mocks.has(request)) mocks.set(request, mockFactories.get(request)());
      return mocks.get(request);
    }
    if (request in packageNames) request = packageNames[request];
    return originalLoad.call(this, request, parent, isMain);
  };
  const clock = fakeClock();
  const root = { name: '', tests: [], children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
  let current = root;
  const globals = {
    describe: (name, body) => {
      const block = { name, tests: [], children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [], parent: current };
      current.children.push(block);
      current = block;
      body();
      current = block.parent;
    },
    test: (name, fn) => current.tests.push({ name, fn }),
    beforeAll: (fn) => current.beforeAll.push(fn),
    afterAll: (fn) => current.afterAll.push(fn),
    beforeEach: (fn) => current.beforeEach.push(fn),
    afterEach: (fn) => current.afterEach.push(fn),
    expect: makeExpect(),
    jest: { mock: (name, factory) => mockFactories.set(name, factory), spyOn, ...clock },
  };
  globals.it = globals.test;
  Object.assign(globalThis, globals);
  const results = [];
  try {
    for (const file of files) require(file);
    const run = async (block, eachBefore, eachAfter) => {
      for (const fn of block.beforeAll) await fn();
      const before = [...eachBefore, ...block.beforeEach];
      const after = [...block.afterEach, ...eachAfter];
      for (const { name, fn } of block.tests) {
        try {
          for (const hook of before) await hook();
          await fn();
          for (const hook of after) await hook();
          results.push({ name, ok: true });
        } catch (error) {
          results.push({ name, ok: false, error });
        }
      }
      for (const child of block.children) await run(child, before, after);
      for (const fn of block.afterAll) await fn();
    };
    await run(root, [], []);
  } finally {
    Module._load = originalLoad;
    clock.useRealTimers();
    for (const name of Object.keys(globals)) delete globalThis[name];
    delete globalThis.authbridge;
    delete globalThis.__authbridgeJest;
    for (const file of files) delete require.cache[require.resolve(file)];
    for (const file of ['./auth.js', '../jest.cjs']) delete require.cache[require.resolve(file)];
  }
  return results;
}

// Each test file in its own environment, as Jest runs them.
for (const [spec, count] of [['./auth.spec.js', 6], ['./tokens.spec.js', 2]]) {
  test(`the Jest example in docs/testing-with-jest.md passes under the stand-in: ${spec}`, async () => {
    const results = await runJestFiles(['./jest.setup.js', spec]);
    assert.equal(results.length, count);
    for (const result of results) assert.ok(result.ok, `${result.name}: ${result.error?.stack ?? result.error}`);
  });
}

test('the shim fails a failing test (so the example is really checked)', async () => {
  const expect = makeExpect();
  assert.throws(() => expect(1).toBe(2));
  assert.throws(() => expect({ a: 1 }).toMatchObject({ a: 2 }));
  await assert.rejects(expect(Promise.resolve(1)).rejects.toMatchObject({}));
  await assert.rejects(expect(Promise.reject(new Error('x'))).rejects.toMatchObject({ message: 'y' }));
});
