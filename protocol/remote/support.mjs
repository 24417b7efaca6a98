// Shared by remote mode's tests: a bridge started with --server pointing at a "tenant" (a second
// authbridge's HTTP face, or a TLS front before it), and the Login journey's answers.
import { createServer } from 'node:net';
import { Connection } from '../clients/node/transport.mjs';
import { CLIENT_ID, REDIRECT_URI, binary } from '../http/support.mjs';

export const LOGIN = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] },
] });

/** A bridge driving the AM at `url` in realm alpha; its notifications collect in `events`. */
export function bridgeTo(url, extra = []) {
  return bridgeWith(['--server', url, '--realm', 'alpha', '--client-id', CLIENT_ID, '--redirect-uri', REDIRECT_URI, ...extra]);
}

/** A bridge started with `args` (a --config file, say); its notifications collect in `events`. */
export function bridgeWith(args) {
  const events = [];
  const connection = new Connection(binary, args, { onNotification: (method, params) => events.push({ method, params }) });
  connection.events = events;
  return connection;
}

/** A loopback port nothing listens on (bound, then released). */
export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return free;
}
