// The board: draws the position of the chosen turn, and asks the server to solve from it
// or to review the game. Every text is set as text (textContent), never as HTML.
"use strict";
const game = JSON.parse(document.getElementById("game-data").textContent);
let data = game;  // what the board shows: the game, or the game up to a turn and then a solved line
const slider = document.getElementById("turn");
let last = data.positions.length - 1;

function show(view, turn) {
  data = view;
  last = data.positions.length - 1;
  slider.max = String(last);
  const banner = document.getElementById("banner");
  banner.hidden = view === game;
  go(turn);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(c) {
  const e = el("span", "tile", String(c.rank));
  e.style.background = c.colour;
  e.title = c.suit + " " + c.rank + " (#" + c.order + ")";
  e.dataset.card = c.text;
  return e;
}

function draw(turn) {
  const p = data.positions[turn];
  const box = document.getElementById("position");
  box.replaceChildren();
  const info = el("p", "info");
  info.textContent = "score " + p.score + "/" + data.perfect + " \u00b7 clues " + p.clues + "/" + p.max_clues +
    " \u00b7 strikes " + p.strikes + "/" + p.strike_limit + " \u00b7 pace " + p.pace +
    (p.over ? " \u00b7 game over" : " \u00b7 " + p.current + " to act");
  info.id = "info";
  box.append(info);
  const stacks = el("div", "stacks");
  for (const s of p.stacks) {
    const t = el("span", "stack-tile", s.height === 0 ? "\u00b7" : String(s.height));
    t.style.borderColor = s.colour;
    t.style.background = s.height ? s.colour : "transparent";
    t.title = s.suit + ": " + s.height + " of " + s.top;
    stacks.append(t);
  }
  box.append(el("h2", "", "Stacks"), stacks);
  box.append(el("h2", "", "Hands (newest card first)"));
  for (const h of p.hands) {
    const row = el("div", "hand" + (h.player === p.current ? " current" : ""));
    row.append(el("span", "name", h.player));
    for (const c of h.cards) row.append(card(c));
    box.append(row);
  }
  const deck = el("div", "pile");
  for (const c of p.deck) deck.append(card(c));
  box.append(el("h2", "", "Draw pile, next first (" + p.deck.length + " cards, face up)"), deck);
  const discards = el("div", "pile");
  for (const c of p.discards) discards.append(card(c));
  box.append(el("h2", "", "Discard pile (" + p.discards.length + ")"), discards);
  document.getElementById("turn-label").textContent = "turn " + turn + " of " + last;
  document.getElementById("action").textContent =
    turn < last ? "next: " + data.actions[turn]
      : p.over ? "the game is over"
      : last === 0 ? "the deal: no action played yet (solve from here for the best line)"
      : "after the last action of the game";
  slider.value = String(turn);
  document.getElementById("chances").disabled = data !== game || p.over || p.deck.length > 8;
}

function go(turn) {
  draw(Math.max(0, Math.min(last, turn)));
}

slider.addEventListener("input", () => go(Number(slider.value)));
document.getElementById("prev").addEventListener("click", () => go(Number(slider.value) - 1));
document.getElementById("next").addEventListener("click", () => go(Number(slider.value) + 1));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("last").addEventListener("click", () => go(last));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const t = Number(slider.value);
  if (event.key === "ArrowLeft") { go(t - 1); event.preventDefault(); }
  else if (event.key === "ArrowRight") { go(t + 1); event.preventDefault(); }
  else if (event.key === "Home") { go(0); event.preventDefault(); }
  else if (event.key === "End") { go(last); event.preventDefault(); }
});

async function ask(path, body) {
  const status = document.getElementById("status");
  status.textContent = "working\u2026";
  try {
    const r = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                                 body: JSON.stringify(body)});
    const answer = await r.json();
    status.textContent = r.ok ? "" : "error: " + answer.error;
    return r.ok ? answer : null;
  } catch (e) {
    status.textContent = "error: " + e;
    return null;
  }
}

document.getElementById("solve").addEventListener("click", async () => {
  const turn = Number(slider.value);
  const a = await ask("/api/solve", {game: game.game, turn: Math.min(turn, game.positions.length - 1)});
  const box = document.getElementById("answer");
  box.replaceChildren();
  if (!a) return;
  const head = el("p", "verdict");
  head.id = "verdict";
  head.textContent = "From turn " + a.from_turn + ": maximum " + a.max_score + "/" + data.perfect +
    (a.exact ? " (exact)" : " (at most " + a.upper_bound + ")");
  box.append(head, el("p", "muted", "why not more (" + a.proof.kind + "): " + a.proof.reason));
  const play = el("button", "", "Play the line on the board (" + a.actions.length + " moves)");
  play.id = "play-line";
  play.addEventListener("click", async () => {
    const view = await ask("/api/board", {game: game.game, turn: a.from_turn, line: a.actions});
    if (view) {
      document.getElementById("banner-text").textContent =
        "the best line from turn " + a.from_turn + " (" + a.max_score + " points)";
      show(view, a.from_turn);
    }
  });
  box.append(play);
  if (a.link) {
    const link = el("a", "", "open the line on hanab.live");
    link.href = a.link;
    link.rel = "noreferrer";
    box.append(link);
  } else {
    box.append(el("p", "muted", "no hanab.live link: " + (a.no_link || "the site cannot open this game")));
  }
});

