// Shared by the HTTP face's tests: the daemon with --http on a free loopback port (its URL read
// from stderr, as a user reads it), the stdio events it sends, and a cookie jar for fetch.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '../clients/node/transport.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const binary = process.env.AUTHBRIDGE_BIN ?? join(here, '..', '..', '.build', 'debug', 'authbridge');
export const DEMO = { username: 'demo', password: 'Ch4ng3it!' };
export const CLIENT_ID = 'ReactNativeOAuthClient';
export const REDIRECT_URI = 'https://com.example.reactnative.todo/callback';

/** Spawns the daemon; resolves once it has printed its HTTP URL. */
export async function startDaemon(args = []) {
  const events = [];
  const waiters = [];
  const connection = new Connection(binary, ['--http', '127.0.0.1:0', ...args], {
    onNotification: (method, params) => {
      events.push({ method, params });
      for (const waiter of waiters.splice(0)) waiter();
    },
  });
  const origin = await waitFor(() => connection.stderr.match(/AM over HTTP at (http:\/\/[0-9.]+:[0-9]+)\/am\//)?.[1], 5000,
    () => `no HTTP URL on stderr: ${connection.stderr}`);
  const amBase = `${origin}/am`;
  return {
    connection,
    origin,
    json: `${amBase}/json/realms/root/realms/alpha`,
    oauth: `${amBase}/oauth2/realms/root/realms/alpha`,
    events,
    /** Resolves with the first event named `method` not yet taken; no request is sent meanwhile. */
    async nextEvent(method, timeoutMs = 2000) {
      const found = () => events.findIndex((e) => e.method === method);
      await waitFor(() => found() >= 0 || undefined, timeoutMs, () => `no ${method} within ${timeoutMs} ms`, waiters);
      return events.splice(found(), 1)[0].params;
    },
    close: () => connection.close(),
  };
}

async function waitFor(check, timeoutMs, describe, waiters) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 10);
      waiters?.push(() => { clearTimeout(timer); resolve(); });
    });
  }
}

/** fetch with cookies kept per name, as a browser keeps them for one host. */
export class CookieJar {
  constructor() { this.cookies = new Map(); }

  header() { return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '); }

  async fetch(url, init = {}) {
    const headers = new Headers(init.headers ?? {});
    if (this.cookies.size > 0) headers.set('Cookie', this.header());
    const response = await fetch(url, { redirect: 'manual', ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name); else this.cookies.set(name, value);
    }
    return response;
  }
}

/** The JS SDK's way through the Login journey: first call, then the step back with values. */
export async function loginOverHTTP(daemon, jar, { username = DEMO.username, password = DEMO.password } = {}) {
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login`;
  const headers = { 'Content-Type': 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1' };
  const step = await (await jar.fetch(url, { method: 'POST', headers })).json();
  step.callbacks[0].input[0].value = username;
  step.callbacks[1].input[0].value = password;
  return jar.fetch(url, { method: 'POST', headers, body: JSON.stringify(step) });
}

export function form(values) { return new URLSearchParams(values).toString(); }

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** PKCE S256 pair. */
export async function pkce() {
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Authorize with the jar's session and PKCE, then exchange the code: the token response. */
export async function tokensOverHTTP(daemon, jar, scope = 'openid profile email') {
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope, state: 'st4te',
    code_challenge: challenge, code_challenge_method: 'S256',
  });
  const redirect = await jar.fetch(`${daemon.oauth}/authorize?${query}`);
  const location = new URL(redirect.headers.get('location'));
  const code = location.searchParams.get('code');
  const response = await jar.fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  });
  return { redirect, location, body: await response.json(), status: response.status };
}
