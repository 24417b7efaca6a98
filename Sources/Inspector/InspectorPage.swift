/// The inspector's page, script and style: plain HTML, CSS and JS, served as they are here.
/// The script renders each `state` event of `/inspector/events` (no reload) and acts through the
/// admin API (`/emulator/v1`), one request, one unit of work, per action. It builds the page with
/// DOM calls and `textContent`, never markup from data, so a value cannot inject anything.
enum InspectorPage {
    static let html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>AuthBridge inspector</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/inspector/app.css">
        <script src="/inspector/app.js" defer></script>
        <script src="/inspector/panels.js" defer></script>
        <script src="/inspector/timeline.js" defer></script>
        </head><body>
        <header>
          <h1>AuthBridge inspector</h1>
          <p><span id="live" class="off">connecting…</span> · <span id="clock"></span> · <span id="flavor"></span></p>
          <form id="advance"><label>Advance the clock by <input id="advance-seconds" type="number" min="0" value="60" size="6"> s</label> <button>Advance</button></form>
          <p><button id="reset" type="button">Reset the world</button> <a href="/emulator/v1/export" download="authbridge-export.json">Export the state</a></p>
          <p id="message" role="status" aria-live="polite"></p>
        </header>
        <main>
          <section id="timeline-section" aria-labelledby="h-timeline"><h2 id="h-timeline">Timeline</h2>
            <form id="timeline-filter"><label>Face <select id="filter-face"><option value="">all</option><option>stdio</option><option>ping</option><option>http</option><option>event</option><option>journey</option></select></label>
            <label>User <select id="filter-user"><option value="">all</option></select></label>
            <label>Journey <select id="filter-journey"><option value="">all</option></select></label>
            <label>Containing (a user, a journey, a method) <input id="filter-text" type="search" size="20"></label></form>
            <ol id="timeline" reversed></ol></section>
          <section aria-labelledby="h-outbox"><h2 id="h-outbox">Outbox</h2><div id="outbox"></div></section>
          <section aria-labelledby="h-phones"><h2 id="h-phones">Phones: OATH codes and push notifications</h2><div id="phones"></div></section>
          <section aria-labelledby="h-failure"><h2 id="h-failure">Last failed journey</h2><div id="failure"></div></section>
          <section aria-labelledby="h-scripted"><h2 id="h-scripted">Scripted nodes and DaVinci steps: the outcome the next visit takes</h2><div id="scripted"></div></section>
          <section aria-labelledby="h-native"><h2 id="h-native">Native side</h2><div id="native"></div></section>
          <section aria-labelledby="h-users"><h2 id="h-users">Users</h2><div id="users"></div>
            <form id="add-user"><label>Username <input id="new-username" required size="10"></label>
            <label>Password <input id="new-password" type="password" required size="10" autocomplete="new-password"></label>
            <button>Add user</button></form></section>
          <section aria-labelledby="h-sessions"><h2 id="h-sessions">SSO sessions</h2><div id="sessions"></div></section>
          <section aria-labelledby="h-journeys"><h2 id="h-journeys">Journeys in flight</h2><div id="journeys"></div></section>
          <section id="grants-section" aria-labelledby="h-grants"><h2 id="h-grants">OAuth grants</h2><div id="grants"></div></section>
          <section aria-labelledby="h-faults"><h2 id="h-faults">Faults</h2><div id="faults"></div>
            <form id="fault"><label>Fault spec (JSON, as emulator.fault takes it)<br>
            <textarea id="fault-spec" rows="2" cols="60">{"route":"accessToken","kind":"status","status":503}</textarea></label><br>
            <button>Inject</button></form></section>
        </main>
        </body></html>

