// The HTTP face against a floor measured in the same run (baseline-http.c): the round trip of
// one keep-alive GET, and requests per second with several connections in flight. Both servers
// answer `GET …/serverinfo/*`; authbridge's runs it as a Host transaction through AM's routes.
import { spawn } from 'node:child_process';
import http from 'node:http';

const PATH = '/am/json/realms/root/realms/alpha/serverinfo/*';

async function started(binary, args, pattern, stream) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child[stream].setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${binary} printed no port: ${text}`)), 10000);
    child[stream].on('data', (chunk) => {
      text += chunk;
      const port = text.match(pattern)?.[1];
      if (port) { clearTimeout(timer); resolve({ child, port: Number(port) }); }
    });
  });
}

function get(agent, port) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: PATH, agent }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`status ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end();
  });
}

const percentile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };

/** Median over blocks alternating between the servers, so noise hits both alike. */
export async function measureHTTP(authbridge, floorBinary, { roundTrips, concurrent }) {
  const servers = [
    await started(floorBinary, [], /port (\d+)/, 'stdout'),
    await started(authbridge, ['--http', '127.0.0.1:0', '--no-stdio', '--seed', '1', '--clock', 'virtual'], /at http:\/\/127\.0\.0\.1:(\d+)\/am\//, 'stderr'),
  ];
  try {
    const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    for (const [t, s] of servers.entries()) for (let i = 0; i < 200; i++) await get(agents[t], s.port);
    const micros = servers.map(() => []);
    const blocks = 10;
    for (let b = 0; b < blocks; b++) {
      for (const [t, s] of servers.entries()) {
        for (let i = 0; i < roundTrips / blocks; i++) {
          const start = process.hrtime.bigint();
          await get(agents[t], s.port);
          micros[t].push(Number(process.hrtime.bigint() - start) / 1000);
        }
      }
    }
    const rates = servers.map(() => []);
    const connections = 4;
    for (let round = 0; round < 3; round++) {
      for (const [t, s] of servers.entries()) {
        const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
        const start = performance.now();
        await Promise.all(Array.from({ length: connections }, async () => {
          for (let i = 0; i < concurrent / connections; i++) await get(agent, s.port);
        }));
        rates[t].push(concurrent / ((performance.now() - start) / 1000));
        agent.destroy();
      }
    }
    for (const agent of agents) agent.destroy();
    const median = (xs) => percentile(xs, 0.5);
    return servers.map((_, t) => ({ p50: percentile(micros[t], 0.5), p99: percentile(micros[t], 0.99), perSecond: median(rates[t]) }))
      .reverse(); // [authbridge, floor]
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
  }
}
