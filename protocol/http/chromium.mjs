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

/**
 * A tab of `browser` at `width`×800 showing `url`: `evaluate` an expression in it, wait `until`
 * one holds (polling; `wait` ms at most unless the call says otherwise), press a `key` as a
 * keyboard does, capture it as PNG bytes, close it.
 */
export async function openTab(browser, url, { width = 1280, wait = 1000 } = {}) {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  await browser.send('Emulation.setDeviceMetricsOverride', { width, height: 800, deviceScaleFactor: 1, mobile: false }, sessionId);
  await browser.send('Page.navigate', { url }, sessionId);
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await browser.send('Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true }, sessionId);
    if (exceptionDetails) throw new Error(`page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  };
  const until = async (expression, ms = wait) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await evaluate(expression).catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const key = async (key, code) => {
    for (const type of ['keyDown', 'keyUp']) {
      const text = type === 'keyDown' && key === 'Enter' ? { text: '\r' } : {};
      await browser.send('Input.dispatchKeyEvent', {
        type, key, code: code ?? key, windowsVirtualKeyCode: { Enter: 13, ArrowDown: 40, ArrowUp: 38 }[key], ...text,
      }, sessionId);
    }
  };
  const png = async () => Buffer.from((await browser.send('Page.captureScreenshot', { format: 'png' }, sessionId)).data, 'base64');
  return { evaluate, until, key, png, close: () => browser.send('Target.closeTarget', { targetId }) };
}
