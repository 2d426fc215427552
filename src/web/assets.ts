/**
 * The page's stylesheet and script, served by the page's own server (the Content-Security-Policy
 * allows nothing else: no inline script or style, no third party). Kept as text here so the build
 * (scripts/build.mjs) carries them like any module.
 */

export const PAGE_CSS = `
:root { color-scheme: light dark; --bg: #f7f6f2; --fg: #1d1d1f; --muted: #5f6368; --card: #ffffff;
  --line: #d9d6cf; --accent: #8a3ffc; --accent-soft: #eadcff; --good: #1e7f4f; --warn: #b3261e; --secret: #fff4d6; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15161a; --fg: #ececf1; --muted: #a3a7ae; --card: #1f2127; --line: #353842;
    --accent: #b48cff; --accent-soft: #3a2d55; --good: #5fd39a; --warn: #ff8a80; --secret: #3d3420; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
main { max-width: 1100px; margin: 0 auto; padding: 12px 14px 40px; }
main.plain { max-width: 640px; padding-top: 15vh; }
h1 { font-size: 1.6rem; margin: 0; }
h2 { font-size: 1.25rem; margin: 28px 0 10px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1.05rem; margin: 0 0 6px; }
h4 { margin: 4px 0; }
a { color: var(--accent); }
.top { display: flex; flex-wrap: wrap; gap: 8px; justify-content: space-between; align-items: flex-start; }
.meta { color: var(--muted); margin: 2px 0; font-size: .92rem; }
.meta span + span::before { content: " · "; }
.langs { display: flex; gap: 10px; align-items: center; }
.live { font-size: .8rem; padding: 2px 8px; border-radius: 10px; background: var(--accent-soft); }
.live.off { background: var(--secret); }
.viewer { font-size: .9rem; color: var(--muted); }
.sections { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 10px 0; position: sticky; top: 0; background: var(--bg); padding: 6px 0; z-index: 1; }
.cards, .board { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); gap: 12px; }
.card, .embed { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px; min-width: 0; }
.card.own { border-color: var(--accent); }
.embed { margin-bottom: 10px; border-left: 4px solid var(--line); }
.embed.tone-success { border-left-color: var(--good); } .embed.tone-warning, .embed.tone-danger { border-left-color: var(--warn); }
.embed.tone-info { border-left-color: var(--accent); }
.fields { margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.field { flex: 1 1 100%; min-width: 0; }
.field.inline { flex: 1 1 140px; }
dt { font-weight: 600; font-size: .9rem; color: var(--muted); }
dd { margin: 0 0 6px; }
dd p, .embed p { margin: 2px 0; }
ul { margin: 2px 0; padding-left: 20px; }
.secret { background: var(--secret); border-radius: 8px; padding: 6px 10px; margin-top: 8px; }
.scroll { overflow-x: auto; max-width: 100%; }
.chart { width: 100%; height: auto; display: block; max-width: 720px; }
.trust-matrix { width: auto; max-width: 100%; }
.chart text { fill: var(--fg); font-size: 12px; }
.chart .axis { fill: var(--muted); font-size: 11px; }
.chart .cell { fill: var(--card); stroke: var(--line); }
.chart .cell.self { fill: var(--line); opacity: .5; }
.chart .dot { fill: var(--accent-soft); }
.chart .value { font-size: 17px; font-weight: 700; }
.chart .points { fill: var(--muted); font-size: 10px; }
.chart .changed .cell { stroke: var(--accent); stroke-width: 3; }
.chart .grid { stroke: var(--line); }
.chart .ceiling { stroke: var(--warn); stroke-dasharray: 6 4; }
.chart .line { stroke: var(--accent); stroke-width: 2.5; }
.chart .point { fill: var(--accent); }
.chart .spend { fill: var(--warn); opacity: .35; }
.chart .bar { fill: var(--accent); opacity: .75; }
.chart .expected { stroke: var(--good); stroke-width: 2; stroke-dasharray: 4 3; }
.legend { font-size: .85rem; color: var(--muted); }
.big { font-size: 1.2rem; font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num { white-space: nowrap; text-align: right; }
.aspects { list-style: none; padding: 0; }
.aspect { padding: 3px 0; }
.aspect-name { font-weight: 600; }
.kind, .free { color: var(--muted); font-size: .88rem; }
.session { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 8px 12px; margin-bottom: 10px; }
.session summary { cursor: pointer; font-weight: 600; }
.recap { border-left: 3px solid var(--accent); padding-left: 10px; margin: 8px 0; }
.log { list-style: none; padding: 0; font-size: .93rem; }
.entry { padding: 3px 0; border-bottom: 1px dashed var(--line); }
.entry.secret { background: var(--secret); }
.entry time { color: var(--muted); font-variant-numeric: tabular-nums; }
.who { font-weight: 600; }
.char { color: var(--muted); }
.dice { font-variant-numeric: tabular-nums; }
.badge { font-size: .78rem; }
.marker { font-weight: 700; padding: 6px 0; color: var(--accent); }
.filter { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 10px; }
select, button { font: inherit; max-width: 100%; }
.foot { margin-top: 30px; color: var(--muted); font-size: .85rem; }
code { font-size: .9em; }
`;

/** Live updates: the server sends the whole `<main>` again after each change at the table. */
export const PAGE_JS = `"use strict";
(function () {
  var url = document.body.getAttribute("data-live");
  if (!url || !window.EventSource) return;
  var source = null;
  function badge(on) {
    var state = document.getElementById("live-state");
    if (!state) return;
    state.hidden = false;
    state.className = on ? "live" : "live off";
    state.textContent = on ? state.getAttribute("data-on") || state.textContent : state.getAttribute("data-off") || state.textContent;
  }
  function swap(html) {
    var next = new DOMParser().parseFromString(html, "text/html").getElementById("page");
    var current = document.getElementById("page");
    if (!next || !current) return;
    var open = {};
    current.querySelectorAll("details[data-session]").forEach(function (d) { open[d.getAttribute("data-session")] = d.open; });
    next.querySelectorAll("details[data-session]").forEach(function (d) {
      var key = d.getAttribute("data-session");
      if (key in open) d.open = open[key];
    });
    current.replaceWith(document.importNode(next, true));
    badge(true);
    document.dispatchEvent(new CustomEvent("page-updated"));
  }
  function connect() {
    source = new EventSource(url + window.location.search);
    source.addEventListener("open", function () { badge(true); });
    source.addEventListener("page", function (event) { swap(event.data); });
    source.addEventListener("gone", function () { source.close(); window.location.reload(); });
    source.addEventListener("error", function () { badge(false); });
  }
  connect();
})();
`;
