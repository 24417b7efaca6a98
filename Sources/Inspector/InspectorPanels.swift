/// The inspector's panels: `render(state)` draws each section of the page from one `state` event.
enum InspectorPanels {
    static let script = #"""
        'use strict';
        function render(state) {
          $('clock').textContent = time(state.now) + (state.virtualClock ? ' (virtual clock)' : '');
          $('flavor').textContent = state.flavor;
          const code = state.outbox.oneTimeCode, link = state.outbox.resumeLink;
          const outbox = [];
          if (code) outbox.push(['one-time code', el('span', { className: 'code', id: 'one-time-code' }, code.code),
            code.delivery + ' to ' + (code.to || '(no address)') + ' for ' + code.username + ' (' + code.journey + '), expires ' + time(code.expiresAt)]);
          const safe = (url) => /^https?:\/\//.test(url) ? url : '#';
          if (link) outbox.push(['resume link', el('a', { href: safe(link.resumeUri), className: 'mono' }, link.resumeUri),
            'to ' + (link.to || '(no address)') + ' for ' + link.username + ' (' + link.journey + ')']);
          show('outbox', table(['kind', 'value', 'sent'], outbox));
          const phoneRows = [];
          for (const phone of state.phones) {
            for (const oath of phone.oath) phoneRows.push([phone.id, oath.kind + ' ' + oath.id, el('span', { className: 'code' }, oath.code)]);
            for (const push of phone.pushNotifications) {
              const path = 'phones/' + encodeURIComponent(phone.id) + '/notifications/' + encodeURIComponent(push.id);
              const approve = push.numbers
                ? el('span', {}, ...push.numbers.map((n) => action('Approve ' + n, 'POST', path + '/approve', { number: n })))
                : action('Approve', 'POST', path + '/approve');
              phoneRows.push([phone.id, 'push: ' + push.message + ' (expires ' + time(push.expiresAt) + ')',
                el('span', { className: 'push' }, approve, ' ', action('Deny', 'POST', path + '/deny'))]);
            }
          }
          show('phones', table(['phone', 'credential or notification', 'code or answer'], phoneRows));
          const failure = state.lastFailure;
          show('failure', failure ? json(failure) : el('p', { className: 'empty' }, 'none'));
          const native = state.native, tokens = native.tokens;
          show('native', table(['', ''], [
            ['token sync ready', String(native.ready)], ['SSO session', String(native.ssoSession)],
            ['pending token request', native.pendingTokenRequest ?? '—'],
            ['access token', tokens ? tokens.accessToken + ' (expires in ' + Math.round(tokens.expiresIn) + ' s' + (tokens.stale ? ', stale' : '') + ')' : '—'],
            ['ID token claims', tokens?.idTokenClaims ? json(tokens.idTokenClaims) : '—'],
          ]));
          show('users', table(['username', 'attributes', 'devices', 'lock'], state.users.map((u) => {
            const path = 'users/' + encodeURIComponent(u.username);
            return [u.username, json(u.attributes), u.devices.map((d) => d.kind + ': ' + (d.deviceName ?? d.uuid ?? '')).join(', ') || '—',
              el('span', {}, u.locked ? 'locked' + (u.lockedUntil ? ' until ' + time(u.lockedUntil) + ' ' : ' ') : '',
                u.locked ? action('Unlock', 'PATCH', path, { lock: null }) : action('Lock', 'PATCH', path, { lock: { until: null } }),
                ' ', action('Revoke sessions and tokens', 'POST', path + '/revoke', {}))];
          })));
          show('sessions', table(['user', 'token', 'since', 'journeys', ''], state.sessions.map((s) => [
            s.username, el('span', { className: 'mono' }, s.token), time(s.authTime), s.journeys.join(', '),
            action('End', 'DELETE', 'sessions/ops/' + encodeURIComponent(s.opsId))])));
          show('journeys', table(['journey', 'node', 'step', 'user', 'times out in'], state.journeys.map((j) => [
            j.journey + (j.tree !== j.journey ? ' › ' + j.tree : ''), j.node, (j.stage ? j.stage + ': ' : '') + j.callbacks.join(', '),
            j.username ?? '—', Math.round(j.timesOutIn) + ' s'])));
          show('grants', table(['client', 'user', 'scopes', 'since', 'refresh for'], state.grants.map((g) => [
            g.clientId, g.username ?? '—', g.scopes.join(' '), time(g.authTime), Math.round(g.refreshExpiresIn) + ' s'])));
          show('faults', table(['id', 'spec', ''], state.faults.map((f) => [
            f.id, json(f), action('Clear', 'DELETE', 'faults/' + encodeURIComponent(f.id))])));
        }

        """#
}
