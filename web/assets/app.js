// supportdraft pages: the live parts. Everything goes through the JSON API with the
// session cookie and the page's CSRF token; results are written with textContent only, so
// no text from a draft or a customer is ever parsed as HTML.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="csrf"]');
  var csrf = meta ? meta.content : "";

  // plainError turns an API refusal into a sentence for the person at the page; the API's
  // own words (which may name fields and routes) stay in err.detail for the details toggle.
  function plainError(status, msg) {
    var words = {
      0: "The server could not be reached. Check your connection and try again.",
      400: "The request was not accepted.",
      401: "Your session has ended. Sign in again (this page will come back).",
      403: "Your sign-in does not allow this.",
      404: "This draft is no longer open.",
      409: "This can no longer be done: the draft changed or its review window closed. The page shows its current state.",
      413: "The reply is too long.",
      429: "Too many requests at once. Wait a few seconds and try again.",
      502: "The draft could not be written. Try again in a moment.",
      503: "Drafting is paused by an admin. Write this reply yourself for now."
    };
    var e = new Error(words[status] || (status >= 500 ? "Something went wrong on our side. Try again in a moment." : "That did not work."));
    e.status = status;
    e.detail = msg || "";
    return e;
  }

  // The agent a call acts for: the open draft's on the review page, else the page's own
  // (a session acting for several agents names one on every call that changes a draft).
  function agentOf() {
    var scoped = document.querySelector("[data-agent]");
    if (scoped && scoped.dataset.agent) { return scoped.dataset.agent; }
    var meta = document.querySelector('meta[name="agent"]');
    return meta ? meta.content : "";
  }

  function call(method, url, body) {
    var init = { method: method, credentials: "same-origin", headers: { "X-CSRF-Token": csrf } };
    var agent = agentOf();
    if (agent) { init.headers["X-Supportdraft-Agent"] = agent; }
    if (method !== "GET") {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body || {});
    }
    return fetch(url, init).catch(function () { throw plainError(0, ""); }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { throw plainError(r.status, data.error || r.statusText); }
        return data;
      });
    });
  }
  function post(url, body) { return call("POST", url, body); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // showError writes an error in words into box, with the API's words under "Details". It
  // stays until the next error or a reload: only the live updates' own error clears itself
  // (poll), so a refused action is not hidden by the next poll.
  function showError(box, prefix, err) {
    delete box.dataset.fromPoll;
    box.textContent = "";
    box.hidden = false;
    box.appendChild(el("span", "", (prefix ? prefix + " " : "") + err.message));
    if (err.detail) {
      var d = el("details", "details");
      d.appendChild(el("summary", "", "Details"));
      d.appendChild(el("p", "small", err.detail));
      box.appendChild(d);
    }
  }

  // plainReason says why the guard flags a sentence, in words for an agent (web's
  // plainReason says the same on the server).
  function plainReason(reason) {
    reason = reason || "";
    if (reason === "not backed by a claim") { return "The draft cites no policy for this sentence."; }
    if (reason.indexOf("unresolved placeholder") === 0) { return "It still has a placeholder to fill in."; }
    if (reason.indexOf("says the opposite of") === 0) { return "Policy in force says the opposite."; }
    if (reason.indexOf("it says this of all") === 0) { return "Policy in force says this only of some customers or plans."; }
    if (reason.indexOf("it says this holds at any time") === 0) { return "Policy in force limits when or how often this applies."; }
    if (reason.indexOf("it reverses before and after") === 0) { return "Policy in force says it happens the other way round (before, not after)."; }
    if (/^says of .* says of others/.test(reason)) { return "Policy in force says this of another plan or customer."; }
    if (reason.indexOf("eligible source") >= 0) { return "No policy in force for this account says this."; }
    return reason ? "Its cited policy does not say this." : "";
  }

  // Times show in the viewer's zone; the UTC time stays on hover (title).
  document.querySelectorAll("time.local").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    if (!isNaN(d)) { t.textContent = d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }); }
  });

  // Review windows count down on the page; when one closes, Pull back and Kill go.
  document.querySelectorAll("time.countdown").forEach(function (t) {
    var until = Date.parse(t.getAttribute("datetime"));
    var row = t.closest("tr");
    var tick = function () {
      var s = Math.max(0, Math.round((until - Date.now()) / 1000));
      t.textContent = Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
      if (s === 0) {
        clearInterval(timer);
        t.parentNode.textContent = "closed";
        if (row && row.classList.contains("selected")) {
          document.querySelectorAll("form.window-only").forEach(function (f) { f.remove(); });
        }
      }
    };
    var timer = setInterval(tick, 1000);
    tick();
  });

  // An action that reloads the page leaves its message here, shown once after the reload.
  var flash = document.getElementById("flash");
  if (flash && sessionStorage.getItem("flash")) {
    flash.textContent = sessionStorage.getItem("flash");
    flash.hidden = false;
    sessionStorage.removeItem("flash");
  }

  home();
  reviewPage();
  adminPage();
  sidebar();

  function home() {
    var f = document.getElementById("open-ticket");
    if (!f) { return; }
    f.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var id = document.getElementById("ticket-id").value.trim();
      if (id) { location.href = "/app/tickets/" + encodeURIComponent(id); }
    });
  }

  // The review page: each decision asks first where it should (Kill always; Pull back
  // and approving a flagged draft with a reason), then reloads with a message saying
  // what happened.
  function reviewPage() {
    var section = document.querySelector(".open-draft");
    if (!section) { return; }
    var ticket = encodeURIComponent(section.dataset.ticket);
    var box = document.getElementById("confirm");
    var reason = document.getElementById("confirm-reason");
    var status = document.getElementById("decision-status");
    var pending = null;
    var questions = {
      kill: ["Kill this draft? It will not be sent, and the agent must start a new one.", "Reason (the agent sees it)", "Yes, kill it", false],
      pull: ["Pull this draft back to the agent?", "What should the agent change? (the agent sees it)", "Yes, pull it back", false],
      approve: ["Approve although the page warns about this draft?", "Why is it fine to send? (required, recorded)", "Yes, approve", true]
    };
    function decide(form, why) {
      var btn = form.querySelector("button");
      btn.disabled = true;
      status.hidden = true;
      post("/v1/drafts/" + ticket + "/" + form.dataset.action, why ? { reason: why } : {}).then(function () {
        sessionStorage.setItem("flash", form.dataset.done);
        location.reload();
      }).catch(function (err) {
        btn.disabled = false;
        showError(status, "", err);
      });
    }
    document.querySelectorAll("form.decision").forEach(function (f) {
      f.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var q = questions[f.dataset.confirm];
        if (!q) { decide(f, ""); return; }
        pending = f;
        document.getElementById("confirm-q").textContent = q[0];
        document.getElementById("confirm-label").textContent = q[1];
        document.getElementById("confirm-yes").textContent = q[2];
        reason.required = q[3];
        reason.value = "";
        box.hidden = false;
        reason.focus();
      });
    });
    assignForm(ticket);
    document.getElementById("confirm-no").addEventListener("click", function () { box.hidden = true; pending = null; });
    document.getElementById("confirm-yes").addEventListener("click", function () {
      if (!pending) { return; }
      if (reason.required && !reason.value.trim()) {
        showError(status, "", new Error("Give a reason first."));
        reason.focus();
        return;
      }
      box.hidden = true;
      decide(pending, reason.value.trim());
    });
  }

  // assignForm gives the open draft's review to the chosen reviewer, or to the one signed
  // in, then reloads with a message saying who has it.
  function assignForm(ticket) {
    var f = document.getElementById("assign-form");
    if (!f) { return; }
    var select = document.getElementById("assignee");
    var status = f.querySelector(".form-status");
    function assign(name) {
      f.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      post("/v1/drafts/" + ticket + "/assign", { assignee: name }).then(function (res) {
        sessionStorage.setItem("flash", res.assignee ? "Assigned to " + res.assignee + "." : "Nobody is assigned to this draft now.");
        location.reload();
      }).catch(function (err) {
        f.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        showError(status, "", err);
      });
    }
    f.addEventListener("submit", function (ev) { ev.preventDefault(); assign(select.value); });
    var me = document.getElementById("assign-me");
    if (me) { me.addEventListener("click", function () { assign(f.dataset.me); }); }
  }

  // The admin page: pausing drafting asks first; resuming does not.
  function adminPage() {
    var f = document.getElementById("killswitch-form");
    if (!f) { return; }
    var confirmBox = document.getElementById("kill-confirm");
    var status = f.querySelector(".form-status");
    function flip() {
      var btn = f.querySelector("button");
      btn.disabled = true;
      status.textContent = "Working…";
      post("/v1/admin/killswitch", JSON.parse(f.dataset.body)).then(function () { location.reload(); }).catch(function (err) {
        btn.disabled = false;
        showError(status, "", err);
      });
    }
    f.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (f.dataset.halting === "true") { confirmBox.hidden = false; document.getElementById("kill-confirm-yes").focus(); return; }
      flip();
    });
    document.getElementById("kill-confirm-no").addEventListener("click", function () { confirmBox.hidden = true; });
    document.getElementById("kill-confirm-yes").addEventListener("click", function () { confirmBox.hidden = true; flip(); });
  }

  function sidebar() {
    var live = document.getElementById("live");
    if (!live) { return; }
    var ticket = encodeURIComponent(live.dataset.ticket);
    var shown = Number(live.dataset.iteration);
    var pageError = document.getElementById("page-error");
    poll(live, ticket, shown, pageError);

    var restart = document.getElementById("restart");
    if (restart) {
      restart.addEventListener("click", function () {
        restart.disabled = true;
        restart.textContent = "Starting…";
        post("/v1/drafts/" + ticket + "/reopen").then(function () {
          sessionStorage.setItem("flash", "Started a new draft from the customer's latest message.");
          location.reload();
        }).catch(function (err) {
          restart.disabled = false;
          restart.textContent = "Start a new draft";
          showError(pageError, "Could not start a new draft:", err);
        });
      });
    }
    var editor = document.getElementById("editor");
    if (!editor) { return; }
    editorParts(ticket, editor, pageError);
  }

  // poll reads the draft's live state every few seconds: the first draft appears, a stale
  // banner, a reviewer's decision and the kill switch show without a reload.
  function poll(live, ticket, shown, pageError) {
    var failures = 0;
    function once() {
      call("GET", "/app/tickets/" + ticket + "/state").then(function (s) {
        failures = 0;
        if (pageError.dataset.fromPoll) { pageError.hidden = true; delete pageError.dataset.fromPoll; }
        if (shown === 0 && s.iteration > 0) { location.reload(); return; }
        if (s.iteration > shown) { document.getElementById("newer-banner").hidden = false; }
        var chipEl = document.getElementById("state-chip");
        if (s.chip && s.chip.label && s.iteration === shown) {
          chipEl.textContent = s.chip.label;
          chipEl.className = "status verdict-" + s.chip["class"];
          document.getElementById("state-detail").textContent = s.chip.detail;
        }
        if (s.ended && s.iteration === shown && live.dataset.status !== s.status) { location.reload(); return; }
        var stale = document.getElementById("stale-banner");
        if (s.stale && s.stale.length && s.iteration === shown) {
          var ul = document.getElementById("stale-reasons");
          ul.textContent = "";
          s.stale.forEach(function (m) { ul.appendChild(el("li", "", m)); });
          stale.hidden = false;
        }
        document.getElementById("halted-banner").hidden = !s.halted;
        document.getElementById("halted-by").textContent = s.halted_by ? " (" + s.halted_by + ")" : "";
        var rebuild = document.getElementById("rebuild");
        if (rebuild) { rebuild.hidden = s.halted; }
      }).catch(function (err) {
        failures++;
        if (err.status === 401 || failures >= 2) {
          showError(pageError, "Live updates stopped:", err);
          pageError.dataset.fromPoll = "yes";
        }
      }).then(function () {
        setTimeout(once, document.hidden ? 10000 : 2000);
      });
    }
    once();
    var newer = document.getElementById("show-newer");
    if (newer) { newer.addEventListener("click", function () { location.reload(); }); }
  }

  function editorParts(ticket, editor, pageError) {
    var guard = document.getElementById("guard");
    var verdict = document.getElementById("verdict");
    var actionStatus = document.getElementById("action-status");

    // Copy puts the reply on the clipboard; Insert hands it to the help desk around the
    // frame (the help desk listens for the message), shown only when framed.
    document.getElementById("copy").addEventListener("click", function () {
      var done = function () { actionStatus.textContent = "Copied."; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(editor.value).then(done, function () { editor.select(); document.execCommand("copy"); done(); });
      } else {
        editor.select();
        document.execCommand("copy");
        done();
      }
    });
    var insert = document.getElementById("insert");
    var origins = insert.dataset.origins.split(" ").filter(function (o) { return o; });
    if (window.parent !== window && origins.length) {
      insert.hidden = false;
      insert.addEventListener("click", function () {
        origins.forEach(function (o) {
          window.parent.postMessage({ type: "supportdraft.insert", ticket: decodeURIComponent(ticket), text: editor.value }, o);
        });
        actionStatus.textContent = "Inserted into the reply.";
      });
    }

    var rebuild = document.getElementById("rebuild");
    rebuild.addEventListener("click", function () {
      rebuild.disabled = true;
      actionStatus.textContent = "Rebuilding…";
      post("/v1/drafts/" + ticket + "/rebuild").then(function (v) {
        sessionStorage.setItem("flash", "Rebuilt from the latest message and policy: this is draft " + v.iteration + ".");
        location.reload();
      }).catch(function (err) {
        rebuild.disabled = false;
        actionStatus.textContent = "";
        showError(pageError, "Rebuild failed:", err);
      });
    });

    var staleRebuild = document.getElementById("stale-rebuild");
    if (staleRebuild) { staleRebuild.addEventListener("click", function () { rebuild.click(); }); }

    var earlier = document.getElementById("use-earlier");
    if (earlier) {
      earlier.addEventListener("click", function () {
        editor.value = document.getElementById("earlier-text").textContent;
        editor.dispatchEvent(new Event("input"));
        editor.focus();
      });
    }

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
          guard.appendChild(el("p", "good", "Every sentence is backed by policy in force."));
          return;
        }
        guard.appendChild(el("p", "bad", bad.length + (bad.length === 1 ? " sentence is" : " sentences are") + " not backed by current policy:"));
        guard.appendChild(sentenceList(bad.map(function (s) { return { sentence: s.text, reason: s.reason, otherwise: s.otherwise }; })));
      }).catch(function (err) {
        if (mine === seq) { showError(guard, "Could not check:", err); }
      });
    }

    document.getElementById("send-check").addEventListener("click", function () { sendCheck(""); });

    function sendCheck(override) {
      var btn = document.getElementById("send-check");
      btn.disabled = true;
      verdict.textContent = "Checking…";
      var body = { text: editor.value };
      if (override) { body.override_reason = override; }
      post("/v1/drafts/" + ticket + "/send-check", body).then(function (res) {
        renderVerdict(res, override);
      }).catch(function (err) {
        showError(verdict, "Send check failed:", err);
      }).then(function () { btn.disabled = false; });
    }

    var advice = {
      ok: "Current: you can send it.",
      stale: "Something changed since this draft was written. Rebuild, then read it again before sending.",
      unsupported: "These sentences promise something no current policy for this account says. Fix or remove them, or send anyway with a reason.",
      blocked: "Fill in the placeholders before sending.",
      unchecked: "The check could not run. You may send, but read the reply carefully first."
    };

    // renderVerdict shows any verdict from the JSON alone: its name, what to do, its
    // reasons, and every sentence it names with why, so a verdict this page does not know
    // still shows in full.
    function renderVerdict(res, override) {
      verdict.textContent = "";
      var p = el("p");
      p.appendChild(el("span", "verdict verdict-" + res.verdict, String(res.verdict || "unknown").replace(/_/g, " ")));
      verdict.appendChild(p);
      if (override) {
        verdict.appendChild(el("p", "what", "Override recorded with your reason." + (res.verdict === "ok" ? " You can send the reply." : "")));
      }
      if (!override || res.verdict !== "ok") {
        verdict.appendChild(el("p", "what", advice[res.verdict] || res.warning || "Read the reasons below before sending."));
      }
      var items = [];
      (res.reasons || []).forEach(function (r) { items.push(typeof r === "string" ? r : (r.message || r.reason || "")); });
      if (res.placeholders && res.placeholders.length) { items.push("Placeholders to fill in: " + res.placeholders.join(", ")); }
      if (res.warning && advice[res.verdict]) { items.push(res.warning); }
      items = items.filter(function (t) { return t; });
      if (items.length) {
        var ul = el("ul");
        items.forEach(function (t) { ul.appendChild(el("li", "", t)); });
        verdict.appendChild(ul);
      }
      var offending = [];
      Object.keys(res).forEach(function (k) {
        if (!Array.isArray(res[k])) { return; }
        res[k].forEach(function (x) { if (x && typeof x === "object" && x.sentence) { offending.push(x); } });
      });
      if (offending.length) {
        verdict.appendChild(el("p", "bad", offending.length === 1 ? "This sentence:" : "These sentences:"));
        verdict.appendChild(sentenceList(offending));
      }
      if (res.verdict === "unsupported" && !override) { verdict.appendChild(overrideForm()); }
    }

    function overrideForm() {
      var f = el("form", "override");
      var label = el("label", "", "Why send it anyway? Your reason is recorded and admins see it.");
      label.htmlFor = "override-reason";
      var ta = el("textarea");
      ta.id = "override-reason";
      ta.rows = 2;
      ta.required = true;
      var btn = el("button", "", "Send anyway, with this reason");
      btn.type = "submit";
      btn.id = "override";
      f.appendChild(label);
      f.appendChild(ta);
      f.appendChild(btn);
      f.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (!ta.value.trim()) { ta.focus(); return; }
        sendCheck(ta.value.trim());
      });
      return f;
    }
  }

  // sentenceList lists sentences with why each is flagged in words and, where policy in
  // force speaks of the same thing, what it says instead; the guard's own reason and the
  // policy's source go under "Details".
  function sentenceList(items) {
    var ul = el("ul", "unsupported");
    items.forEach(function (s) {
      var li = el("li", "bad");
      li.appendChild(el("strong", "", s.sentence));
      var why = plainReason(s.reason);
      if (why) { li.appendChild(el("span", "", " — " + why)); }
      if (s.otherwise && s.otherwise.text) {
        var says = el("p", "small otherwise", "Policy in force says: ");
        says.appendChild(el("q", "", s.otherwise.text));
        li.appendChild(says);
      }
      if (s.reason) {
        var d = el("details", "details");
        d.appendChild(el("summary", "", "Details"));
        d.appendChild(el("p", "small", s.reason));
        if (s.otherwise && s.otherwise.source_id) { d.appendChild(el("p", "small", "Policy source: " + s.otherwise.source_id)); }
        li.appendChild(d);
      }
      ul.appendChild(li);
    });
    return ul;
  }
})();
