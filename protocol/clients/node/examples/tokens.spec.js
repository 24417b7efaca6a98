// Token sync and expiry, with Jest's clock on the daemon's virtual clock: app code that compares
// `expiresAt * 1000` with `Date.now()` sees a fresh token as fresh, and an old one as expired.
const { advanceClock, useDaemonClock } = require('@authbridge/client/jest');
const { signIn, signOut, authorizationHeader, syncTokens, isExpired } = require('./auth');

beforeAll(() => useDaemonClock(jest)); // Date.now() is the daemon's now (2026-01-01T00:00:00Z)
afterAll(() => jest.useRealTimers());

test('JS follows native: login, refresh near expiry, native logout', async () => {
  const store = {};
  const stop = syncTokens(store);
  await signIn('demo', 'Ch4ng3it!');
  expect(store.loggedIn).toBe(true);
  const first = store.accessToken;

  await advanceClock(jest, 3550); // 49 s before expiry: inside the 60 s refresh threshold
  await authorizationHeader();     // getAccessToken refreshes; TOKEN_EVENT first
  expect(store.reason).toBe('refresh');
  expect(store.accessToken).not.toBe(first);

  await authbridge.emulator.nativeLogout();
  expect(store.loggedIn).toBe(false);
  stop();
});

test("a fresh token is fresh on the app's clock, and expires an hour later", async () => {
  const store = {};
  const stop = syncTokens(store);
  try {
    await signIn('demo', 'Ch4ng3it!');
    expect(isExpired(store)).toBe(false);
    expect(store.expiresAt * 1000 - Date.now()).toBeGreaterThan(3500 * 1000);

    await advanceClock(jest, 3600); // both clocks: no refresh was asked for, so the token is old
    expect(isExpired(store)).toBe(true);
  } finally {
    stop();
    await signOut();
  }
});
