// A Jest test file for the app code in auth.js, against a real native side (AuthBridge) instead
// of hand-written jest.fn() stubs. jest.setup.js starts the daemon and mocks 'react-native'.
const { NativeModules } = require('react-native');
const { signIn, signOut, authorizationHeader } = require('./auth');

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

describe('the native module is a plain object', () => {
  test('a spied method can fail once: the app retries login as the sample does', async () => {
    const login = jest.spyOn(NativeModules.FRAuthSampleBridge, 'login')
      .mockRejectedValueOnce(Object.assign(new Error('User is already authenticated'), { code: 'Error' }));
    try {
      const user = await signIn('demo', 'Ch4ng3it!');
      expect(user.name).toBe('Demo User');
      expect(login).toHaveBeenCalledTimes(2); // the rejection, then the daemon's step
    } finally {
      login.mockRestore();
      await signOut();
    }
  });

  test('a misspelled method is undefined, as on a device', () => {
    expect(NativeModules.FRAuthSampleBridge.logIn).toBeUndefined();
    expect(typeof NativeModules.FRAuthSampleBridge.login).toBe('function');
  });
});
