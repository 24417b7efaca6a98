// `make bench`: what RS256 signing costs the daemon against OpenSSL on the same machine, in the
// same run. A token exchange (`exchangeToken`) signs an RS256 access token and an RS256 id token
// with RSA-2048 (pure Swift); its daemon CPU is set against two RSA-2048 RS256 signatures
// (PKCS#1 v1.5, SHA-256) by node:crypto, which is OpenSSL, in alternating blocks. The exchange's
// other work (the request, the grant, the claims) counts on the daemon's side only, so the ratio
// is an upper bound for the signatures'.
//   node Tests/Benchmark/rsa-bench.mjs AUTHBRIDGE [EXCHANGES]   (one measurement, printed)
import { generateKeyPairSync, sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Connection } from '../../protocol/clients/node/transport.mjs';
import { cpuMicros, LOGIN_PAYLOAD } from './measure.mjs';

/** µs per exchange (daemon CPU) and per two node:crypto signatures (this process's CPU). */
export async function rs256AgainstOpenSSL(binary, args, exchanges, blocks = 5) {
  const connection = new Connection(binary, args);
  try {
    await connection.request('start', []);
    await connection.request('login', []);
    const success = await connection.request('next', [LOGIN_PAYLOAD]);
    const subject = JSON.parse(success.tokens).value;
    const exchange = async () => {
      const tokens = await connection.request('exchangeToken', [subject]);
      if (!tokens?.accessToken || !tokens?.idToken) throw new Error(`the exchange gave no two tokens: ${JSON.stringify(tokens)}`);
    };
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    // A signing input of a token's size (header and claims, base64url).
    const input = Buffer.alloc(760, 'e');
    for (let i = 0; i < 20; i++) { await exchange(); sign('sha256', input, privateKey); }
    const perBlock = Math.ceil(exchanges / blocks);
    let daemon = 0;
    let openSSL = 0;
    for (let block = 0; block < blocks; block++) {
      const before = cpuMicros(connection.pid);
      for (let i = 0; i < perBlock; i++) await exchange();
      daemon += cpuMicros(connection.pid) - before;
      const usage = process.cpuUsage();
      for (let i = 0; i < 2 * perBlock; i++) sign('sha256', input, privateKey);
      const used = process.cpuUsage(usage);
      openSSL += used.user + used.system;
    }
    return { exchangeMicros: daemon / (perBlock * blocks), openSSLMicros: openSSL / (perBlock * blocks) };
  } finally {
    await connection.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [binary, count] = process.argv.slice(2);
  const { exchangeMicros, openSSLMicros } = await rs256AgainstOpenSSL(binary, ['--seed', '1', '--clock', 'virtual'], Number(count ?? 200));
  console.log(`token exchange (two RS256 signatures), daemon CPU: ${exchangeMicros.toFixed(0)} µs; two node:crypto RS256 signatures: ${openSSLMicros.toFixed(0)} µs; ${(exchangeMicros / openSSLMicros).toFixed(2)}×`);
}
