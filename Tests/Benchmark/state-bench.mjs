// `make bench`, issue 16's rows: what a growing state costs. A mixed soak (full login journeys,
// token exchanges, abandoned logins) with RSS at checkpoints, and a login journey's cost with a
// state directory, empty and holding 10,000 users, against the same journey without one plus the
// fsyncs its durable writes need (one fsync measured on the same disk in the same run).
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Connection } from '../../protocol/clients/node/transport.mjs';

const LOGIN_PAYLOAD = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] },
] });
const rssMB = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')).split(/\s+/)[1]) / 1024;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** Writes `count` requests of one method and params at once and waits for every reply. */
async function pipeline(connection, count, method, params) {
  const first = connection.nextId;
  connection.nextId += count;
  const waits = [];
  const body = params === undefined ? '' : `,"params":${JSON.stringify(params)}`;
  const lines = [];
  for (let i = 0; i < count; i++) {
    waits.push(connection.expect(first + i).catch(() => null));
    lines.push(`{"jsonrpc":"2.0","id":${first + i},"method":"${method}"${body}}\n`);
  }
  connection.writeRaw(lines.join(''));
  await Promise.all(waits);
}

/**
 * Blocks of: a full login journey whose access token then buys 50 token exchanges (grants that
 * are never logged out), getUserInfo, logout, then 50 logins left unanswered (abandoned
 * journeys): 104 requests, repeated up to `total`. RSS is read at each checkpoint.
 */
export async function mixedSoak(binary, args, total, checkpoints) {
  const connection = new Connection(binary, args);
  await connection.request('start', []);
  const curve = [];
  let sent = 1;
  let next = 0;
  const started = performance.now();
  while (sent < total) {
    await connection.request('login', []);
    const success = await connection.request('next', [LOGIN_PAYLOAD]);
    const subject = JSON.parse(success.tokens).value;
    await pipeline(connection, 50, 'exchangeToken', [subject]);
    await connection.request('getUserInfo', []);
    await connection.request('logout', []);
    await pipeline(connection, 50, 'login', []);
    sent += 104;
    while (next < checkpoints.length && sent >= checkpoints[next]) {
      curve.push({ requests: checkpoints[next], rssMB: rssMB(connection.pid) });
      next += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await connection.close();
  return { curve, requestsPerSecond: sent / seconds };
}

async function journeysPerSecond(connection, count) {
  await connection.request('start', []);
  const run = async () => {
    await connection.request('login', []);
    await connection.request('next', [LOGIN_PAYLOAD]);
    await connection.request('getUserInfo', []);
    await connection.request('logout', []);
  };
  for (let i = 0; i < 10; i++) await run();
  const start = performance.now();
  for (let i = 0; i < count; i++) await run();
  return count / ((performance.now() - start) / 1000);
}

/** One fsync of a small write, median of 50, on the disk the state directories use. */
function fsyncMicros(dir) {
  const fd = openSync(join(dir, 'fsync-probe'), 'w');
  const times = [];
  for (let i = 0; i < 50; i++) {
    writeSync(fd, 'x'.repeat(200));
    const start = process.hrtime.bigint();
    fsyncSync(fd);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  closeSync(fd);
  return median(times);
}

/** Login journeys/s with no state directory, an empty one, and one holding `users` users. */
export async function stateDirCosts(binary, args, journeys, users) {
  const root = mkdtempSync(join(tmpdir(), 'authbridge-state-bench-'));
  try {
    const rate = async (extra, prepare) => {
      const connection = new Connection(binary, [...args, ...extra]);
      if (prepare) await prepare(connection);
      const value = await journeysPerSecond(connection, journeys);
      await connection.close();
      return value;
    };
    const none = await rate([]);
    const empty = await rate(['--state-dir', join(root, 'empty')]);
    const full = await rate(['--state-dir', join(root, 'full')], async (connection) => {
      for (let i = 0; i < users; i += 1000) {
        const first = connection.nextId;
        connection.nextId += 1000;
        const waits = [];
        const lines = [];
        for (let k = 0; k < 1000; k++) {
          waits.push(connection.expect(first + k));
          lines.push(JSON.stringify({ jsonrpc: '2.0', id: first + k, method: 'emulator.addUser', params: { username: `user${i + k}`, password: 'Passw0rd!' } }) + '\n');
        }
        connection.writeRaw(lines.join(''));
        await Promise.all(waits);
      }
    });
    return { none, empty, full, fsyncMicros: fsyncMicros(root) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
