/// The inspector's timeline: the entries of `timeline` events, filtered, newest first, each opening
/// to its redacted request and response.
enum InspectorTimelineScript {
    static let script = #"""
        'use strict';
        const timeline = [];
        function matches(entry) {
          const face = $('filter-face').value, text = $('filter-text').value.toLowerCase();
          if (face && entry.face !== face) return false;
          return !text || JSON.stringify(entry).toLowerCase().includes(text);
        }
        function entryNode(entry) {
          const body = [];
          if (entry.request !== undefined) body.push(el('pre', {}, 'request ' + JSON.stringify(entry.request, null, 2)));
          if (entry.response !== undefined) body.push(el('pre', {}, 'response ' + JSON.stringify(entry.response, null, 2)));
          const summary = el('summary', {}, entry.at.slice(11, 23) + ' ', el('span', { className: 'face' }, entry.face), ' ' + entry.name,
            entry.ms === undefined ? '' : ' · ' + entry.ms + ' ms', entry.response?.status ? ' · ' + entry.response.status : '',
            entry.failed ? ' · failed' : '');
          return el('li', { className: entry.failed ? 'failed' : '' }, el('details', {}, summary, ...body));
        }
        function renderTimeline() {
          $('timeline').replaceChildren(...timeline.filter(matches).reverse().map(entryNode));
        }
        function addEntries(entries) {
          for (const entry of entries) if (!timeline.length || entry.sequence > timeline[timeline.length - 1].sequence) timeline.push(entry);
          if (timeline.length > 500) timeline.splice(0, timeline.length - 500);
          renderTimeline();
        }

        """#
}
