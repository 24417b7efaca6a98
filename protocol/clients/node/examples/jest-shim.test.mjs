// Runs the Jest example (jest.setup.js + auth.spec.js) under node --test with a minimal stand-in
// for Jest's globals, so the example in docs/testing-with-jest.md is executed by `make test` and
// cannot rot. No npm here, so no Jest itself: only what the example uses is implemented.
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
    return originalLoad.call(this, request, parent, isMain);
  };
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
    jest: { mock: (name, factory) => mockFactories.set(name, factory) },
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
    for (const name of Object.keys(globals)) delete globalThis[name];
    delete globalThis.authbridge;
    for (const file of files) delete require.cache[require.resolve(file)];
    delete require.cache[require.resolve('./auth.js')];
  }
  return results;
}

test('the Jest example in docs/testing-with-jest.md passes', async () => {
  const results = await runJestFiles(['./jest.setup.js', './auth.spec.js']);
  assert.equal(results.length, 5);
  for (const result of results) assert.ok(result.ok, `${result.name}: ${result.error?.stack ?? result.error}`);
});

test('the shim fails a failing test (so the example is really checked)', async () => {
  const expect = makeExpect();
  assert.throws(() => expect(1).toBe(2));
  assert.throws(() => expect({ a: 1 }).toMatchObject({ a: 2 }));
  await assert.rejects(expect(Promise.resolve(1)).rejects.toMatchObject({}));
  await assert.rejects(expect(Promise.reject(new Error('x'))).rejects.toMatchObject({ message: 'y' }));
});
