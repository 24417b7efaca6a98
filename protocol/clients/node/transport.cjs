// JSON-RPC 2.0 over a child process's stdin/stdout, NDJSON framed: the transport under the
// reference client, also used by `make bench` so the benchmark pays what a real host pays.
// CommonJS, so that Jest (which React Native projects run through Babel) can require it;
// transport.mjs re-exports it for ES modules.
'use strict';
const { spawn } = require('node:child_process');

/**
 * Every daemon this process started and has not seen exit. When the host process exits (a
 * script that never called close(), a Jest worker torn down) they are sent SIGTERM, which ends
 * a daemon the way EOF does; the pipes closing would end them too, this makes it certain.
 */
const live = new Set();
let exitHookInstalled = false;
function track(child) {
  live.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const c of live) {
      try { c.kill('SIGTERM'); } catch { /* already gone */ }
    }
  });
}

/** A JSON-RPC error answered by the daemon, with its code, message and data. */
class RPCError extends Error {
  constructor(error) {
    super(error.message);
    this.name = 'RPCError';
    this.code = error.code;
    this.data = error.data;
  }
}

class Connection {
  /**
   * @param {string} command the daemon binary
   * @param {string[]} args its arguments
   * @param {{ onNotification?: (method: string, params: any) => void, onStderr?: (text: string) => void }} options
   */
  constructor(command, args = [], { onNotification = () => {}, onStderr = null } = {}) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    track(this.child);
    this.nextId = 1;
    this.pending = new Map();
    this.onNotification = onNotification;
    this.stderr = '';
    this.buffered = [];
    this.child.stdout.on('data', (chunk) => this.#receive(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text) => {
      this.stderr += text;
      if (onStderr) onStderr(text);
    });
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': stderr has been read to its end by then.
      this.child.on('close', (code, signal) => {
        live.delete(this.child);
        const failure = new Error(`authbridge exited (${signal ?? code}) with requests pending; stderr: ${this.stderr.slice(-4000)}`);
        for (const { reject } of this.pending.values()) reject(failure);
        this.pending.clear();
        resolve({ code, signal });
      });
    });
    this.child.stdin.on('error', () => {}); // EPIPE after exit is reported through `exited`
    // An idle daemon does not keep the host alive: a forgotten close() must not hang Node or
    // Jest. While a request or close() is outstanding the handles are referenced again, so a
    // script that awaits an answer gets it.
    this.busy = 0;
    this.child.on('spawn', () => this.#idle());
    this.#idle();
  }

  #idle() {
    if (this.busy > 0) return;
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream?.unref?.();
  }

  #hold() {
    this.child.ref();
    this.child.stdout?.ref?.();
  }

  #track(promise) {
    if (this.busy++ === 0) this.#hold();
    const done = () => { if (--this.busy === 0) this.#idle(); };
    promise.then(done, done);
    return promise;
  }

  get pid() { return this.child.pid; }

  /** Sends one request and resolves with its result (rejects with RPCError). */
  request(method, params) {
    const id = this.nextId++;
    const message = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    return this.#track(new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify(message) + '\n');
    }));
  }

  /** Writes already-encoded NDJSON lines (for pipelining); resolves each id's reply through `request`'s map. */
  writeRaw(text) { this.child.stdin.write(text); }

  expect(id) {
    return this.#track(new Promise((resolve, reject) => this.pending.set(id, { resolve, reject })));
  }

  /** Closes stdin (the daemon exits 0 on EOF) and waits for the process. */
  close() {
    this.child.stdin.end();
    return this.#track(this.exited);
  }

  #receive(chunk) {
    let start = 0;
    let newline = chunk.indexOf(10);
    if (newline === -1) { this.buffered.push(chunk); return; }
    while (newline !== -1) {
      let line = chunk.subarray(start, newline);
      if (this.buffered.length > 0) {
        line = Buffer.concat([...this.buffered, line]);
        this.buffered = [];
      }
      this.#dispatch(line);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.buffered.push(chunk.subarray(start));
  }

  #dispatch(line) {
    if (line.length === 0) return;
    const message = JSON.parse(line.toString('utf8'));
    if (Array.isArray(message)) { message.forEach((m) => this.#settle(m)); return; }
    if (message.id === undefined && typeof message.method === 'string') {
      this.onNotification(message.method, message.params);
      return;
    }
    this.#settle(message);
  }

  #settle(message) {
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    if ('error' in message) waiter.reject(new RPCError(message.error));
    else waiter.resolve(message.result);
  }
}

module.exports = { Connection, RPCError };
