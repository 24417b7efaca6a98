// What every bench file measures with: the login payload, order statistics, a process's RSS and
// CPU time, pipelined requests and the built-in Login journey as the host drives it.
import { readdirSync, readFileSync } from 'node:fs';

export const LOGIN_PAYLOAD = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] },
] });

export const percentile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
export const median = (xs) => percentile(xs, 0.5);

export const rssMB = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')).split(/\s+/)[1]) / 1024;

/**
 * CPU time the process has run on, every thread, in µs. schedstat counts nanoseconds, where
 * utime/stime in /proc/PID/stat count 10 ms ticks: too coarse for a few hundred µs of work.
 */
export function cpuMicros(pid) {
  let nanos = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  }
  return nanos / 1000;
}

/**
 * Writes one request per entry of `paramsList` (each `undefined` or the params) at once and
 * waits for every reply; a reply that is an error counts too. Returns requests per second.
 */
export async function pipeline(connection, method, paramsList) {
  const first = connection.nextId;
  connection.nextId += paramsList.length;
  const waits = [];
  const lines = [];
  for (const [i, params] of paramsList.entries()) {
    waits.push(connection.expect(first + i).catch(() => null));
    const body = params === undefined ? '' : `,"params":${JSON.stringify(params)}`;
    lines.push(`{"jsonrpc":"2.0","id":${first + i},"method":"${method}"${body}}\n`);
  }
  const start = performance.now();
  connection.writeRaw(lines.join(''));
  await Promise.all(waits);
  return paramsList.length / ((performance.now() - start) / 1000);
}

/** `count` copies of one request's params, for `pipeline`. */
export const times = (count, params) => Array.from({ length: count }, () => params);

/** Adds users `user<from>`… `user<to - 1>` to the daemon's directory, 1,000 requests at a time. */
export async function addUsers(connection, from, to) {
  for (let i = from; i < to; i += 1000) {
    const batch = [];
    for (let k = i; k < Math.min(to, i + 1000); k++) batch.push({ username: `user${k}`, password: 'Passw0rd!' });
    await pipeline(connection, 'emulator.addUser', batch);
  }
}

/** One built-in Login journey as an app runs it: login, the credentials, user info, logout. */
export async function loginJourney(connection) {
  await connection.request('login', []);
  await connection.request('next', [LOGIN_PAYLOAD]);
  await connection.request('getUserInfo', []);
  await connection.request('logout', []);
}

/**
 * Times `count` runs of `action(connection)` on each connection, in alternating blocks, so that
 * a slow stretch of a shared machine (or disk) hits every connection alike. µs per run.
 */
export async function alternating(connections, count, action, blocks = 10) {
  const micros = connections.map(() => []);
  for (let block = 0; block < blocks; block++) {
    for (const [t, connection] of connections.entries()) {
      for (let i = 0; i < Math.ceil(count / blocks); i++) {
        const start = process.hrtime.bigint();
        await action(connection);
        micros[t].push(Number(process.hrtime.bigint() - start) / 1000);
      }
    }
  }
  return micros;
}
