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
          showIf('native', [native, Math.round(tokens?.expiresIn ?? 0)], () => el('div', {}, table(['', ''], [
            ['flavor and bridge', native.flavor + ' (' + native.variant + ' bridge)'],
            ['token sync ready', String(native.ready)], ['SSO session', String(native.ssoSession)],
            ['pending token request', native.pendingTokenRequest ?? '—'],
            ['access token', tokens ? tokens.accessToken + ' (expires in ' + Math.round(tokens.expiresIn) + ' s' + (tokens.stale ? ', stale' : '') + ')' : '—'],
            ['ID token claims', tokens?.idTokenClaims ? json(tokens.idTokenClaims) : '—'],
          ]), el('h3', {}, 'Token sync, last ' + native.history.length + ' transitions (newest first)'),
          table(['when', 'what', 'reason', 'generation'], native.history.slice().reverse().map((t) => [
            time(t.at), (t.kind === 'sent' ? 'sent ' : t.kind === 'fromJS' ? 'from JS: ' : 'not sent (JS not listening): ') + t.name,
            t.reason, t.generation ?? '—']))));
          show('users', table(['username', 'attributes', 'devices', 'lock'], state.users.map((u) => {
            const path = 'users/' + encodeURIComponent(u.username);
            return [u.username, members(u.attributes), u.devices.map((d) => d.kind + ': ' + (d.deviceName ?? d.uuid ?? '')).join(', ') || '—',
              el('span', {}, u.locked ? 'locked' + (u.lockedUntil ? ' until ' + time(u.lockedUntil) + ' ' : ' ') : '',
                u.locked ? action('Unlock', 'PATCH', path, { lock: null }) : action('Lock', 'PATCH', path, { lock: { until: null } }),
                ' ', action('Revoke sessions and tokens', 'POST', path + '/revoke', {}),
                ' ', action('Expire tokens', 'POST', path + '/tokens/expire', {}, 'Expire the access tokens of ' + u.username))];
          })));
          show('sessions', table(['user', 'token', 'since', 'journeys', ''], state.sessions.map((s) => [
            s.username, el('span', { className: 'mono' }, s.token), time(s.authTime), s.journeys.join(', '),
            action('End', 'DELETE', 'sessions/ops/' + encodeURIComponent(s.opsId))])));
          const scripted = new Map(state.scriptedNodes.map((j) => [j.journey, j.nodes]));
          showIf('journeys', [state.journeys, state.scriptedNodes], () => table(['journey', 'node', 'step', 'user', 'times out in', 'choose its outcome'],
            state.journeys.map((j) => {
              const node = (scripted.get(j.tree) ?? []).find((n) => n.id === j.node);
              const choices = node ? el('span', { className: 'choices' }, ...node.outcomes.map((o) =>
                action(o, 'PUT', outcomePath(j.tree, node.id), { outcome: o }, 'Outcome ' + o + ' for ' + (node.displayName ?? node.id) + ' of ' + j.tree)))
                : '—';
              return [j.journey + (j.tree !== j.journey ? ' › ' + j.tree : ''), j.node, (j.stage ? j.stage + ': ' : '') + j.callbacks.join(', '),
                j.username ?? '—', Math.round(j.timesOutIn) + ' s', choices];
            })));
          showIf('scripted', [state.scriptedNodes, state.davinciSteps], () => el('div', {}, scriptedNodes(state.scriptedNodes), davinciSteps(state.davinciSteps)));
          showIf('grants', [state.grants, state.grantsLeftOut, Math.round(state.now)], () => grants(state));
          show('faults', table(['id', 'spec', ''], state.faults.map((f) => [
            f.id, json(f), action('Clear', 'DELETE', 'faults/' + encodeURIComponent(f.id))])));
        }

        const outcomePath = (journey, node) => 'journeys/' + encodeURIComponent(journey) + '/nodes/' + encodeURIComponent(node) + '/outcome';

        /** Per journey, its scripted nodes, each with its outcomes as a select and a Set button. */
        function scriptedNodes(journeys) {
          if (!journeys.length) return el('p', { className: 'empty' }, 'no loaded journey has a scripted node');
          return el('div', {}, ...journeys.map((j, jn) => el('fieldset', {}, el('legend', {}, j.journey),
            ...j.nodes.map((n, nn) => {
              const id = 'choice-' + jn + '-' + nn, name = n.displayName ? n.displayName + ' (' + n.id + ')' : n.id;
              const select = el('select', { id }, ...n.outcomes.map((o) => el('option', { value: o, selected: o === n.chosen }, o)));
              const set = el('button', { type: 'button', id: id + '-set', onclick: () => admin('PUT', outcomePath(j.journey, n.id), { outcome: select.value }) }, 'Set');
              set.setAttribute('aria-label', 'Set the outcome of ' + name);
              return el('p', {}, el('label', { htmlFor: id }, name + ' takes '), select, ' ', set,
                el('span', { className: 'empty' }, n.chosen ? ' (chosen now: ' + n.chosen + ')' : ' (none chosen: the journey fails there)'));
            }))));
        }

        /** Per DaVinci flow, its connector steps AuthBridge does not run, each with its outcomes as a select and a Set button. */
        function davinciSteps(flows) {
          if (!flows.length) return '';
          return el('div', {}, ...flows.map((f, fn) => el('fieldset', {}, el('legend', {}, 'DaVinci flow ' + f.name),
            ...f.scenarioSteps.map((step, sn) => {
              const id = 'davinci-' + fn + '-' + sn;
              const select = el('select', { id }, ...step.outcomes.map((o) => el('option', { value: o, selected: o === step.chosen }, o)));
              const path = 'davinci/flows/' + encodeURIComponent(f.name) + '/nodes/' + encodeURIComponent(step.node) + '/outcome';
              const set = el('button', { type: 'button', id: id + '-set', onclick: () => admin('PUT', path, { outcome: select.value }) }, 'Set');
              set.setAttribute('aria-label', 'Set the outcome of step ' + step.node + ' of flow ' + f.name);
              return el('p', {}, el('label', { htmlFor: id }, step.node + ' takes '), select, ' ', set,
                el('span', { className: 'empty' }, step.chosen ? ' (chosen now: ' + step.chosen + ')' : ' (none chosen: the step\'s default decides)'));
            }))));
        }

        /** Per user, each grant with its last access tokens (decoded, with what introspection would say) and ID token claims. */
        function grants(state) {
          const list = state.grants;
          const sorted = list.slice().sort((a, b) => (a.username ?? '').localeCompare(b.username ?? '') || a.authTime - b.authTime);
          return el('div', {}, table(['user', 'client', 'grant', 'scopes', 'since', 'refresh for', 'access tokens', 'ID token claims'], sorted.map((g) => [
            g.username ?? '—', g.clientId, el('span', { className: 'state-' + g.state }, g.state + (g.endedAt ? ' at ' + time(g.endedAt) : '')),
            g.scopes.join(' '), time(g.authTime), g.state === 'active' ? Math.round(g.refreshExpiresIn) + ' s' : '—',
            g.accessTokens.length ? el('ul', { className: 'tokens' }, ...g.accessTokens.slice().reverse().map((t) => el('li', {},
              el('details', { id: 'token-' + t.claims.jti }, el('summary', {}, el('span', { className: 'state-' + t.state }, t.state), ' jti ' + t.claims.jti + ', expires ' + time(t.expiresAt)
                + (t.expiredAt ? ' (expired by an administrator at ' + time(t.expiredAt) + ')' : '')),
                el('div', {}, 'header ', json(t.header)), el('div', {}, 'claims ', json(t.claims)))))) : '—',
            g.idTokenClaims ? el('details', { id: 'id-token-' + g.id }, el('summary', {}, 'sub ' + g.idTokenClaims.sub), json(g.idTokenClaims)) : '—'])),
            state.grantsLeftOut ? el('p', { className: 'empty' }, state.grantsLeftOut + ' grants used less recently are not shown') : '');
        }

        /** Redraws a section only when what it shows changed, so a control keeps its focus across
         * unrelated updates; when it is redrawn, the control that had focus gets it back by id. */
        const shownKeys = new Map();
        function showIf(id, data, build) {
          const key = JSON.stringify(data);
          if (shownKeys.get(id) === key) return;
          shownKeys.set(id, key);
          const focused = $(id).contains(document.activeElement) ? document.activeElement.id : '';
          const open = [...$(id).querySelectorAll('details[open]')].map((d) => d.id).filter(Boolean);
          show(id, build());
          for (const detail of open) { const node = $(detail); if (node) node.open = true; }
          if (focused) $(focused)?.focus();
        }

        """#
}
