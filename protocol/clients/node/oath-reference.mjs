// OATH codes computed independently of the daemon, with node:crypto, from an otpauth:// URI's
// secret (RFC 4226 HOTP, RFC 6238 TOTP): what the Node tests compare the daemon's codes with.
// A test helper, not part of the packed client.
import { createHmac } from 'node:crypto';

export function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The URI's code at `counter` (its `digits`, 6 by default; SHA-1, as AM's OATH nodes register). */
export function hotp(uri, counter) {
  const params = new URL(uri).searchParams;
  const digits = Number(params.get('digits') ?? 6);
  const block = Buffer.alloc(8);
  block.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(params.get('secret'))).update(block).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0');
}

/** The URI's code at `unixSeconds` (its `period`, 30 by default). */
export function totp(uri, unixSeconds) {
  const period = Number(new URL(uri).searchParams.get('period') ?? 30);
  return hotp(uri, Math.floor(unixSeconds / period));
}
