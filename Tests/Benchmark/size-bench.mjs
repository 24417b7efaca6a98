// `make bench`, issue 16's size → cost curves: what a journey and a lookup cost as the daemon
// holds more users (in its directory, and in a state directory that must stay durable), and what
// RSS does as traffic leaves grants and abandoned journeys behind. Each point is its own daemon.
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { addUsers, alternating, cpuMicros, LOGIN_PAYLOAD, loginJourney, median, pipeline, rssMB, times } from './measure.mjs';

/** One started daemon per entry of `points` ({ args, users to add }), warmed by ten journeys. */
async function started(binary, points) {
  const connections = [];
  for (const { args, users } of points) {
    const connection = new Connection(binary, args);
    await connection.request('start', []);
    await addUsers(connection, 0, users);
    for (let i = 0; i < 10; i++) await loginJourney(connection);
    connections.push(connection);
  }
  return connections;
}

/**
 * Per size: the daemon CPU of one Login journey (mean over `journeys`) and the getUserInfo round
 * trip (p50 of `lookups`), with that many users in the directory besides the demo user.
 */
export async function directoryCurve(binary, args, sizes, journeys, lookups) {
  const connections = await started(binary, sizes.map((users) => ({ args, users })));
  const cpu = connections.map(() => 0);
  const runs = await alternating(connections, journeys, async (connection) => {
    const t = connections.indexOf(connection);
    const before = cpuMicros(connection.pid);
    await loginJourney(connection);
    cpu[t] += cpuMicros(connection.pid) - before;
  });
  for (const connection of connections) {
    await connection.request('login', []);
    await connection.request('next', [LOGIN_PAYLOAD]);
  }
  const userInfo = await alternating(connections, lookups, (connection) => connection.request('getUserInfo', []));
  const curve = sizes.map((users, t) => ({ users, journeyCPUMicros: cpu[t] / runs[t].length, userInfoMicros: median(userInfo[t]) }));
  for (const connection of connections) await connection.close();
  return curve;
}

/** One fsync of a small write, median of 50, on the disk the state directories use. */
function fsyncMicros(dir) {
  const fd = openSync(join(dir, 'fsync-probe'), 'w');
  const micros = [];
  for (let i = 0; i < 50; i++) {
    writeSync(fd, 'x'.repeat(200));
    const start = process.hrtime.bigint();
    fsyncSync(fd);
    micros.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  closeSync(fd);
  return median(micros);
}

/**
 * A Login journey's wall time and `daemon.ping`'s round trip (p50s), without a state directory
 * and with state directories holding each size of users. The users are added, then the daemon
 * restarts on the directory, so what it holds was loaded, as a suite's second run finds it.
 */
export async function stateDirCurve(binary, args, sizes, journeys, pings) {
  const root = mkdtempSync(join(tmpdir(), 'authbridge-state-bench-'));
  const dir = (users) => join(root, `users-${users}`);
  try {
    for (const users of sizes) {
      const filling = new Connection(binary, [...args, '--state-dir', dir(users)]);
      await addUsers(filling, 0, users);
      await filling.close();
    }
    const connections = await started(binary, [{ args, users: 0 }, ...sizes.map((users) => ({ args: [...args, '--state-dir', dir(users)], users: 0 }))]);
    const journey = await alternating(connections, journeys, loginJourney);
    const ping = await alternating(connections, pings, (connection) => connection.request('daemon.ping'));
    for (const connection of connections) await connection.close();
    const point = (t) => ({ journeyMicros: median(journey[t]), pingMicros: median(ping[t]) });
    return { none: point(0), curve: sizes.map((users, i) => ({ users, ...point(i + 1) })), fsyncMicros: fsyncMicros(root) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * RSS as traffic piles up what a careless server keeps forever: token exchanges never logged
 * out (one subject token, grants at each checkpoint) and logins never answered (abandoned
 * journeys, with a virtual clock that never lets them expire).
 */
export async function growthCurves(binary, args, exchangePoints, abandonedPoints) {
  const grow = async (points, prepare, method, paramsOf) => {
    const connection = new Connection(binary, args);
    const params = await prepare(connection);
    const curve = [];
    let done = 0;
    for (const target of points) {
      while (done < target) {
        const batch = Math.min(1000, target - done);
        await pipeline(connection, method, times(batch, paramsOf(params)));
        done += batch;
      }
      curve.push({ count: target, rssMB: rssMB(connection.pid) });
    }
    await connection.close();
    return curve;
  };
  const exchanges = await grow(exchangePoints, async (connection) => {
    await connection.request('start', []);
    await connection.request('login', []);
    const success = await connection.request('next', [LOGIN_PAYLOAD]);
    return JSON.parse(success.tokens).value;
  }, 'exchangeToken', (subject) => [subject]);
  const abandoned = await grow(abandonedPoints, async (connection) => { await connection.request('start', []); }, 'login', () => []);
  return { exchanges, abandoned };
}
