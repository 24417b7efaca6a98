// What the inspector costs (docs/inspector.md): the same workloads on three daemons started alike,
// measured in alternating blocks so a slow stretch of the machine hits all three — one whose HTTP
// face is not on loopback (no timeline kept, no page possible), one on loopback (the timeline
// kept, no page open), and one on loopback with a page open: a client on /inspector/events, in a
// process of its own as a browser is, reading every event. The page must cost nothing: "watched"
// within noise of "kept", and "kept" within noise of "off".
//
//   node Tests/Benchmark/inspector-bench.mjs AUTHBRIDGE [ROUND_TRIPS]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { LOGIN_PAYLOAD, percentile } from './measure.mjs';

const SERVERINFO = '/am/json/realms/root/realms/alpha/serverinfo/*';

async function portOf(connection) {
  for (let waited = 0; waited < 10000; waited += 20) {
    const port = connection.stderr.match(/AM over HTTP at http:\/\/[0-9.]+:(\d+)\/am\//)?.[1];
    if (port) return Number(port);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no HTTP port on stderr: ${connection.stderr}`);
}

/** A page left open: reads /inspector/events in a child process until killed; says how much it read. */
function openPage(port) {
  const reader = `
    const response = await fetch('http://127.0.0.1:${port}/inspector/events');
    let bytes = 0, events = 0;
    process.on('SIGTERM', () => { process.stdout.write(JSON.stringify({ bytes, events })); process.exit(0); });
    for await (const chunk of response.body) { bytes += chunk.length; events += (Buffer.from(chunk).toString().match(/^event: /gm) ?? []).length; }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', reader], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => { out += chunk; });
  return {
    close: () => new Promise((resolve) => { child.on('exit', () => resolve(out ? JSON.parse(out) : null)); child.kill('SIGTERM'); }),
  };
}

function get(agent, port) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: SERVERINFO, agent }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`status ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end();
  });
}

async function timed(daemons, count, action, blocks = 10) {
  const micros = daemons.map(() => []);
  for (let block = 0; block < blocks; block++) {
    for (const [t, daemon] of daemons.entries()) {
      for (let i = 0; i < Math.ceil(count / blocks); i++) {
        const start = process.hrtime.bigint();
        await action(daemon);
        micros[t].push(Number(process.hrtime.bigint() - start) / 1000);
      }
    }
  }
  return micros.map((m) => percentile(m, 0.5));
}

/**
 * p50 round trips (µs) of daemon.ping, getUserInfo and HTTP GET serverinfo on the three daemons:
 * `{ off, kept, watched }`, each `{ ping, userInfo, http }`, and what the page read.
 */
export async function inspectorCost(authbridge, daemonArgs, { roundTrips }) {
  const kinds = [['off', '0.0.0.0:0'], ['kept', '127.0.0.1:0'], ['watched', '127.0.0.1:0']];
  const daemons = [];
  let page;
  try {
    for (const [name, address] of kinds) {
      const connection = new Connection(authbridge, ['--http', address, ...daemonArgs]);
      const port = await portOf(connection);
      daemons.push({ name, connection, port, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) });
    }
    for (const { connection } of daemons) {
      await connection.request('start', []);
      await connection.request('login', []);
      await connection.request('next', [LOGIN_PAYLOAD]);
    }
    page = openPage(daemons[2].port);
    const warm = async (action) => { for (const d of daemons) for (let i = 0; i < 200; i++) await action(d); };
    const ping = (d) => d.connection.request('daemon.ping');
    const userInfo = (d) => d.connection.request('getUserInfo', []);
    const serverinfo = (d) => get(d.agent, d.port);
    await warm(ping);
    const pings = await timed(daemons, roundTrips, ping);
    await warm(userInfo);
    const userInfos = await timed(daemons, roundTrips, userInfo);
    await warm(serverinfo);
    const https = await timed(daemons, roundTrips, serverinfo);
    const read = await page.close();
    page = null;
    const result = { read };
    for (const [t, { name }] of daemons.entries()) result[name] = { ping: pings[t], userInfo: userInfos[t], http: https[t] };
    return result;
  } finally {
    await page?.close();
    for (const d of daemons) { d.agent.destroy(); await d.connection.close(); }
  }
}

/** bench.mjs's rows: metric, authbridge, baseline, unit, check, target. */
export function inspectorRows(cost) {
  const noise = (r) => r <= 1.1;
  const rows = [];
  for (const [key, label] of [['ping', 'daemon.ping'], ['userInfo', 'getUserInfo'], ['http', 'HTTP GET serverinfo']]) {
    rows.push([`${label} p50, inspector page open vs none`, cost.watched[key], cost.kept[key], 'µs', noise, '≤ 1.1× (within noise)']);
    rows.push([`${label} p50, timeline kept (HTTP face on loopback) vs not`, cost.kept[key], cost.off[key], 'µs', noise, '≤ 1.1× (within noise)']);
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [authbridge, count] = process.argv.slice(2);
  const cost = await inspectorCost(authbridge, ['--seed', '1', '--clock', 'virtual'], { roundTrips: Number(count ?? 4000) });
  for (const [metric, a, b, unit, check, target] of inspectorRows(cost)) {
    const ratio = a / b;
    console.log(`${metric.padEnd(62)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)} ${unit}  ${ratio.toFixed(2)}×  ${target}  ${check(ratio) ? 'yes' : 'NO'}`);
  }
  console.log(`the page read ${cost.read?.events} events, ${cost.read?.bytes} bytes`);
}
