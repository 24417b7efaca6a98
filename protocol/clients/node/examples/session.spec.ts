// The same app code under a TypeScript spec (babel-jest with @babel/preset-typescript, as an app
// configured for TypeScript runs it): spyOn on the mocked native module, the token's expiry
// against Date.now() on the daemon's clock, and the events that reach the JS side.
import { NativeModules } from 'react-native';
import { advanceClock, useDaemonClock } from '@authbridge/client/jest';

const { signIn, signOut, syncTokens, isExpired } = require('./auth') as {
  signIn(username: string, password: string): Promise<{ name?: string }>;
  signOut(): Promise<unknown>;
  syncTokens(store: TokenStore): () => void;
  isExpired(store: TokenStore): boolean;
};

interface TokenStore {
  loggedIn?: boolean;
  accessToken?: string;
  expiresAt?: number;
  reason?: string;
}

beforeAll(() => useDaemonClock(jest));
afterAll(() => jest.useRealTimers());

test('a typed sign-in: the native call is spied on, and the token is fresh by Date.now()', async () => {
  const login = jest.spyOn(NativeModules.FRAuthSampleBridge, 'login');
  const store: TokenStore = {};
  const stop = syncTokens(store);
  try {
    const user = await signIn('demo', 'Ch4ng3it!');
    expect(user.name).toBe('Demo User');
    expect(login).toHaveBeenCalledTimes(1);
    expect(store.loggedIn).toBe(true);
    expect((store.expiresAt ?? 0) * 1000).toBeGreaterThan(Date.now());
    await advanceClock(jest, 3600);
    expect(isExpired(store)).toBe(true);
  } finally {
    login.mockRestore();
    stop();
    await signOut();
  }
});

test('a rejection stubbed with mockRejectedValueOnce reaches the app as a native error would', async () => {
  const error = Object.assign(new Error('LoginFailure'), { code: 'Error' });
  jest.spyOn(NativeModules.FRAuthSampleBridge, 'next').mockRejectedValueOnce(error);
  await expect(signIn('demo', 'Ch4ng3it!')).rejects.toMatchObject({ code: 'Error', message: 'LoginFailure' });
  await signOut();
});
