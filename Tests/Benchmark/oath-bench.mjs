// `make bench`, issue 24's OATH row: the daemon CPU of a sign-in with a password then an OATH code
// against the same sign-in without the code, ≤ 2×. The OATH journey is oath_registration of
// docs/examples/am-exports/mfa (Page Node with username and password, Data Store Decision, OATH
// Token Verifier); the password journey is the same export with the decision's `true` wired
// straight to success, so the two differ by the verifier's step alone. With --callbacks complete
// the user's emulated phone registers once (warm-up) and types each code; the virtual clock moves
// a TOTP period between sign-ins, outside the measurement, so no code is a reused one.
//   node Tests/Benchmark/oath-bench.mjs AUTHBRIDGE [JOURNEYS]   (one measurement, printed)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { cpuMicros, LOGIN_PAYLOAD } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXPORT = join(here, '..', '..', 'docs', 'examples', 'am-exports', 'mfa', 'oath_registration.journey.json');
const SERVICE = 'oath_registration';
const REGISTRATION_PAYLOAD = JSON.stringify({ callbacks: [
  { type: 'TextOutputCallback', input: [] }, { type: 'TextOutputCallback', input: [] },
  { type: 'HiddenValueCallback', input: [{ name: 'IDToken3', value: 'mfaDeviceRegistration' }] },
  { type: 'ConfirmationCallback', input: [{ name: 'IDToken4', value: 0 }] },
] });
// The code left empty: the native side types the phone's current one.
const CODE_PAYLOAD = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: '' }] },
  { type: 'ConfirmationCallback', input: [{ name: 'IDToken2', value: 0 }] },
] });

/** The export with the Data Store Decision's `true` going to success instead of the verifier. */
function passwordOnlyExport(directory) {
  const data = JSON.parse(readFileSync(EXPORT, 'utf8'));
  const { tree } = data.trees[SERVICE];
  const verifier = Object.keys(tree.nodes).find((id) => tree.nodes[id].nodeType === 'OathTokenVerifierNode');
  const success = tree.nodes[verifier].connections.successOutcome;
  for (const node of Object.values(tree.nodes)) {
    if (node.nodeType === 'DataStoreDecisionNode') node.connections.true = success;
  }
  const path = join(directory, 'password.journey.json');
  writeFileSync(path, JSON.stringify(data));
  return path;
}

async function signIn(connection, steps) {
  await connection.request('login', []);
  let result;
  for (const payload of steps) result = await connection.request('next', [payload]);
  if (result?.type !== 'LoginSuccess') throw new Error(`the journey did not succeed: ${JSON.stringify(result)}`);
  await connection.request('logout', []);
}

/** Mean daemon CPU (µs) of `journeys` sign-ins of demo on one daemon, after two warm-ups. */
async function signInCPU(binary, args, journeyFile, warmUp, steps, journeys) {
  const connection = new Connection(binary, [
    ...args, '--journeys', journeyFile, '--auth-service', SERVICE, '--callbacks', 'complete',
  ]);
  try {
    await connection.request('start', []);
    for (const warm of warmUp) {
      await signIn(connection, warm);
      await connection.request('emulator.advanceClock', { seconds: 30 });
    }
    let total = 0;
    for (let i = 0; i < journeys; i++) {
      const before = cpuMicros(connection.pid);
      await signIn(connection, steps);
      total += cpuMicros(connection.pid) - before;
      await connection.request('emulator.advanceClock', { seconds: 30 });
    }
    return total / journeys;
  } finally {
    await connection.close();
  }
}

/** `{oathMicros, passwordMicros}`: mean daemon CPU of each sign-in. `args` must hold --clock virtual. */
export async function oathJourneyCPU(binary, args, journeys) {
  const directory = mkdtempSync(join(tmpdir(), 'authbridge-oath-bench-'));
  try {
    const password = passwordOnlyExport(directory);
    const passwordMicros = await signInCPU(binary, args, password, [[LOGIN_PAYLOAD], [LOGIN_PAYLOAD]], [LOGIN_PAYLOAD], journeys);
    // The first sign-in registers the phone's OATH credential, the second is a first code.
    const oathMicros = await signInCPU(binary, args, EXPORT,
      [[LOGIN_PAYLOAD, REGISTRATION_PAYLOAD, CODE_PAYLOAD], [LOGIN_PAYLOAD, CODE_PAYLOAD]], [LOGIN_PAYLOAD, CODE_PAYLOAD], journeys);
    return { oathMicros, passwordMicros };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { oathMicros, passwordMicros } = await oathJourneyCPU(process.argv[2], ['--seed', '1', '--clock', 'virtual'], Number(process.argv[3] ?? 200));
  console.log(`password sign-in, daemon CPU: ${Math.round(passwordMicros)} µs`);
  console.log(`password + OATH code sign-in, daemon CPU: ${Math.round(oathMicros)} µs (${(oathMicros / passwordMicros).toFixed(2)}×)`);
}
