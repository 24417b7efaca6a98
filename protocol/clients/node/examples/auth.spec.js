// A Jest test file for the app code in auth.js, against a real native side (AuthBridge) instead
// of hand-written jest.fn() stubs. jest.setup.js starts the daemon and mocks 'react-native'.
const { signIn, signOut, authorizationHeader, syncTokens } = require('./auth');

describe('signing in', () => {
  afterEach(() => signOut());

  test('the demo user signs in and gets their name', async () => {
    const user = await signIn('demo', 'Ch4ng3it!');
    expect(user.name).toBe('Demo User');
    expect(user.email).toBe('demo@example.com');
  });

  test('a wrong password is LoginFailure, as on iOS', async () => {
    await expect(signIn('demo', 'nope')).rejects.toMatchObject({ code: 'Error', message: 'LoginFailure' });
  });

  test('a user added for the test can sign in', async () => {
    await authbridge.emulator.addUser({ username: 'ada', password: 'An4lytical!', givenName: 'Ada', familyName: 'Lovelace' });
    expect((await signIn('ada', 'An4lytical!')).name).toBe('Ada Lovelace');
  });

  test('API calls carry the native bearer token', async () => {
    await signIn('demo', 'Ch4ng3it!');
    expect(await authorizationHeader()).toMatch(/^Bearer eyJ/);
  });
});

describe('token sync', () => {
  test('JS follows native: login, refresh near expiry, native logout', async () => {
    const store = {};
    const stop = syncTokens(store);
    await signIn('demo', 'Ch4ng3it!');
    expect(store.loggedIn).toBe(true);
    const first = store.accessToken;

    await authbridge.emulator.advanceClock(3550);
    await authorizationHeader();
    expect(store.reason).toBe('refresh');
    expect(store.accessToken).not.toBe(first);

    await authbridge.emulator.nativeLogout();
    expect(store.loggedIn).toBe(false);
    stop();
  });
});
