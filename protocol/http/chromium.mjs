// Headless Chromium driven over its DevTools protocol, for the tests in which a real browser
// talks to the HTTP face (the WebAuthn journey, the login page). Chromium is Debian's
// `chromium`; `chromium` is undefined when it is not on PATH, and those tests skip saying so.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const chromium = ['chromium', 'chromium-browser'].find((name) => spawnSync('which', [name]).status === 0);
export const SKIP = chromium ? false : 'no chromium on PATH (Debian: apt-get install chromium)';

/** Chromium's DevTools protocol over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-framed). */
export class Browser {
  constructor(binary) {
    this.profile = mkdtempSync(join(tmpdir(), 'authbridge-chromium-'));
    this.process = spawn(binary, [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-pipe',
      // The page the test serves has no address: its requests to the daemon are not "local network" ones.
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights',
      `--user-data-dir=${this.profile}`, 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.process.stderr.on('data', (chunk) => { this.stderr += chunk; });
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    let buffer = '';
    this.process.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && this.pending.has(message.id)) {
          const { resolve, reject } = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) reject(new Error(`${message.error.message} ${message.error.data ?? ''}`));
          else resolve(message.result);
        } else {
          for (const listener of this.listeners) listener(message);
        }
      }
    });
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    this.process.stdio[3].write(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }) + '\0');
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  async close() {
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill();
    await exited;
    // Chromium's helper processes may still be writing to the profile for a moment after the
    // browser exits (ENOTEMPTY under load): retry, and never let a leftover temporary directory
    // fail the test or stop its after() hooks from closing the daemon.
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error) {
      process.stderr.write(`note: could not remove Chromium's profile ${this.profile}: ${error.message}\n`);
    }
  }
}
