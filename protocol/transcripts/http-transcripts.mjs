// Golden transcripts with HTTP in them: one daemon serving stdio and HTTP, driven by a scenario
// (NAME.in.http) whose lines go, in order, to the face they name; NAME.out.http is the scenario
// with every byte the daemon answered put in place. The format is in protocol/README.md.
//
// Order is exact, not a race: the daemon's stdout is a file, and the daemon writes an HTTP
// request's events there before it sends the response (the transaction ends first), so once a
// response is read, everything it caused on stdout is in the file to be read after it.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binary, defaultArgs, here } from './transcripts.mjs';

/** Every HTTP transcript serves on a port picked at start and names itself by this URL, so no
 * byte of the output depends on the port (`--public-url`). Requests carry its host as `Host`. */
export const publicURL = 'http://127.0.0.1:8080/am';
const httpArgs = ['--http', '127.0.0.1:0', '--public-url', publicURL];
const WAIT_MS = 10_000;

/** Names of the HTTP transcripts (NAME.in.http), in name order. */
export function listHTTPTranscripts() {
  return readdirSync(here).filter((f) => f.endsWith('.in.http')).sort().map((f) => f.slice(0, -'.in.http'.length));
}

/** Plays NAME.in.http; resolves { status, output (the text NAME.out.http should hold), stderr }. */
export async function runHTTPTranscript(name) {
  const steps = parseScenario(readFileSync(join(here, `${name}.in.http`), 'utf8'), name);
  const argsFile = join(here, `${name}.args`);
  const words = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim().split(/\s+/) : [];
  const daemon = await Daemon.start([...defaultArgs, ...httpArgs, ...words.map((w) => w.replace('{here}', here))]);
  const out = [];
  const values = new Map();
  const last = { http: null, stdio: null };
  const fill = (text) => text.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!values.has(key)) throw new Error(`${name}: {{${key}}} is used before a "set ${key} = …" line`);
    return values.get(key);
  });
  try {
    for (const step of steps) {
      out.push(...step.lines);
      if (step.kind === 'stdio') {
        const frame = fill(step.frame);
        const id = JSON.parse(frame).id;
        daemon.send(frame);
        const lines = await daemon.stdoutUntil((line) => isResponseTo(line, id), `the response to stdio request id ${JSON.stringify(id)}`);
        out.push(...lines.map((line) => `stdio< ${line}`));
        last.stdio = JSON.parse(lines.at(-1));
      } else if (step.kind === 'http') {
        const response = await daemon.http(fill(step.head), step.headers.map(fill), fill(step.body));
        // Written before the response was sent: the events this request's transaction caused.
        out.push(...daemon.stdoutSoFar().map((line) => `stdio< ${line}`));
        out.push(...response.text.split('\n').map((line) => (line === '' ? 'http<' : `http< ${line}`)));
        last.http = response;
      } else if (step.kind === 'set') {
        values.set(step.key, capture(step.path, last, name));
      }
    }
    const ended = await daemon.end();
    out.push(...ended.stdout.map((line) => `stdio< ${line}`));
    return { status: ended.status, output: out.join('\n') + '\n', stderr: ended.stderr };
  } catch (error) {
    daemon.kill();
    throw new Error(`${error.message}\nstderr:\n${daemon.stderr}`);
  }
}

const requestLine = /^http> [A-Z]+ \/\S*$/;

/** Scenario lines into steps, each keeping the lines it came from (they are copied to the output). */
function parseScenario(text, name) {
  const steps = [];
  const lines = text.replace(/\n$/, '').split('\n');
  let comments = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const where = `${name}.in.http line ${i + 1}`;
    if (line === '' || line.startsWith('#')) {
      comments.push(line);
    } else if (line.startsWith('stdio> ')) {
      const frame = line.slice('stdio> '.length);
      let message;
      try { message = JSON.parse(frame.replace(/\{\{\w+\}\}/g, 'x')); } catch { throw new Error(`${where}: stdio> takes one JSON-RPC frame on the line`); }
      if (message?.id === undefined) throw new Error(`${where}: a stdio> frame needs an id: the runner waits for its response`);
      steps.push({ kind: 'stdio', frame, lines: [...comments, line] });
      comments = [];
    } else if (requestLine.test(line)) {
      const request = { kind: 'http', head: line.slice('http> '.length).trim(), headers: [], body: '', lines: [...comments, line] };
      comments = [];
      const body = [];
      let inBody = false;
      // A request's lines run to the next line that is not an http> line, or is a request line.
      while (i + 1 < lines.length && (lines[i + 1] === 'http>' || lines[i + 1].startsWith('http> ')) && !requestLine.test(lines[i + 1])) {
        const next = lines[++i];
        request.lines.push(next);
        const content = next.slice('http> '.length);
        if (inBody) body.push(content);
        else if (next === 'http>') inBody = true;
        else if (/^[A-Za-z0-9-]+: /.test(content)) request.headers.push(content);
        else throw new Error(`${name}.in.http line ${i + 1}: a header is "Name: value"; an empty "http>" line starts the body`);
      }
      request.body = body.join('\n');
      steps.push(request);
    } else if (/^set \w+ = (body|header|location|result)(\.[^.\s]+)+$/.test(line)) {
      const [, key, path] = line.match(/^set (\w+) = (\S+)$/);
      steps.push({ kind: 'set', key, path, lines: [...comments, line] });
      comments = [];
    } else {
      throw new Error(`${where}: expected "stdio> FRAME", "http> METHOD /PATH", "set NAME = SOURCE.PATH", a # comment or a blank line`);
    }
  }
  if (comments.length > 0) steps.push({ kind: 'comments', lines: comments });
  return steps;
}

