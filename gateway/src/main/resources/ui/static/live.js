// Keeps an open dashboard page current: the gateway sends a signal (no data) on its event stream
// whenever something the page shows may have changed; the page then reads itself again through its
// own session and swaps in the sections marked data-live-region, keeping focus where it was, and
// leaving alone a section whose form is being filled in.
(function () {
  "use strict";
  var main = document.getElementById("main");
  var scope = main && main.getAttribute("data-live");
  if (!scope || !window.EventSource) { return; }
  var pending = null;
  var reading = false;
  var again = false;

  function refresh() {
    pending = null;
    if (reading) { again = true; return; }
    reading = true;
    // X-Trainyard-Refresh: the page reads itself, no one clicked (an idle session stays idle)
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html", "X-Trainyard-Refresh": "1" } })
      .then(function (answer) {
        if (answer.redirected || !answer.ok) { window.location.reload(); return null; }
        return answer.text();
      })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var focused = document.activeElement && document.activeElement.id;
        document.querySelectorAll("[data-live-region]").forEach(function (old) {
          if (old.hasAttribute("data-editing")) { return; }
          var next = old.id && fresh.getElementById(old.id);
          if (next) { old.replaceWith(document.importNode(next, true)); }
        });
        if (focused && document.getElementById(focused)) { document.getElementById(focused).focus(); }
        var status = document.getElementById("live-status");
        if (status) { status.textContent = "Updated " + new Date().toLocaleTimeString(); }
        document.documentElement.setAttribute("data-refreshed", String(Date.now()));
      })
      .catch(function () { /* the next signal tries again */ })
      .then(function () {
        reading = false;
        if (again) { again = false; schedule(); }
      });
  }

  // a region whose form someone is filling in is left alone until they send it or leave the page
  function editing(event) {
    var region = event.target.closest && event.target.closest("[data-live-region]");
    if (region) { region.setAttribute("data-editing", "true"); }
  }
  document.addEventListener("input", editing, true);
  document.addEventListener("change", editing, true);

  function schedule() {
    if (pending === null) { pending = window.setTimeout(refresh, 100); }
  }

  var source = new EventSource("/ui/events?scope=" + encodeURIComponent(scope));
  source.addEventListener("open", function () {
    document.documentElement.setAttribute("data-live-open", "true");
  });
  source.addEventListener("changed", schedule);
  source.onerror = function () {
    if (source.readyState === EventSource.CLOSED) { window.location.reload(); }
  };
})();
