// The supportdraft sidebar inside Zendesk: shows the ticket's draft, inserts it into the
// reply box, and checks the reply on every ticket save. Results are written with
// textContent only. The session cookie was set when the server verified Zendesk's JWT;
// the CSRF token comes with the page.
(function () {
  'use strict';
  var root = document.getElementById('zd');
  var csrf = root.dataset.csrf;
  var client = ZAFClient.init();
  var ticketID = null;
  var draft = null;
  var override = { text: '', reason: '' };
  // Verdicts that cancel the save: the agent must act first.
  var cancelling = { stale: true, unsupported: true, review_pending: true, blocked: true };

  function el(id) { return document.getElementById(id); }
  function say(id, text, cls) { var e = el(id); e.textContent = text; e.className = cls || ''; }

  function api(method, path, body) {
    return fetch(path, {
      method: method, credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: body ? JSON.stringify(body) : undefined
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) { return { status: r.status, body: j }; });
    });
  }

  // plain turns the reply box's HTML into the text the customer will read.
  function plain(html) {
    return new DOMParser().parseFromString(html || '', 'text/html').body.textContent.trim();
  }

  // reason is the sentence shown when a verdict cancels the save; "" lets it through.
  function reason(v) {
    switch (v.verdict) {
      case 'stale':
        return 'The draft is out of date: ' + (v.reasons || []).map(function (r) { return r.message; }).join(' ') +
          ' Rebuild it in supportdraft before sending.';
      case 'unsupported':
        return 'Not backed by current policy: ' + (v.unsupported || []).map(function (u) { return '"' + u.sentence + '"'; }).join(' ') +
          ' Fix these sentences, or record a reason in the supportdraft sidebar to send anyway.';
      case 'review_pending':
        return v.warning || 'This draft is waiting for a reviewer: send it once it is approved.';
      case 'blocked':
        return v.warning || 'The reply cannot be sent as it is.';
    }
    return '';
  }

  function check(text, withOverride) {
    var body = { text: text };
    if (withOverride) { body.override_reason = withOverride; }
    return api('POST', '/v1/drafts/' + encodeURIComponent(ticketID) + '/send-check', body);
  }

  function load() {
    return client.get('ticket.id').then(function (d) {
      ticketID = 'zendesk-' + d['ticket.id'];
      return api('GET', '/v1/drafts/' + encodeURIComponent(ticketID));
    }).then(function (r) {
      if (r.status === 404) { say('status', 'No draft for this ticket yet.'); return; }
      if (r.status !== 200) { say('status', r.body.error || 'The draft could not be loaded.', 'bad'); return; }
      draft = r.body;
      el('reply').textContent = draft.reply || '';
      el('insert').disabled = !draft.reply;
      say('status', draft.abstained ? 'No policy answers this ticket: write the reply yourself.' :
        'Draft #' + draft.iteration + ', confidence ' + Math.round(100 * draft.confidence) + '%.');
    });
  }

  el('insert').addEventListener('click', function () {
    if (draft && draft.reply) { client.invoke('comment.appendText', draft.reply); }
  });

  el('override').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var why = el('override-reason').value.trim();
    client.get('comment.text').then(function (d) {
      var text = plain(d['comment.text']);
      return check(text, why).then(function (r) {
        if (r.status !== 200) { say('check', r.body.error || 'The reason could not be recorded.', 'bad'); return; }
        override = { text: text, reason: why };
        say('check', 'Reason recorded: this reply may be sent as it is.', 'ok');
        el('override').hidden = true;
      });
    });
  });

  // The send hook: a rejected promise cancels the save and Zendesk shows its message.
  client.on('ticket.save', function () {
    return client.get('comment.text').then(function (d) {
      var text = plain(d['comment.text']);
      if (!text || !ticketID) { return true; }
      return check(text, override.text === text ? override.reason : '').then(function (r) {
        if (r.status !== 200) { return true; } // no draft for this ticket, or the check is down: nothing to hold the reply to
        var why = reason(r.body);
        el('override').hidden = r.body.verdict !== 'unsupported';
        if (why) { say('check', why, 'bad'); return Promise.reject(why); }
        say('check', r.body.warning || 'Checked: current policy backs this reply.', r.body.warning ? 'bad' : 'ok');
        return true;
      });
    });
  });

  client.invoke('resize', { width: '100%', height: '420px' });
  load();
}());
