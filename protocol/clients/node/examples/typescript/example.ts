// The client from TypeScript, checked with `tsc --strict` by make test (types.test.mjs). The
// `@ts-expect-error` lines are mistakes the types must catch: tsc fails if one compiles.
import { spawnBridge, type Bridge, type LoginSuccess, type NativeError, type Step, type TokenEvent } from '@authbridge/client';
import { advanceClock, reactNativeMock, setupAuthBridge, type JestLike } from '@authbridge/client/jest';

async function signIn(bridge: Bridge, username: string, password: string): Promise<LoginSuccess> {
  await bridge.start();
  const step: Step = JSON.parse(await bridge.login());
  for (const callback of step.callbacks) {
    const input = callback.input?.[0];
    if (!input) continue;
    if (callback.type === 'NameCallback') input.value = username;
    if (callback.type === 'PasswordCallback') input.value = password;
  }
  // @ts-expect-error next takes the step as a JSON string, not the object
  await bridge.next(step).catch(() => undefined);
  const response = await bridge.next(JSON.stringify(step));
  if (typeof response === 'string') throw new Error('the journey asked for more');
  return response;
}

export async function main(): Promise<number> {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor: 'rn-ios', logLevel: 'trace' });
  // @ts-expect-error not a flavor
  void spawnBridge({ flavor: 'windows-phone' });
  const seen: TokenEvent[] = [];
  const subscription = bridge.emitter.addListener('TOKEN_EVENT', (event) => {
    const expiresAt: number = event.expiresAt;
    // @ts-expect-error TOKEN_EVENT has no requestId
    void event.requestId;
    seen.push({ ...event, expiresAt });
  });
  bridge.emitter.addListener('LOGOUT_EVENT', ({ reason }) => {
    const known: 'native_logout' | 'refresh_rejected' | 'session_revoked' | 'session_ended' | 'reset' = reason;
    void known;
  });
  try {
    await bridge.tokenSyncReady();
    const success = await signIn(bridge, 'demo', 'Ch4ng3it!');
    if ('tokens' in success) JSON.parse(success.tokens);
    const user = await bridge.getUserInfo();
    const email: string | undefined = user.email;
    const { now } = await bridge.emulator.advanceClock(3550);
    // @ts-expect-error seconds are a number
    await bridge.emulator.advanceClock('60').catch(() => undefined);
    const state = await bridge.emulator.state();
    const failure = await bridge.emulator.lastFailure();
    const check: string | undefined = failure?.reason?.check;
    const inner: string | undefined = failure?.reason?.innerReason?.code;
    const chosen = await bridge.emulator.setNodeOutcome({ journey: 'Login', node: 'risk', outcome: 'high' }).catch(() => null);
    const outcome: string | undefined = chosen?.outcome;
    // @ts-expect-error a node outcome names its journey
    await bridge.emulator.setNodeOutcome({ node: 'risk', outcome: 'high' }).catch(() => undefined);
    void check;
    void inner;
    void outcome;
    const expiresIn: number | undefined = state.tokens?.expiresIn;
    const fault = await bridge.emulator.fault({ operation: 'userInfo', kind: 'status', status: 503, count: 2 });
    const remaining: number | null = fault.remaining;
    // @ts-expect-error a latency fault needs its seconds
    await bridge.emulator.fault({ route: 'accessToken', kind: 'latency' }).catch(() => undefined);
    await bridge.emulator.clearFaults(fault.id);
    await bridge.logout();
    try {
      await bridge.getUserInfo();
    } catch (error) {
      const native = error as NativeError;
      if (native.code !== 'error') throw error;
    }
    subscription.remove();
    void email;
    void expiresIn;
    void remaining;
    return now + seen.length;
  } finally {
    await bridge.close();
  }
}

// The Jest helpers' types, without Jest's own: a stand-in `jest` object is enough.
export function jestHelpers(jest: JestLike): void {
  const { NativeModules, NativeEventEmitter, Platform } = reactNativeMock({ flavor: 'rn-android', jest });
  const login: () => Promise<string> = NativeModules.FRAuthSampleBridge.login;
  // @ts-expect-error a misspelled method does not exist
  void NativeModules.FRAuthSampleBridge.logIn;
  const emitter = new NativeEventEmitter(NativeModules.AuthenticationTokenModule);
  emitter.addListener('TOKEN_REQUEST_EVENT', ({ requestId }) => void requestId.length);
  const os: 'ios' | 'android' = Platform.OS;
  void setupAuthBridge;
  void advanceClock(jest, 60).then((now: number) => now);
  void login;
  void os;
  void globalThis.authbridge.hello.protocolVersion;
}
