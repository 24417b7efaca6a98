// A social sign-in as the Ping SDK's JS does it (@ping-identity/rn-external-idp
// `src/externalIdp.ts` over `src/NativeRNPingExternalIdp.ts`, with @ping-identity/rn-journey):
// the module found through TurboModuleRegistry (or the classic fallback), the provider chosen on
// the SelectIdpCallback, the IdpCallback authorized with the emulated provider's SDK, then
// `next({})`. The journey is docs/examples/am-exports/social/SocialLogin.journey.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';

const journeys = fileURLToPath(new URL('../../../docs/examples/am-exports/social/SocialLogin.journey.json', import.meta.url));

/** The SDK's `getNativeModule()`: TurboModule first, then the classic bridge module. */
function nativeModule(bridge) {
  return bridge.turboModuleRegistry().get('RNPingExternalIdp') ?? bridge.nativeModules().RNPingExternalIdpClassic;
}

/** What `createExternalIdpClient({ redirectUri })` hands the app, minus logging. */
function externalIdpClient(bridge, redirectUri = '') {
  const config = { redirectUri: redirectUri.trim() };
  return {
    async selectProviderForJourney(journeyId, provider, options = {}) {
      const selected = provider?.trim();
      if (!selected) throw new Error('`provider` is required.');
      await nativeModule(bridge).selectProviderForJourney(journeyId, selected, options, config);
    },
    async authorizeForJourney(journeyId, options = {}) {
      const result = await nativeModule(bridge).authorizeForJourney(journeyId, options, config);
      // `fromNativeAuthorizeResult`: a string token, string additional parameters.
      assert.equal(typeof result.token, 'string');
      for (const value of Object.values(result.additionalParameters ?? {})) assert.equal(typeof value, 'string');
      return result;
    },
  };
}

/** One social sign-in through the journey and the external IdP client, as an app's screen runs it. */
async function socialSignIn(journey, idp, id, provider) {
  const select = await journey.start(id, 'SocialLogin', { forceAuth: true, noSession: false });
  assert.equal(select.type, 'ContinueNode');
  const offered = select.callbacks[0].raw.output.find((o) => o.name === 'providers').value.map((p) => p.provider);
  assert.deepEqual(offered, ['apple', 'facebook', 'google', 'localAuthentication']);
  assert.equal(select.callbacks[0].type, 'SelectIdpCallback');
  await idp.selectProviderForJourney(id, provider);
  const authorize = await journey.next(id, '', {});
  assert.equal(authorize.callbacks[0].type, 'IdpCallback');
  const result = await idp.authorizeForJourney(id);
  return { result, node: await journey.next(id, '', {}) };
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: a new Google user is provisioned, then signs in again; Facebook links to the demo user`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', journeys] });
    try {
      const journey = bridge.turboModuleRegistry().get('RNPingJourney');
      const idp = externalIdpClient(bridge, 'com.example.reactnative.todo://callback');
      assert.equal(bridge.nativeModules().RNPingExternalIdpClassic, nativeModule(bridge), 'the classic fallback is the same module');
      const id = await journey.configureJourney({ serverUrl: 'http://localhost:8080/am', realm: 'alpha' });

      const google = await socialSignIn(journey, idp, id, 'google');
      assert.equal(google.node.type, 'SuccessNode');
      assert.deepEqual(google.result.additionalParameters, flavor === 'rn-ios' ? undefined : {});
      const claims = JSON.parse(Buffer.from(google.result.token.split('.')[1], 'base64url'));
      assert.equal(claims.iss, 'https://accounts.google.com');
      assert.equal(claims.email, 'sam.social@gmail.com');
      const again = await socialSignIn(journey, idp, id, 'google');
      assert.equal(again.node.type, 'SuccessNode');

      const facebook = await socialSignIn(journey, idp, id, 'facebook');
      assert.equal(facebook.node.type, 'SuccessNode');
      const linked = await socialSignIn(journey, idp, id, 'facebook');
      assert.equal(linked.node.type, 'SuccessNode');

      // Apple: its response JSON on iOS; on Android the browser's form_post result, whose code AM redeems.
      const apple = await socialSignIn(journey, idp, id, 'apple');
      assert.equal(apple.node.type, 'SuccessNode');
      if (flavor === 'rn-ios') {
        assert.equal(JSON.parse(apple.result.additionalParameters.acceptsJSON).id_token, apple.result.token);
      } else {
        assert.equal(apple.result.token, 'form_post_entry');
        assert.deepEqual(Object.keys(apple.result.additionalParameters), ['code', 'id_token', 'user']);
      }

      await assert.rejects(idp.authorizeForJourney(id, { index: 3 }), (error) => error.code === 'EXTERNAL_IDP_CALLBACK_NOT_FOUND'
        && error.userInfo.type === 'state_error' && error.message === `No active IdP callback found for journey ${id} at index 3.`);
      await assert.rejects(nativeModule(bridge).authorizeForDaVinci('dv-1', {}, { redirectUri: '' }),
        (error) => error.code === 'EXTERNAL_IDP_CALLBACK_NOT_FOUND' && error.userInfo.type === 'state_error');
    } finally {
      await bridge.close();
    }
  });
}
