// `make bench`, issue 16's soak: RSS under a million requests of mixed traffic (full login
// journeys, token exchanges, abandoned logins), read at checkpoints.
import { performance } from 'node:perf_hooks';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { LOGIN_PAYLOAD, pipeline, rssMB, times } from './measure.mjs';

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
    await pipeline(connection, 'exchangeToken', times(50, [subject]));
    await connection.request('getUserInfo', []);
    await connection.request('logout', []);
    await pipeline(connection, 'login', times(50, []));
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
