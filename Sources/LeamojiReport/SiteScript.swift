/// `leamoji.js`, the site's one script (written here, no third-party code). It runs under the
/// pages' Content-Security-Policy: no inline handlers, no `eval`, no HTML parsing of data —
/// every text goes into the page as a text node.
///
/// `Leamoji.cueState` is the terminal player's `CueLogic.state` line for line (the current
/// scene is the last marker with `second <= t`; the heads-up is the next marker while
/// `cueAt <= t < second`, counting whole seconds up, never below 1), and
/// `Leamoji.headsUpText` its `HeadsUp.text`. The tests run both on the same cases in Chromium.
public enum SiteScript {
  /// The script's text.
  public static let text = #"""
    "use strict";
    (function () {
      // Index of the first marker with second > t (markers.length if none): binary search.
      function firstAfter(markers, t) {
        let low = 0, high = markers.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (markers[mid].s <= t) { low = mid + 1; } else { high = mid; }
        }
        return low;
      }
      // The cue state at t: {current: index or null, headsUp: {index, secondsUntil} or null}.
      function cueState(markers, t) {
        const next = firstAfter(markers, t);
        const current = next > 0 ? next - 1 : null;
        let headsUp = null;
        if (next < markers.length) {
          const marker = markers[next];
          if (marker.c <= t && t < marker.s) {
            headsUp = { index: next, secondsUntil: Math.max(1, Math.ceil(marker.s - t)) };
          }
        }
        return { current: current, headsUp: headsUp };
      }
      function headsUpText(marker, secondsUntil) {
        return marker.e + " " + marker.l + " scene in " + secondsUntil + " s";
      }
      // m:ss, or h:mm:ss from an hour on.
      function clock(seconds) {
        const total = Math.max(0, Math.floor(isFinite(seconds) ? seconds : 0));
        const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60;
        const two = function (v) { return v < 10 ? "0" + v : String(v); };
        return h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
      }
      function moodClass(label) {
        const lower = String(label).toLowerCase();
        return lower === "happy" ? "mh" : lower === "neutral" ? "mn" : lower === "scary" ? "ms" : "mo";
      }
      window.Leamoji = { cueState: cueState, headsUpText: headsUpText, clock: clock };

      function byId(id) { return document.getElementById(id); }
      function element(tag, className, text) {
        const node = document.createElement(tag);
        if (className) { node.className = className; }
        if (text !== undefined) { node.textContent = text; }
        return node;
      }

      // ---- index.html: cards, sorting, filter ----
      // The heads-up level on the poster: "3/5", "–" when not analysed; dashed when the
      // timeline is not the current model's (docs/heads-up.md).
      function levelBadge(level, current) {
        const known = typeof level === "number";
        const badge = element("span", "lvl " + (known ? "lv" + level : "lvx") + (current ? "" : " old"),
          known ? level + "/5" : "–");
        badge.title = !known ? "Heads-up: not analysed, nothing is known"
          : "Heads-up level " + level + " of 5"
            + (level === 0 ? ": no scary scene found (not a promise that the film is safe)" : "")
            + (current ? "" : "; not from the model in use");
        return badge;
      }
      function makeCard(film, order) {
        const stem = String(film[0]), title = String(film[1]), scary = Number(film[2]) || 0;
        const item = element("li", "card");
        const link = element("a");
        link.href = "films/" + encodeURIComponent(stem) + ".html";
        const posterBox = element("span", "thumb");
        if (film[4]) {
          const img = element("img");
          img.src = "posters/" + encodeURIComponent(stem) + "." + encodeURIComponent(film[4]);
          img.alt = "";
          img.loading = "lazy";
          posterBox.appendChild(img);
        } else {
          posterBox.appendChild(element("span", "noposter", "🎬"));
        }
        posterBox.appendChild(levelBadge(film[6], film[7] === 1));
        link.appendChild(posterBox);
        link.appendChild(element("span", "name", title));
        item.appendChild(link);
        const bar = element("span", "bar");
        bar.setAttribute("aria-hidden", "true");
        let scaryShare = 0;
        String(film[5]).replace(/([a-z])([0-9]+)/g, function (all, mood, share) {
          const piece = element("span", "m" + mood);
          piece.style.flexGrow = share;
          bar.appendChild(piece);
          if (mood === "s") { scaryShare += Number(share); }
          return all;
        });
        item.appendChild(bar);
        const duration = film[3] === null ? "? s" : clock(Number(film[3]));
        const meta = element("span", "meta", duration + " · ");
        if (scary > 0) { meta.appendChild(element("span", "e", "😱")); }
        meta.appendChild(document.createTextNode(scary === 0 ? "no scary scenes"
          : " " + scary + " scary scene" + (scary === 1 ? "" : "s")));
        item.appendChild(meta);
        return { item: item, order: order, lower: title.toLowerCase(), scary: scary,
          scaryShare: scaryShare };
      }
      function setUpIndex() {
        const list = byId("films"), dataNode = byId("catalogue");
        if (!list || !dataNode) { return; }
        const cards = JSON.parse(dataNode.textContent).map(makeCard);
        const filter = byId("filter"), sort = byId("sort"), shown = byId("shown");
        byId("controls").hidden = false;
        function apply() {
          const query = filter.value.trim().toLowerCase();
          const sorted = cards.slice().sort(function (a, b) {
            if (sort.value === "calm" && (a.scaryShare !== b.scaryShare || a.scary !== b.scary)) {
              return a.scaryShare - b.scaryShare || a.scary - b.scary;
            }
            return a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : a.order - b.order;
          });
          const fragment = document.createDocumentFragment();
          let count = 0;
          sorted.forEach(function (card) {
            const match = query === "" || card.lower.indexOf(query) >= 0;
            card.item.hidden = !match;
            if (match) { count += 1; }
            fragment.appendChild(card.item);
          });
          list.appendChild(fragment);
          shown.textContent = count + " of " + cards.length;
          byId("none").hidden = count > 0;
        }
        filter.addEventListener("input", apply);
        sort.addEventListener("change", apply);
        apply();
      }

      // ---- a film's page: overlay, strip, scenes ----
      function setUpFilm() {
        const dataNode = byId("film-data");
        if (!dataNode) { return; }
        const data = JSON.parse(dataNode.textContent);
        const markers = data.markers;
        const video = byId("video"), badge = byId("cue-emoji"), headsUp = byId("heads-up");
        const playhead = byId("playhead"), strip = byId("strip"), timeText = byId("time");
        const scenes = byId("scenes") ? byId("scenes").children : [];
        const end = data.end > 0 ? data.end : 1;
        let virtual = 0, pending = null, shownCurrent = -2;
        function now() { return video && video.readyState > 0 ? video.currentTime : virtual; }
        function show(t) {
          const state = cueState(markers, t);
          const current = state.current === null ? -1 : state.current;
          if (current !== shownCurrent) {
            shownCurrent = current;
            badge.textContent = current >= 0 ? markers[current].e : "";
            badge.className = "badge " + (current >= 0 ? moodClass(markers[current].l) : "none");
            badge.title = current >= 0 ? markers[current].l : "";
            for (let i = 0; i < scenes.length; i += 1) {
              if (i === current) { scenes[i].setAttribute("aria-current", "true"); }
              else { scenes[i].removeAttribute("aria-current"); }
            }
          }
          if (state.headsUp) {
            const text = headsUpText(markers[state.headsUp.index], state.headsUp.secondsUntil);
            const emoji = markers[state.headsUp.index].e;
            headsUp.textContent = "";
            headsUp.appendChild(element("span", "e", emoji));
            headsUp.appendChild(document.createTextNode(text.slice(emoji.length)));
            headsUp.className = "heads-up " + moodClass(markers[state.headsUp.index].l);
            headsUp.hidden = false;
          } else {
            headsUp.hidden = true;
            headsUp.textContent = "";
          }
          playhead.setAttribute("x", String(Math.max(0, Math.min(996, (t / end) * 1000 - 2))));
          strip.setAttribute("aria-valuenow", String(Math.floor(t)));
          strip.setAttribute(
            "aria-valuetext", clock(t) + (current >= 0 ? ", " + markers[current].l : ""));
          timeText.textContent = clock(t);
          document.body.setAttribute("data-time", String(t));
        }
        function seek(t) {
          const target = Math.max(0, Math.min(t, end));
          virtual = target;
          if (video) {
            if (video.readyState > 0) { video.currentTime = target; } else { pending = target; }
          }
          show(target);
        }
        function fromHash() {
          const match = /^#t=([0-9]+(?:\.[0-9]+)?)$/.exec(location.hash);
          if (match) { seek(Number(match[1])); }
        }
        if (video) {
          const note = byId("video-note");
          const source = video.querySelector("source");
          const failed = function () { note.hidden = false; video.classList.add("failed"); };
          if (source) { source.addEventListener("error", failed); }
          video.addEventListener("error", failed);
          video.addEventListener("loadedmetadata", function () {
            if (pending !== null) { video.currentTime = pending; pending = null; }
            show(now());
          });
          ["timeupdate", "seeked", "seeking", "pause"].forEach(function (name) {
            video.addEventListener(name, function () { show(now()); });
          });
          video.addEventListener("play", function tick() {
            show(now());
            if (!video.paused && !video.ended) { window.requestAnimationFrame(tick); }
          });
        }
        strip.addEventListener("click", function (event) {
          const box = strip.getBoundingClientRect();
          if (box.width > 0) { seek(((event.clientX - box.left) / box.width) * end); }
        });
        // The strip as a slider: the player's ← / → seek 5 s, pages 30 s.
        const steps = { ArrowLeft: -5, ArrowDown: -5, ArrowRight: 5, ArrowUp: 5,
          PageDown: -30, PageUp: 30 };
        strip.addEventListener("keydown", function (event) {
          let target = null;
          if (Object.prototype.hasOwnProperty.call(steps, event.key)) {
            target = now() + steps[event.key];
          }
          if (event.key === "Home") { target = 0; }
          if (event.key === "End") { target = end; }
          if (target !== null) {
            event.preventDefault();
            seek(target);
          }
        });
        window.addEventListener("hashchange", fromHash);
        if (byId("scenes")) {
          // A second click on the scene already in the address seeks again.
          byId("scenes").addEventListener("click", function (event) {
            const link = event.target.closest("a");
            const match = link && /#t=([0-9.]+)$/.exec(link.getAttribute("href"));
            if (match && link.getAttribute("href") === location.hash) { seek(Number(match[1])); }
          });
        }
        show(0);
        fromHash();
      }

      function start() {
        if (document.body.classList.contains("index")) { setUpIndex(); }
        if (document.body.classList.contains("film")) { setUpFilm(); }
      }
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
      } else {
        start();
      }
    })();

    """#
}