        """

    static let style = """
        body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
        header { background: #1d2b3a; color: #fff; padding: .5rem 1rem; }
        header a { color: #9cd0ff; }
        h1 { font-size: 1.2rem; margin: .2rem 0; }
        h2 { font-size: 1rem; margin: 0 0 .5rem; }
        main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(24rem, 100%), 1fr)); gap: .75rem; padding: .75rem; }
        section { background: #fff; border-radius: 6px; padding: .75rem; overflow-x: auto; min-width: 0; }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #e3e5e8; vertical-align: top; }
        .code { font-family: ui-monospace, monospace; font-size: 1.3rem; letter-spacing: .1em; }
        .mono { font-family: ui-monospace, monospace; font-size: .85rem; word-break: break-all; }
        .members > span { display: block; overflow-wrap: anywhere; } .members b { font-weight: 600; }
        .empty { color: #6b7280; }
        #live.on { color: #7ee787; } #live.off { color: #ffa198; }
        #message { min-height: 1.2em; margin: .2rem 0; }
        button { font: inherit; padding: .15rem .6rem; cursor: pointer; }
        button:focus-visible, a:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #f0b400; }
        h3 { font-size: .9rem; margin: .75rem 0 .3rem; }
        fieldset { border: 1px solid #e3e5e8; margin: 0 0 .5rem; } fieldset p { margin: .2rem 0; }
        .tokens { list-style: none; padding: 0; margin: 0; } .tokens summary { cursor: pointer; }
        .state-active { color: #1a7f37; font-weight: 600; } .state-expired, .state-revoked { color: #b42318; font-weight: 600; }
        .choices button { margin: 0 .2rem .2rem 0; }
        @media (min-width: 60rem) { #grants-section { grid-column: span 2; } }
        header form, header p { display: inline-block; margin: .2rem 1rem .2rem 0; }
        #timeline-section { grid-column: 1 / -1; }
        #timeline { list-style: none; padding: 0; margin: .5rem 0 0; max-height: 24rem; overflow-y: auto; font-size: .85rem; }
        #timeline li { border-bottom: 1px solid #e3e5e8; }
        #timeline summary { cursor: pointer; padding: .15rem 0; }
        #timeline .failed summary { color: #b42318; }
        #timeline .face { display: inline-block; min-width: 3.5rem; font-weight: 600; }
        #timeline pre { white-space: pre-wrap; word-break: break-all; margin: .2rem 0 .4rem 1rem; }
        #timeline summary:focus-visible { outline: 3px solid #f0b400; }
        #timeline .who { color: #4b5563; }
        #timeline-filter label { display: inline-block; margin: 0 .75rem .25rem 0; }
        @media (max-width: 40rem) { main { grid-template-columns: 1fr; } header form, header p { display: block; } }
        @media (max-width: 40rem) { #timeline-filter label { display: block; } #timeline { max-height: 60vh; } #timeline pre { margin-left: 0; } }

        """

    /// The shared helpers (`el`, `admin`, `action`), the live feed and the header's forms; the
    /// panels (`InspectorPanels`) and the timeline (`InspectorTimelineScript`) are scripts of their own,
    /// loaded after this one (`defer` keeps the order).
    static let script = #"""
        'use strict';
        const $ = (id) => document.getElementById(id);
        function el(tag, props, ...children) {
          const node = document.createElement(tag);
          Object.assign(node, props || {});
          for (const child of children) node.append(child instanceof Node ? child : String(child ?? ''));
          return node;
        }
        function time(seconds) { return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'); }
        function table(headers, rows) {
          if (!rows.length) return el('p', { className: 'empty' }, 'none');
          return el('table', {}, el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', {}, h)))),
            el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', {}, c))))));
        }
        function json(value) { return el('span', { className: 'mono' }, JSON.stringify(value)); }
        /** An object's members as lines `name: value`, for reading rather than copying. */
        function members(object) {
          const entries = Object.entries(object ?? {});
          if (!entries.length) return '—';
          return el('span', { className: 'members' }, ...entries.map(([name, value]) =>
            el('span', {}, el('b', {}, name + ': '), typeof value === 'string' ? value : JSON.stringify(value))));
        }
        function show(id, node) { $(id).replaceChildren(node); }
        function say(text) { $('message').textContent = text; }

        async function admin(method, path, body) {
          const response = await fetch('/emulator/v1/' + path, {
            method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.text();
          let answer = null;
          try { answer = text ? JSON.parse(text) : null; } catch (_) { answer = text; }
          if (!response.ok) say(method + ' ' + path + ': ' + (answer?.error?.message ?? response.status));
          else say(method + ' ' + path + ': done');
          return answer;
        }
        /** A button doing one admin call; its id comes from the call, so it is the same after a redraw. */
        function action(label, method, path, body, name) {
          const id = 'do-' + (method + ' ' + path + ' ' + label).replace(/[^A-Za-z0-9_-]+/g, '-');
          const button = el('button', { type: 'button', id, onclick: () => admin(method, path, body) }, label);
          if (name) button.setAttribute('aria-label', name);
          return button;
        }

        function connect() {
          const source = new EventSource('/inspector/events');
          source.addEventListener('timeline', (event) => addEntries(JSON.parse(event.data)));
          source.addEventListener('state', (event) => { $('live').textContent = 'live'; $('live').className = 'on'; render(JSON.parse(event.data)); });
          source.onerror = () => { $('live').textContent = 'disconnected, retrying…'; $('live').className = 'off'; };
        }

        document.addEventListener('DOMContentLoaded', () => {
          $('advance').addEventListener('submit', (event) => {
            event.preventDefault();
            admin('POST', 'clock/advance', { seconds: Number($('advance-seconds').value) });
          });
          $('reset').addEventListener('click', () => admin('POST', 'reset', {}));
          $('add-user').addEventListener('submit', (event) => {
            event.preventDefault();
            admin('POST', 'users', { username: $('new-username').value, password: $('new-password').value });
            $('new-password').value = '';
          });
          $('filter-face').addEventListener('change', renderTimeline);
          $('filter-text').addEventListener('input', renderTimeline);
          $('timeline-filter').addEventListener('submit', (event) => event.preventDefault());
          $('fault').addEventListener('submit', (event) => {
            event.preventDefault();
            let spec;
            try { spec = JSON.parse($('fault-spec').value); } catch (error) { say('the fault spec is not JSON: ' + error.message); return; }
            admin('POST', 'faults', spec);
          });
          connect();
        });

        """#
}
