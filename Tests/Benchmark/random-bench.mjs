// `make bench`, issue 16's real-mode row: how often a login journey goes to the system for
// randomness (it was 87 getrandom(2) calls a journey, 14% of the daemon's CPU, before the random
// source read /dev/urandom in blocks). Counted with strace attached for `journeys` journeys;
// without strace the row says so.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { loginJourney } from './measure.mjs';

/** System random calls (getrandom(2) and reads of /dev/urandom) per journey, or null without strace. */
export async function randomCallsPerJourney(binary, journeys) {
  if (spawnSync('strace', ['-V']).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-strace-'));
  const connection = new Connection(binary, []); // real mode: no --seed
  try {
    await connection.request('start', []);
    for (let i = 0; i < 5; i++) await loginJourney(connection);
    const out = join(dir, 'trace');
    const tracer = spawn('strace', ['-f', '-y', '-e', 'trace=getrandom,read', '-o', out, '-p', String(connection.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let attached = '';
    await new Promise((resolve, reject) => {
      tracer.stderr.on('data', (chunk) => { attached += chunk; if (attached.includes('attached')) resolve(); });
      tracer.on('exit', () => reject(new Error(`strace could not attach: ${attached.trim()}`)));
    });
    for (let i = 0; i < journeys; i++) await loginJourney(connection);
    const exited = new Promise((resolve) => tracer.on('exit', resolve));
    tracer.kill('SIGINT');
    await exited;
    const calls = readFileSync(out, 'utf8').split('\n').filter((line) => line.includes('getrandom(') || line.includes('/dev/urandom>'));
    return calls.length / journeys;
  } catch (error) {
    process.stderr.write(`random source row skipped: ${error.message}\n`);
    return null;
  } finally {
    await connection.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
