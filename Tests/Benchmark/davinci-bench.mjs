// `make bench`, issue 26's DaVinci row: the daemon CPU of a DaVinci sign-on through RNPingDavinci
// (the built-in `sign-on` flow of the embedded PingOne environment: start, the username/password
// form submitted, the session with its tokens and userinfo, logout) against an AM login journey
// through the sample bridge on the same daemon (login, the credentials, getUserInfo, logout).
// Both end with an authorization code exchanged for RS256-signed tokens. Target: ≤ 2×.
//   node Tests/Benchmark/davinci-bench.mjs AUTHBRIDGE [SIGN-ONS]   (one measurement, printed)
import { fileURLToPath } from 'node:url';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { cpuMicros, LOGIN_PAYLOAD } from './measure.mjs';

const ENVIRONMENT = '8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c';
const OIDC = {
  discoveryEndpoint: `http://localhost:8080/${ENVIRONMENT}/as/.well-known/openid-configuration`,
  clientId: 'ReactNativeOAuthClient', redirectUri: 'https://com.example.reactnative.todo/callback',
  scopes: ['openid', 'profile'],
};

async function davinciSignOn(connection, id) {
  const form = await connection.request('RNPingDavinci.start', [id]);
  if (form?.type !== 'ContinueNode') throw new Error(`the flow did not start with a form: ${JSON.stringify(form)}`);
  const done = await connection.request('RNPingDavinci.next', [id, { collectors: [
    { key: 'username', value: 'demo' }, { key: 'password', value: 'Ch4ng3it!' }, { key: 'SIGNON', value: 'SIGNON' },
  ] }]);
  if (done?.type !== 'SuccessNode') throw new Error(`the sign-on did not succeed: ${JSON.stringify(done)}`);
  const session = await connection.request('RNPingDavinci.getSession', [id]);
  if (typeof session?.accessToken !== 'string') throw new Error('no session after the sign-on');
  await connection.request('RNPingDavinci.logout', [id]);
}

async function amLogin(connection) {
  await connection.request('login', []);
  const done = await connection.request('next', [LOGIN_PAYLOAD]);
  if (done?.type !== 'LoginSuccess') throw new Error(`the journey did not succeed: ${JSON.stringify(done)}`);
  await connection.request('getUserInfo', []);
  await connection.request('logout', []);
}

/** Mean daemon CPU (µs) of `count` runs of `run`, after two warm-ups. */
async function meanCPU(connection, count, run) {
  for (let i = 0; i < 2; i++) await run();
  let total = 0;
  for (let i = 0; i < count; i++) {
    const before = cpuMicros(connection.pid);
    await run();
    total += cpuMicros(connection.pid) - before;
  }
  return total / count;
}

/** `{davinciMicros, amMicros}` on one rn-ios daemon, measured in alternating blocks. */
export async function davinciSignOnCPU(binary, args, count) {
  const connection = new Connection(binary, [...args, '--flavor', 'rn-ios']);
  try {
    await connection.request('start', []);
    const id = await connection.request('RNPingDavinci.configureDaVinci', [OIDC]);
    let davinci = 0;
    let am = 0;
    const blocks = 5;
    for (let block = 0; block < blocks; block++) {
      davinci += await meanCPU(connection, Math.ceil(count / blocks), () => davinciSignOn(connection, id));
      am += await meanCPU(connection, Math.ceil(count / blocks), () => amLogin(connection));
    }
    return { davinciMicros: davinci / blocks, amMicros: am / blocks };
  } finally {
    await connection.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { davinciMicros, amMicros } = await davinciSignOnCPU(
    process.argv[2], ['--seed', '1', '--clock', 'virtual'], Number(process.argv[3] ?? 200));
  console.log(`AM login journey (bridge), daemon CPU: ${Math.round(amMicros)} µs`);
  console.log(`DaVinci sign-on (RNPingDavinci), daemon CPU: ${Math.round(davinciMicros)} µs (${(davinciMicros / amMicros).toFixed(2)}×)`);
}