/** `set` sources: body.… (the last HTTP response's JSON), header.NAME, location.PARAM (its
 * redirect's query), result.… (the last stdio result; a string holding JSON is read as JSON). */
function capture(path, last, name) {
  const [source, ...keys] = path.split('.');
  const missing = (why) => new Error(`${name}: set … = ${path}: ${why}`);
  if (source === 'result' ? !last.stdio : !last.http) throw missing(`no ${source === 'result' ? 'stdio' : 'HTTP'} response before it`);
  let value;
  if (source === 'header' || source === 'location') {
    const location = last.http.headers.get('location');
    value = source === 'header' ? last.http.headers.get(keys.join('.').toLowerCase()) : location && new URL(location).searchParams.get(keys.join('.'));
  } else {
    value = source === 'body' ? last.http.json : last.stdio.result;
    for (const key of keys) {
      if (typeof value === 'string') { try { value = JSON.parse(value); } catch { value = undefined; } }
      value = value?.[key];
    }
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    const answer = source === 'result' ? JSON.stringify(last.stdio) : last.http.text.split('\n')[0];
    throw missing(`found ${JSON.stringify(value) ?? 'nothing'}, not a string, in ${answer}`);
  }
  return String(value);
}

function isResponseTo(line, id) {
  try {
    const message = JSON.parse(line);
    return message.id === id && (message.result !== undefined || message.error !== undefined);
  } catch {
    return false;
  }
}

/** The daemon, its stdout in a file read as it grows, and one keep-alive HTTP connection. */
class Daemon {
  static async start(args) {
    const daemon = new Daemon();
    daemon.dir = mkdtempSync(join(tmpdir(), 'authbridge-http-transcript-'));
    const stdoutPath = join(daemon.dir, 'stdout');
    const writeFd = openSync(stdoutPath, 'w');
    daemon.child = spawn(binary, args, { stdio: ['pipe', writeFd, 'pipe'] });
    closeSync(writeFd);
    daemon.readFd = openSync(stdoutPath, 'r');
    daemon.offset = 0;
    daemon.pending = '';
    daemon.stderr = '';
    daemon.child.stderr.on('data', (chunk) => { daemon.stderr += chunk; });
    daemon.exited = new Promise((resolve) => daemon.child.on('exit', (code, signal) => resolve(code ?? signal)));
    const port = await poll(() => daemon.stderr.match(/AM over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/am\//)?.[1], 'the HTTP URL on stderr');
    daemon.socket = await new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
    daemon.received = Buffer.alloc(0);
    daemon.socket.on('data', (chunk) => { daemon.received = Buffer.concat([daemon.received, chunk]); });
    return daemon;
  }

  send(frame) { this.child.stdin.write(frame + '\n'); }

  /** Complete stdout lines written so far. */
  stdoutSoFar() {
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const count = readSync(this.readFd, buffer, 0, buffer.length, this.offset);
      if (count === 0) break;
      this.offset += count;
      this.pending += buffer.subarray(0, count).toString('utf8');
    }
    const lines = this.pending.split('\n');
    this.pending = lines.pop();
    return lines;
  }

  async stdoutUntil(done, what) {
    const lines = [];
    await poll(() => {
      lines.push(...this.stdoutSoFar());
      return lines.some(done) || undefined;
    }, what);
    return lines;
  }

  /** Sends one request; resolves { text (head and body, CRLF as LF), headers, json }. */
  async http(head, headers, body) {
    const host = new URL(publicURL).host;
    const payload = Buffer.from(body, 'utf8');
    const lines = [`${head} HTTP/1.1`, `Host: ${host}`, ...headers];
    if (payload.length > 0) lines.push(`Content-Length: ${payload.length}`);
    this.socket.write(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n'), payload]));
    return poll(() => this.takeResponse(), `the response to ${head}`);
  }

  takeResponse() {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const headText = this.received.subarray(0, end).toString('latin1');
    const headers = new Map();
    for (const line of headText.split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length') ?? 0);
    if (this.received.length < end + 4 + length) return undefined;
    const body = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
    this.received = this.received.subarray(end + 4 + length);
    let json;
    try { json = JSON.parse(body); } catch { json = undefined; }
    return { text: headText.replaceAll('\r\n', '\n') + '\n' + (body === '' ? '' : `\n${body}`), headers, json };
  }

  /** Closes stdin (the daemon exits as at EOF); resolves its status and what stdout still held. */
  async end() {
    this.socket.end();
    this.child.stdin.end();
    const status = await Promise.race([this.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), WAIT_MS))]);
    if (status === 'still running') this.kill();
    const stdout = this.stdoutSoFar();
    if (this.pending !== '') stdout.push(this.pending);
    this.cleanUp();
    return { status, stdout, stderr: this.stderr };
  }

  kill() {
    this.child.kill('SIGKILL');
    this.socket?.destroy();
    this.cleanUp();
  }

  cleanUp() {
    if (this.readFd !== undefined) closeSync(this.readFd);
    this.readFd = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function poll(check, what) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
