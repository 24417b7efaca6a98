// The Jest helpers' lifecycle without Jest: beforeAll/afterAll stand-ins collect the hooks
// setupAuthBridge registers, and the test runs them as Jest would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function withHooks(body) {
  const hooks = { beforeAll: [], afterAll: [] };
  globalThis.beforeAll = (fn) => hooks.beforeAll.push(fn);
  globalThis.afterAll = (fn) => hooks.afterAll.push(fn);
  try {
    return body(hooks);
  } finally {
    delete globalThis.beforeAll;
    delete globalThis.afterAll;
  }
}

test('a daemon that failed to start in setupAuthBridge: every later call repeats why, not a second story', async () => {
  const jestHelpers = require('./jest.cjs');
  const hooks = withHooks((h) => { jestHelpers.setupAuthBridge({ args: ['--flavor', 'rn-windows'] }); return h; });
  const failure = await hooks.beforeAll[0]().then(() => null, (e) => e);
  assert.match(failure.message, /^authbridge exited \(2\) before answering: .*rn-windows/);
  assert.doesNotMatch(failure.message, /usage:/);
  assert.throws(() => jestHelpers.bridge(), (error) => {
    assert.equal(error.message, `AuthBridge did not start for this test file: ${failure.message}`);
    assert.equal(error.cause, failure);
    return true;
  });
  await hooks.afterAll[0]();
  assert.throws(() => jestHelpers.bridge(), /AuthBridge is not running in this test file: call setupAuthBridge\(\)/);
});

test('a later successful start forgets the earlier failure', async () => {
  const jestHelpers = require('./jest.cjs');
  await assert.rejects(jestHelpers.startAuthBridge({ args: ['--bogus'] }));
  const bridge = await jestHelpers.startAuthBridge({ seed: 1 });
  try {
    assert.equal(jestHelpers.bridge(), bridge);
  } finally {
    await jestHelpers.stopAuthBridge();
  }
});
