// The inspector with a --state-dir (docs/inspector.md): what a person does from the page (through
// the admin API, as the page does) is written to the state directory like any other change, so a
// daemon started again on the directory shows it, and a reset from the page goes back to the
// state the daemon started from, not to the built-in default.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnBridge } from '../clients/node/index.mjs';

/** A daemon on `stateDir` with its HTTP face on loopback, and its inspector's and admin API's URLs. */
async function daemonOn(stateDir) {
  const bridge = await spawnBridge({ seed: 3, clock: 'virtual', stateDir, args: ['--http', '127.0.0.1:0'] });
  const inspector = bridge.hello.http.inspector;
  assert.ok(inspector, 'daemon.hello names the inspector');
  const origin = new URL(inspector).origin;
  const admin = async (method, path, body) => {
    const response = await fetch(`${origin}/emulator/v1/${path}`, {
      method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
    return response;
  };
  const state = async () => (await fetch(`${inspector}state`)).json();
  return { bridge, admin, state };
}

const userNamed = (state, username) => state.users.find((user) => user.username === username);

test('actions taken from the page outlive a restart on the same --state-dir, and reset returns to its start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'inspector-state-'));
  try {
    const first = await daemonOn(join(dir, 'state'));
    try {
      await first.admin('POST', 'users', { username: 'ada', password: 'Lovelace-1815' });
      await first.admin('PATCH', 'users/ada', { lock: { until: null } });
      assert.equal(userNamed(await first.state(), 'ada').locked, true);
      await first.admin('POST', 'clock/advance', { seconds: 120 });
    } finally {
      await first.bridge.close();
    }

    const second = await daemonOn(join(dir, 'state'));
    try {
      const shown = await second.state();
      assert.equal(userNamed(shown, 'ada')?.locked, true, 'the user added and locked from the page is back, locked');
      // The page's Unlock, then the page's Reset: the start of this run had ada locked.
      await second.admin('PATCH', 'users/ada', { lock: null });
      assert.equal(userNamed(await second.state(), 'ada').locked, false);
      await second.admin('POST', 'reset', {});
      assert.equal(userNamed(await second.state(), 'ada')?.locked, true, 'reset restores the state this daemon started from');
      // No password or hash of it reaches the page, from a state directory either.
      assert.doesNotMatch(JSON.stringify(await second.state()), /Lovelace-1815|pbkdf2|\$2[aby]\$/i);
    } finally {
      await second.bridge.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
