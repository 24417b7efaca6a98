// `make bench`, issue 30's row: `next` on a page of many callbacks. Matching each answer to its
// callback once cost a scan of every input per callback (10–15× from 1,000 to 4,000 callbacks);
// linear work is 4×. Daemon CPU (schedstat) for the `next` alone, the median of `rounds` runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { cpuMicros, median } from './measure.mjs';

/** A journey of one page of `count` text inputs, then success. */
function widePage(count) {
  const callbacks = Array.from({ length: count }, (_, i) => ({ type: 'TextInputCallback', prompt: `Field ${i}` }));
  return { name: `Wide${count}`, entry: 'page', nodes: { page: { type: 'page', callbacks, outcomes: { next: 'success' } }, success: { type: 'success' } } };
}

/** Daemon CPU µs of one `next` answering every callback of the page, per page size. */
export async function pageCurve(binary, daemonArgs, sizes, rounds) {
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-page-'));
  try {
    const curve = [];
    for (const count of sizes) {
      const file = join(dir, `wide${count}.journey.json`);
      writeFileSync(file, JSON.stringify(widePage(count)));
      const payload = JSON.stringify({ callbacks: Array.from({ length: count }, (_, i) => ({ type: 'TextInputCallback', input: [{ name: `IDToken${i + 1}`, value: `v${i}` }] })) });
      const connection = new Connection(binary, [...daemonArgs, '--journeys', file, '--auth-service', `Wide${count}`]);
      await connection.request('start', []);
      const micros = [];
      for (let round = 0; round < rounds; round++) {
        await connection.request('login', []);
        const before = cpuMicros(connection.pid);
        // The journey has no user to sign in, so it ends in a login failure: the page's work is done by then.
        await connection.request('next', [payload]).catch(() => null);
        micros.push(cpuMicros(connection.pid) - before);
      }
      await connection.close();
      curve.push({ count, nextMicros: median(micros) });
    }
    return curve;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
