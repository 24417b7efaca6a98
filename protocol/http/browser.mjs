// What a browser page at `origin` does around a script's fetch to another origin, reduced to the
// parts of the Fetch standard's CORS protocol that decide whether the script may read the answer:
// which headers the script may set, when a preflight goes first and what it asks, what the
// preflight and the actual response must say, and when cookies go and are kept. A test of the
// HTTP face against this sees what the ForgeRock JavaScript SDK would see in a real browser.
// Same-site cookies only (localhost:3000 and localhost:8080 are one site), which is the setup
// docs/http.md prescribes.

const SAFELISTED_METHODS = ['GET', 'HEAD', 'POST'];
const SAFELISTED_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
// The browser sets these itself and ignores a script's values (the SDK sets Content-Length).
const FORBIDDEN = ['content-length', 'cookie', 'host', 'origin', 'connection'];

function isSafelisted(name, value) {
  if (['accept', 'accept-language', 'content-language'].includes(name)) return true;
  if (name === 'content-type') return SAFELISTED_CONTENT_TYPES.includes(value.split(';')[0].trim().toLowerCase());
  return false;
}

const listed = (value) => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

/** The Access-Control-* headers of a response, by lower-case name. */
export function corsHeaders(response) {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

// What a script may read of a cross-origin response: these, and what Access-Control-Expose-Headers names.
const SAFELISTED_RESPONSE = ['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma'];

/** A response header as the script sees it: null when the browser hides it. */
function readable(response, name) {
  const lower = name.toLowerCase();
  const exposed = listed(response.headers.get('access-control-expose-headers'));
  return SAFELISTED_RESPONSE.includes(lower) || exposed.includes(lower) ? response.headers.get(name) : null;
}

export class BrowserPage {
  /** `jar` holds the server's cookies (a CookieJar of support.mjs). */
  constructor(origin, jar) {
    this.origin = origin;
    this.jar = jar;
  }

  /**
   * A script's `fetch(url, init)`. Resolves `{ response, preflight }` (preflight null when the
   * request needed none) when the browser would hand the response to the script; rejects with
   * the reason the browser would log when it would not (the script then sees a TypeError).
   */
  async fetch(url, init = {}) {
    const method = (init.method ?? 'GET').toUpperCase();
    const credentials = init.credentials ?? 'same-origin';
    const headers = new Headers();
    for (const [name, value] of new Headers(init.headers ?? {})) if (!FORBIDDEN.includes(name)) headers.set(name, value);
    const unsafe = [...headers].filter(([name, value]) => !isSafelisted(name, value)).map(([name]) => name).sort();
    let preflight = null;
    if (!SAFELISTED_METHODS.includes(method) || unsafe.length > 0) {
      const ask = new Headers({ Origin: this.origin, 'Access-Control-Request-Method': method });
      if (unsafe.length > 0) ask.set('Access-Control-Request-Headers', unsafe.join(','));
      // A preflight never carries cookies.
      preflight = await fetch(url, { method: 'OPTIONS', headers: ask, redirect: 'manual' });
      await preflight.arrayBuffer();
      if (preflight.status < 200 || preflight.status > 299) throw new Error(`preflight answered ${preflight.status}`);
      this.#check(preflight, credentials, 'preflight');
      const methods = listed(preflight.headers.get('access-control-allow-methods'));
      if (!SAFELISTED_METHODS.includes(method) && !methods.includes(method.toLowerCase())) {
        throw new Error(`preflight does not allow method ${method}`);
      }
      const allowed = listed(preflight.headers.get('access-control-allow-headers'));
      const missing = unsafe.filter((name) => !allowed.includes(name));
      if (missing.length > 0) throw new Error(`preflight does not allow headers ${missing.join(', ')}`);
    }
    headers.set('Origin', this.origin);
    const request = { method, headers, body: init.body, redirect: 'manual' };
    // Cross-origin, cookies go and come back only with credentials: 'include'.
    const response = credentials === 'include' ? await this.jar.fetch(url, request) : await fetch(url, request);
    this.#check(response, credentials, 'response');
    return { response, preflight, readable: (name) => readable(response, name) };
  }

  /** A hidden iframe's navigation (the SDK's `prompt=none` authorize): no CORS, cookies go. */
  navigate(url) {
    return this.jar.fetch(url, { redirect: 'manual' });
  }

  #check(response, credentials, what) {
    const allowOrigin = response.headers.get('access-control-allow-origin');
    if (allowOrigin === null) throw new Error(`${what} has no Access-Control-Allow-Origin`);
    if (credentials === 'include') {
      if (allowOrigin !== this.origin) throw new Error(`${what} allows origin ${allowOrigin}, not ${this.origin}`);
      if (response.headers.get('access-control-allow-credentials') !== 'true') throw new Error(`${what} does not allow credentials`);
    } else if (allowOrigin !== '*' && allowOrigin !== this.origin) {
      throw new Error(`${what} allows origin ${allowOrigin}, not ${this.origin}`);
    }
  }
}
