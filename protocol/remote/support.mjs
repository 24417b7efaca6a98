// Shared by remote mode's tests: a bridge started with --server pointing at a "tenant" (a second
// authbridge's HTTP face, or a TLS front before it), and the Login journey's answers.
import { Connection } from '../clients/node/transport.mjs';
import { CLIENT_ID, REDIRECT_URI, binary } from '../http/support.mjs';

export const LOGIN = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] },
] });

/** A bridge driving the AM at `url` in realm alpha; its notifications collect in `events`. */
export function bridgeTo(url, extra = []) {
  const events = [];
  const connection = new Connection(binary, [
    '--server', url, '--realm', 'alpha', '--client-id', CLIENT_ID, '--redirect-uri', REDIRECT_URI, ...extra,
  ], { onNotification: (method, params) => events.push({ method, params }) });
  connection.events = events;
  return connection;
}
