// A slice of an app's JavaScript, written as the ForgeRock React Native sample writes it: the
// code under test in auth.test.js. It knows nothing of AuthBridge; it talks to 'react-native'.
const { NativeModules, NativeEventEmitter } = require('react-native');

const { FRAuthSampleBridge, AuthenticationTokenModule } = NativeModules;
let started = null;

/** Runs the Login journey with a username and password; resolves the user's claims. */
async function signIn(username, password) {
  started ??= FRAuthSampleBridge.start();
  await started;
  let data;
  try {
    data = await FRAuthSampleBridge.login();
  } catch (error) {
    // The sample's retry: a user is still logged in natively.
    FRAuthSampleBridge.logout();
    data = await FRAuthSampleBridge.login();
  }
  const step = JSON.parse(data);
  for (const callback of step.callbacks) {
    if (callback.type === 'NameCallback') callback.input[0].value = username;
    if (callback.type === 'PasswordCallback') callback.input[0].value = password;
  }
  const response = await FRAuthSampleBridge.next(JSON.stringify(step));
  if (response?.type !== 'LoginSuccess') throw new Error('the journey asked for more');
  return FRAuthSampleBridge.getUserInfo();
}

/** What the todo API client does: the Authorization header from the native token. */
async function authorizationHeader() {
  const { tokenType, value } = JSON.parse(await FRAuthSampleBridge.getAccessToken());
  return `${tokenType} ${value}`;
}

function signOut() {
  return FRAuthSampleBridge.logout();
}

/** Keeps a JS token store in step with native; returns a function that stops listening. */
function syncTokens(store) {
  const emitter = new NativeEventEmitter(AuthenticationTokenModule);
  const subscriptions = [
    emitter.addListener('TOKEN_EVENT', (tokens) => {
      if (tokens.generation > (store.generation ?? 0)) Object.assign(store, tokens, { loggedIn: true });
    }),
    emitter.addListener('LOGOUT_EVENT', ({ generation }) => Object.assign(store, { loggedIn: false, accessToken: null, generation })),
    emitter.addListener('TOKEN_REQUEST_EVENT', () => {
      if (store.accessToken) AuthenticationTokenModule.tokenUpdate(store);
    }),
  ];
  AuthenticationTokenModule.tokenSyncReady();
  return () => subscriptions.forEach((s) => s.remove());
}

/** What app code checks before using a stored token: expired on the device's clock. */
function isExpired(store) {
  return !store.expiresAt || store.expiresAt * 1000 <= Date.now();
}

module.exports = { signIn, signOut, authorizationHeader, syncTokens, isExpired };
