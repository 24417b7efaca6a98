// `make bench`, issue 16's soak: RSS under a million requests of mixed traffic (full login
// journeys, token exchanges, abandoned logins), read at checkpoints.
import { performance } from 'node:perf_hooks';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { LOGIN_PAYLOAD, pipeline, rssMB, times } from './measure.mjs';

/**
 * One block of the soak: a full login journey (login, next, getUserInfo, logout) whose access
 * token first buys `exchanges` token exchanges (grants never logged out), then `abandoned`
 * logins left unanswered (journeys abandoned half-way). Each exchange signs two RS256 tokens
 * (about 2 ms of CPU), an abandoned login none; before RS256 a block held 50 of each, which
 * made a million requests a million signatures (about half an hour). Five exchanges a block
 * still pass the caps on grants (2,000) many times over in 100k requests.
 */
export const MIXED_BLOCK = { exchanges: 5, abandoned: 95, requests: 4 + 5 + 95 };

/** Blocks of `MIXED_BLOCK` up to `total` requests; RSS read at each checkpoint. */
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
    await pipeline(connection, 'exchangeToken', times(MIXED_BLOCK.exchanges, [subject]));
    await connection.request('getUserInfo', []);
    await connection.request('logout', []);
    await pipeline(connection, 'login', times(MIXED_BLOCK.abandoned, []));
    sent += MIXED_BLOCK.requests;
    while (next < checkpoints.length && sent >= checkpoints[next]) {
      curve.push({ requests: checkpoints[next], rssMB: rssMB(connection.pid) });
      next += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await connection.close();
  return { curve, requestsPerSecond: sent / seconds };
}