function curve(review) {
  const w = 640, h = 200, pad = 30;
  const turns = review.turns;
  const n = Math.max(1, (review.total || turns.length) - 1);  // the whole game, while points still come
  const top = review.perfect;
  const x = (i) => pad + (w - 2 * pad) * i / n;
  const y = (v) => h - pad - (h - 2 * pad) * v / top;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  svg.setAttribute("class", "curve");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the maximum still reachable after every turn, and the score");
  for (const [key, cls] of [["max_score", "max"], ["score", "score"]]) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", turns.map((t, i) => x(i) + "," + y(t[key])).join(" "));
    line.setAttribute("class", cls);
    svg.append(line);
  }
  for (const v of [0, top]) {  // the score axis: 0 and the perfect score
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", 4);
    label.setAttribute("y", y(v) + 4);
    label.setAttribute("class", "axis");
    label.textContent = String(v);
    svg.append(label);
  }
  const legend = [["max", "the most still reachable"], ["score", "the score so far"]];
  legend.forEach(([cls, text], i) => {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", pad + 8);
    t.setAttribute("y", h - pad - 28 + 14 * i);
    t.setAttribute("class", "legend " + cls);
    t.textContent = text;
    svg.append(t);
  });
  for (const d of review.drops) {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(d.turn + 1));
    dot.setAttribute("cy", y(turns[d.turn + 1].max_score));
    dot.setAttribute("r", 5);
    dot.setAttribute("class", "drop");
    svg.append(dot);
  }
  return svg;
}

let reviewJob = null;

function drawReview(turns, review) {
  const box = document.getElementById("curve");
  box.replaceChildren();
  box.append(curve({turns: turns, drops: review ? review.drops : [], perfect: game.perfect,
                    total: game.positions.length}));
  if (!review) return;
  const list = el("ul", "drops");
  list.id = "drops";
  if (!review.drops.length) list.append(el("li", "", "the maximum never fell: " + review.turns[0].max_score));
  for (const d of review.drops) {
    const item = el("li");
    const b = el("button", "link", "turn " + d.turn);
    b.addEventListener("click", () => show(game, d.turn));
    item.append(b, document.createTextNode(" " + d.player + ": " + d.action + " \u2014 " + d.before + " \u2192 " +
                                          d.after + " (instead: " + d.better + ")"));
    list.append(item);
  }
  box.append(list);
}

async function poll() {
  const status = document.getElementById("status");
  const cancel = document.getElementById("cancel");
  if (!reviewJob) return;
  const r = await fetch("/api/review/jobs/" + reviewJob);
  const s = await r.json();
  if (!r.ok) { status.textContent = "error: " + s.error; cancel.hidden = true; return; }
  if (s.status === "running") {
    status.textContent = "reviewing: " + s.points.length + " of " + s.total + " positions solved";
    if (s.points.length) drawReview(s.points, null);
    setTimeout(poll, 300);
    return;
  }
  cancel.hidden = true;
  reviewJob = null;
  if (s.status === "done") { status.textContent = ""; drawReview(s.review.turns, s.review); }
  else if (s.status === "cancelled") status.textContent = "the review was cancelled after " + s.points.length +
    " positions";
  else status.textContent = "error: " + s.error;
}

document.getElementById("review").addEventListener("click", async () => {
  const status = document.getElementById("status");
  const r = await fetch("/api/review/jobs", {method: "POST", headers: {"content-type": "application/json"},
                                             body: JSON.stringify({game: game.game})});
  const s = await r.json();
  if (!r.ok) { status.textContent = "error: " + s.error; return; }
  reviewJob = s.job;
  document.getElementById("cancel").hidden = false;
  poll();
});

document.getElementById("cancel").addEventListener("click", async () => {
  if (reviewJob) await fetch("/api/review/jobs/" + reviewJob, {method: "DELETE"});
});

function percent(c) {  // an exact chance, or the interval the budget left
  return c.exact ? (100 * c.value).toFixed(2) + "%"
    : (100 * c.lo.value).toFixed(2) + "-" + (100 * c.hi.value).toFixed(2) + "%";
}

function mean(c) {
  return c.exact ? c.value.toFixed(3) : c.lo.value.toFixed(3) + "-" + c.hi.value.toFixed(3);
}

document.getElementById("chances").addEventListener("click", async () => {
  const turn = Number(slider.value);
  const a = await ask("/api/chances", {game: game.game, turn: turn});
  const box = document.getElementById("chances-box");
  box.replaceChildren();
  if (!a) return;
  const head = el("p", "verdict");
  head.id = "chances-verdict";
  head.textContent = "Turn " + a.turn + ", the pile's order unknown: P(reach " + a.target + ") " + percent(a.win) +
    " with the best play";
  box.append(head, el("p", "muted", "target " + a.target + ": " + a.target_reason));
  const table = el("table", "moves");
  const hrow = el("tr");
  for (const h of ["move", "P(reach " + a.target + ")", "expected score"]) hrow.append(el("th", "", h));
  table.append(hrow);
  a.moves.slice(0, 8).forEach((m, i) => {
    const row = el("tr", a.best.includes(i) ? "best" : "");
    row.append(el("td", "", m.text), el("td", "", m.win ? percent(m.win) : "-"),
               el("td", "", m.expected_score ? mean(m.expected_score) : "-"));
    table.append(row);
  });
  box.append(table);
});

document.getElementById("back").addEventListener("click", () => show(game, Number(slider.value)));
go(0);
