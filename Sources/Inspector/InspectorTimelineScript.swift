/// The inspector's timeline: the entries of `timeline` events (batches), newest first, filtered by
/// face, user, journey and text (the user and journey choices are those the entries name); each
/// entry opens (click, Enter or Space) to its redacted request and response. New entries are put
/// in front of the list, so an entry left open stays open; ↑ and ↓ (Home, End) move between
/// entries.
enum InspectorTimelineScript {
    static let script = #"""
        'use strict';
        const timeline = [];
        const named = { user: new Set(), journey: new Set() };
        function matches(entry) {
          const face = $('filter-face').value, user = $('filter-user').value, journey = $('filter-journey').value;
          const text = $('filter-text').value.toLowerCase();
          if (face && entry.face !== face) return false;
          if (user && entry.user !== user) return false;
          if (journey && entry.journey !== journey) return false;
          return !text || JSON.stringify(entry).toLowerCase().includes(text);
        }
        function entryNode(entry) {
          const body = [];
          if (entry.request !== undefined) body.push(el('pre', {}, 'request ' + JSON.stringify(entry.request, null, 2)));
          if (entry.response !== undefined) body.push(el('pre', {}, 'response ' + JSON.stringify(entry.response, null, 2)));
          if (!body.length) body.push(el('p', { className: 'empty' }, 'no request or response kept'));
          const reason = entry.face === 'journey' ? entry.response?.reason?.message : undefined;
          const summary = el('summary', {}, el('time', {}, entry.at.slice(11, 23)), ' ', el('span', { className: 'face' }, entry.face),
            ' ', el('span', { className: 'name' }, entry.name),
            entry.user ? el('span', { className: 'who' }, ' · user ' + entry.user) : '',
            entry.journey ? el('span', { className: 'who' }, ' · journey ' + entry.journey) : '',
            entry.ms === undefined ? '' : ' · ' + entry.ms + ' ms', entry.response?.status ? ' · ' + entry.response.status : '',
            entry.failed ? ' · failed' : '', reason ? ' · ' + reason : '');
          return el('li', { className: entry.failed ? 'failed' : '' }, el('details', {}, summary, ...body));
        }
        function offer(kind, value) {
          if (!value || named[kind].has(value)) return;
          named[kind].add(value);
          const select = $('filter-' + kind);
          const options = [...select.options].slice(1);
          const before = options.find((option) => option.value > value);
          select.insertBefore(el('option', { value }, value), before ?? null);
        }
        function renderTimeline() {
          $('timeline').replaceChildren(...timeline.filter(matches).reverse().map(entryNode));
        }
        function addEntries(entries) {
          const list = $('timeline');
          for (const entry of entries) {
            if (timeline.length && entry.sequence <= timeline[timeline.length - 1].sequence) continue;
            timeline.push(entry);
            offer('user', entry.user);
            offer('journey', entry.journey);
            if (matches(entry)) list.prepend(entryNode(entry));
          }
          if (timeline.length > 500) timeline.splice(0, timeline.length - 500);
          while (list.children.length > 500) list.lastElementChild.remove();
        }
        function moveInTimeline(event) {
          const summaries = [...$('timeline').querySelectorAll('summary')];
          const at = summaries.indexOf(document.activeElement);
          if (at < 0) return;
          const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: summaries.length - 1 }[event.key];
          if (to === undefined || !summaries[to]) return;
          event.preventDefault();
          summaries[to].focus();
        }
        document.addEventListener('DOMContentLoaded', () => {
          $('filter-user').addEventListener('change', renderTimeline);
          $('filter-journey').addEventListener('change', renderTimeline);
          $('timeline').addEventListener('keydown', moveInTimeline);
        });

        """#
}
