// supportdraft pages: the live parts of the sidebar. Everything goes through the JSON API
// with the session cookie and the page's CSRF token; results are written with textContent
// only, so no text from a draft or a customer is ever parsed as HTML.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="csrf"]');
  var csrf = meta ? meta.content : "";

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { throw new Error(data.error || r.statusText); }
        return data;
      });
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // Forms marked data-api (Rebuild, the kill switch) post through fetch, with the JSON in
  // data-body if any, and reload the page on success.
  document.querySelectorAll("form[data-api]").forEach(function (f) {
    f.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var btn = f.querySelector("button");
      var status = f.querySelector(".form-status");
      btn.disabled = true;
      if (status) { status.textContent = "Working…"; }
      post(f.getAttribute("action"), f.dataset.body ? JSON.parse(f.dataset.body) : undefined).then(function () { location.reload(); }).catch(function (err) {
        btn.disabled = false;
        if (status) { status.textContent = err.message; }
      });
    });
  });

  // Review windows count down on the page; the server's figure is the start.
  document.querySelectorAll("time.countdown").forEach(function (t) {
    var until = Date.parse(t.getAttribute("datetime"));
    var tick = function () {
      var s = Math.max(0, Math.round((until - Date.now()) / 1000));
      t.textContent = Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
    };
    tick();
    setInterval(tick, 1000);
  });

  var section = document.getElementById("editor-section");
  if (!section) { return; }
  var ticket = encodeURIComponent(section.dataset.ticket);
  var editor = document.getElementById("editor");
  var guard = document.getElementById("guard");
  var verdict = document.getElementById("verdict");

  // The guard checks the editor's text as the agent types, half a second after the last key.
  var timer = null, seq = 0;
  editor.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 500);
  });

  function check() {
    var mine = ++seq;
    if (!editor.value.trim()) { guard.textContent = ""; return; }
    guard.textContent = "Checking…";
    post("/v1/drafts/" + ticket + "/edit", { text: editor.value }).then(function (res) {
      if (mine !== seq) { return; }
      guard.textContent = "";
      var bad = (res.sentences || []).filter(function (s) { return !s.kept; });
      if (bad.length === 0) {
        guard.appendChild(el("p", "good", "Every sentence is backed by eligible policy."));
        return;
      }
      guard.appendChild(el("p", "bad", bad.length + (bad.length === 1 ? " sentence is" : " sentences are") + " not supported by current policy:"));
      var ul = el("ul", "unsupported");
      bad.forEach(function (s) {
        var li = el("li", "bad");
        li.appendChild(el("strong", "", s.text));
        li.appendChild(el("span", "", " — " + s.reason));
        ul.appendChild(li);
      });
      guard.appendChild(ul);
    }).catch(function (err) {
      if (mine === seq) { guard.textContent = "Could not check: " + err.message; }
    });
  }

  var advice = {
    ok: "Current: send it.",
    stale: "Something changed since this draft was built. Rebuild, then read it again before sending.",
    unsupported: "A sentence is not backed by current policy. Remove or fix it, or send with an explicit override.",
    blocked: "Fill in the placeholders before sending.",
    unchecked: "The check could not run. You may send, but read the reply carefully first."
  };

  document.getElementById("send-check").addEventListener("click", function () {
    var btn = this;
    btn.disabled = true;
    verdict.textContent = "Checking…";
    post("/v1/drafts/" + ticket + "/send-check", { text: editor.value }).then(function (res) {
      verdict.textContent = "";
      var p = el("p");
      p.appendChild(el("span", "verdict verdict-" + res.verdict, res.verdict));
      verdict.appendChild(p);
      verdict.appendChild(el("p", "what", advice[res.verdict] || "See the reasons below."));
      var items = (res.reasons || []).map(function (r) { return r.message; })
        .concat(res.placeholders ? ["Placeholders: " + res.placeholders.join(", ")] : [])
        .concat(res.warning ? [res.warning] : []);
      if (items.length) {
        var ul = el("ul");
        items.forEach(function (t) { ul.appendChild(el("li", "", t)); });
        verdict.appendChild(ul);
      }
    }).catch(function (err) {
      verdict.textContent = "Send check failed: " + err.message;
    }).then(function () { btn.disabled = false; });
  });
})();
