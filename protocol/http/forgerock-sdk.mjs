// The ForgeRock JavaScript SDK's requests as a browser sends them (method, headers, credentials),
// from the SDK's source (ForgeRock/forgerock-javascript-sdk at 6d1ae39, packages/javascript-sdk/src:
// auth, oauth2-client, session-manager, config): one description for every browser-shaped test.
export const SDK = {
  authenticate: (body) => ({
    method: 'POST', credentials: 'include', body,
    headers: {
      Accept: 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1',
      'Content-Type': 'application/json', 'X-Requested-With': 'forgerock-sdk',
    },
  }),
  accessToken: (body) => ({
    method: 'POST', body,
    headers: { 'Content-Length': String(body.length), 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
  }),
  userInfo: (accessToken) => ({
    credentials: 'include', headers: { Accept: 'application/json', Authorization: `Bearer ${accessToken}` },
  }),
  revoke: (body) => ({
    method: 'POST', credentials: 'include', body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
  }),
  sessionsLogout: () => ({
    method: 'POST', credentials: 'include',
    headers: { 'Accept-API-Version': 'protocol=1.0,resource=2.0', 'X-Requested-With': 'forgerock-sdk' },
  }),
  endSession: (accessToken) => ({
    credentials: 'include', headers: { Accept: 'application/json', Authorization: `Bearer ${accessToken}` },
  }),
  // The well-known fetch (Config.setAsync with a wellknown URL).
  wellKnown: () => ({ headers: { Accept: 'application/json' } }),
};
