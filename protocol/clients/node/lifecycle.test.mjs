// Nothing left running: a host that forgets close() still exits by itself, and takes its
// daemons with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const client = fileURLToPath(new URL('./index.cjs', import.meta.url));

/** Whether a process is still running (a zombie waiting to be reaped is not). */
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid, withinMs = 3000) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!running(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** Runs a Node script; resolves its exit code and stdout, or rejects if it is still running after `ms`. */
function runScript(source, ms = 10000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the script did not exit within ${ms} ms: a daemon kept it alive (stdout: ${out})`));
    }, ms);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out }); });
  });
}

test('a script that never calls close() exits by itself, and its daemons end with it', async () => {
  const { code, out } = await runScript(`
    const { spawnBridge } = require(${JSON.stringify(client)});
    (async () => {
      const a = await spawnBridge({ seed: 7, clock: 'virtual' });
      const b = await spawnBridge({ flavor: 'rn-android' });
      await a.start();
      await a.login();
      await b.start();
      console.log(JSON.stringify([a.pid, b.pid]));
      // no close(): the script's last line
    })();
  `);
  assert.equal(code, 0);
  const pids = JSON.parse(out.trim());
  assert.equal(pids.length, 2);
  for (const pid of pids) assert.ok(await gone(pid), `authbridge ${pid} is still running`);
});

test('top-level await on a pending answer still gets the answer (the daemon is referenced while busy)', async () => {
  // A daemon that takes a while to answer start(): the script must wait for it, not exit early.
  const { code, out } = await runScript(`
    const { spawnBridge } = require(${JSON.stringify(client)});
    spawnBridge({ args: ['--start-delay', '0.3'] }).then(async (bridge) => {
      const started = await bridge.start();
      console.log(JSON.stringify({ started, pid: bridge.pid }));
    });
  `);
  assert.equal(code, 0);
  const { started, pid } = JSON.parse(out.trim());
  assert.equal(started, 'SDK initialized');
  assert.ok(await gone(pid));
});

test('process.exit() with a daemon in the middle of a call ends the daemon too', async () => {
  const { code, out } = await runScript(`
    const { spawnBridge } = require(${JSON.stringify(client)});
    spawnBridge({ args: ['--start-delay', '5'] }).then((bridge) => {
      bridge.start();
      console.log(bridge.pid);
      setTimeout(() => process.exit(3), 100);
    });
  `);
  assert.equal(code, 3);
  assert.ok(await gone(Number(out.trim())), 'the exit hook ended the daemon');
});
