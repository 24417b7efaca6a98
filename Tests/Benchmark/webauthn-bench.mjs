// `make bench`, issue 24's WebAuthn row: the daemon CPU of a passkey registration journey and a
// passkey sign-in journey for one user (PasskeyLogin of docs/examples/am-exports/mfa, answered
// natively by the user's emulated phone with --callbacks complete), ≤ 5 ms together. Each run
// is a new user, so the registration is a first one. The phone's key generation and signing
// run in the daemon and count; adding the user does not.
//   node Tests/Benchmark/webauthn-bench.mjs AUTHBRIDGE [JOURNEYS]   (one measurement, printed)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { cpuMicros } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXPORT = join(here, '..', '..', 'docs', 'examples', 'am-exports', 'mfa', 'Passkey.journey.json');
const WEBAUTHN_PAYLOAD = JSON.stringify({ callbacks: [{ type: 'MetadataCallback' }, { type: 'HiddenValueCallback' }] });
const credentials = (username) => JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: username }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Passw0rd!' }] },
] });

/** One PasskeyLogin journey: the credentials, then the WebAuthn step the phone answers. */
async function passkeyJourney(connection, username) {
  await connection.request('login', []);
  await connection.request('next', [credentials(username)]);
  const done = await connection.request('next', [WEBAUTHN_PAYLOAD]);
  if (done?.type !== 'LoginSuccess') throw new Error(`the passkey journey did not succeed: ${JSON.stringify(done)}`);
  await connection.request('logout', []);
}

/** Mean daemon CPU (µs) of a registration journey plus a sign-in journey, over `journeys` users. */
export async function webAuthnJourneyCPU(binary, args, journeys) {
  const connection = new Connection(binary, [
    ...args, '--journeys', EXPORT, '--auth-service', 'PasskeyLogin', '--callbacks', 'complete',
  ]);
  try {
    await connection.request('start', []);
    // Warm-up: the first journey parses the export and fills caches.
    await connection.request('emulator.addUser', { username: 'warm', password: 'Passw0rd!' });
    await passkeyJourney(connection, 'warm');
    await passkeyJourney(connection, 'warm');
    let total = 0;
    for (let i = 0; i < journeys; i++) {
      const username = `passkey${i}`;
      await connection.request('emulator.addUser', { username, password: 'Passw0rd!' });
      const before = cpuMicros(connection.pid);
      await passkeyJourney(connection, username);
      await passkeyJourney(connection, username);
      total += cpuMicros(connection.pid) - before;
    }
    return total / journeys;
  } finally {
    await connection.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const micros = await webAuthnJourneyCPU(process.argv[2], ['--seed', '1', '--clock', 'virtual'], Number(process.argv[3] ?? 20));
  console.log(`WebAuthn registration + authentication journeys, daemon CPU: ${Math.round(micros)} µs`);
}
