// The Lumos viewer: one side's data (/data/SIDE.json) drawn as a board, a timeline and a log.
// Everything the page shows comes from that side's data: the server never sends what the
// side cannot see, so nothing here has to hide anything.
"use strict";
const $ = (id) => document.getElementById(id);
const view = { data: null, at: 0, side: null, live: false };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e[k] = v; else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

function ruleLink(rule) {
  if (!rule) return null;
  const a = el("a", { href: rule.href, target: "_blank", title: rule.where || "" }, rule.name);
  return el("span", { class: "rule" }, " [", a, rule.section ? " \u00b7 " + rule.section : "", "]");
}

function cardLink(name) {
  const href = view.data.cards[name];
  return href ? el("a", { href, target: "_blank", class: "card" }, name) : document.createTextNode(name);
}

// ------------------------------------------------------------------ the board
// The server draws the board with its pieces for each decision, as the side sees it (the
// drawing of the rules reference and `lumos board --position`); a later request wins.
let boardRequest = 0;
async function drawBoard(k) {
  const ticket = ++boardRequest;
  const res = await fetch(`/board/${encodeURIComponent(view.side)}/${k}.svg`);
  const text = await res.text();
  if (ticket !== boardRequest) return;
  $("board").innerHTML = res.ok ? text : "";
  $("board").dataset.step = String(k);
}

// ------------------------------------------------------------------ panels
function showNow(step) {
  const bits = [];
  if (step.result) bits.push("Game over: " + step.result + ".");
  else if (step.decider === "chance") bits.push("Chance decides.");
  else if (step.decider) bits.push(step.decider + (step.decider === view.side ? " (you) " : " ") + "to choose.");
  $("now").replaceChildren(bits.join(" "));
}

function showQuestion(step, k, box) {
  const q = step.question;
  const asked = view.live && k === view.data.steps.length - 1 && q.side === view.side;
  box.append(el("h3", {}, `${q.side}'s ${q.category} question (${q.card})`), el("p", { id: "question" }, q.ask));
  if (q.choices.length) {
    const list = el("ol", {});
    for (const c of q.choices) list.append(el("li", {}, c));
    box.append(list);
  }
  if (!asked) return;
  const input = el("input", { id: "answer", type: "text", "aria-label": "your answer" });
  const send = async () => {
    const res = await fetch("/answer", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ text: input.value, at: k }) });
    if (!res.ok) { $("now").textContent = await res.text(); return; }
    await loadSide(view.side, 1e9);
  };
  input.onkeydown = (e) => { if (e.key === "Enter") send(); };
  box.append(el("p", {}, input, " ", el("button", { id: "send-answer", onclick: send }, "answer")));
}

function showOptions(step, k) {
  const box = $("options");
  box.replaceChildren();
  if (step.question) showQuestion(step, k, box);
  if (!step.options) {
    if (step.decider && !step.result) box.append(el("p", { class: "hidden" }, step.decider + "'s options are not shown to " + view.side + "."));
    return;
  }
  const playable = view.live && k === view.data.steps.length - 1 && step.decider === view.side;
  const list = el("ul", { id: "option-list" });
  step.options.forEach((o, i) => {
    const label = playable ? el("button", { onclick: () => choose(i, k) }, o.label) : o.label;
    const then = o.then && o.then.length ? el("span", { class: "then" }, " \u2192 " + o.then.join("; ")) : null;
    const li = el("li", { class: i === step.chosen_index ? "chosen" : "" }, label, then, ruleLink(o.rule));
    list.append(li);
  });
  box.append(el("h3", {}, `Options (${step.options.length})`), list);
}

function showStatus(step) {
  const box = $("status");
  box.replaceChildren(el("h3", {}, "Sides"));
  for (const [side, items] of Object.entries(step.status)) {
    const text = items.map(([n, v]) => `${n} ${v}`).join(", ") || "-";
    box.append(el("div", { class: "status-side", "data-side": side }, el("b", {}, side + ": "), text));
  }
}

function showZones(step) {
  const box = $("zones");
  box.replaceChildren(el("h3", {}, "Cards as " + view.side + " sees them"));
  const list = el("ul", { id: "zone-list" });
  for (const [zone, cards] of Object.entries(step.zones)) {
    let body;
    if (Array.isArray(cards)) {
      if (!cards.length) continue;
      body = el("span", {});
      cards.forEach((c, i) => { if (i) body.append(", "); body.append(cardLink(typeof c === "object" ? c.card : c)); });
    } else {
      if (!cards.hidden) continue;
      body = el("span", { class: "hidden" }, `${cards.hidden} hidden card${cards.hidden === 1 ? "" : "s"}`);
    }
    list.append(el("li", { "data-zone": zone }, el("b", {}, zone.replaceAll("_", " ") + ": "), body));
  }
  box.append(list);
}

function buildLog() {
  const log = $("log");
  log.replaceChildren();
  view.data.steps.forEach((step, k) => {
    const events = el("ul", { class: "events" });
    for (const ev of step.events) events.append(el("li", { class: "event" }, ev.text, ruleLink(ev.rule)));
    const head = step.result ? el("span", { class: "choice" }, "game over: " + step.result)
      : step.chosen === null ? el("span", { class: "choice" }, (step.decider || "") + " to choose")
      : el("span", { class: "choice" + (step.chosen === "a hidden choice" ? " hidden" : "") },
           step.decider === "chance" ? `chance: ${step.chosen}` : `${step.decider} chooses: ${step.chosen}`);
    const li = el("li", { class: "step", "data-step": k, value: k }, step.events.length ? events : null, head);
    li.onclick = () => go(k);
    log.append(li);
  });
}

function go(k) {
  const steps = view.data.steps;
  view.at = Math.max(0, Math.min(steps.length - 1, k));
  const step = steps[view.at];
  $("slider").value = view.at;
  $("counter").textContent = `decision ${view.at} of ${steps.length - 1}`;
  drawBoard(view.at); showNow(step); showOptions(step, view.at); showStatus(step); showZones(step);
  for (const li of $("log").children) {
    const n = Number(li.dataset.step);
    li.classList.toggle("current", n === view.at);
    li.classList.toggle("future", n > view.at);
  }
  const cur = $("log").querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  document.body.dataset.step = String(view.at);
}

async function loadSide(side, at) {
  const res = await fetch(`/data/${encodeURIComponent(side)}.json`);
  if (!res.ok) { $("now").textContent = await res.text(); return; }
  view.data = await res.json();
  view.side = side;
  $("slider").max = view.data.steps.length - 1;
  buildLog();
  go(at === undefined ? 0 : at);
  document.body.dataset.side = side;
}

async function choose(index, at) {
  const res = await fetch("/choose", { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ index, at }) });
  if (!res.ok) { $("now").textContent = await res.text(); return; }
  await loadSide(view.side, 1e9);
}

async function start() {
  const info = await (await fetch("/sides.json")).json();
  view.live = info.live;
  document.title = info.title + " \u2014 Lumos viewer";
  $("title").textContent = info.title;
  for (const s of info.sides) $("side").append(el("option", { value: s }, s));
  $("side").onchange = () => loadSide($("side").value, view.at);
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(view.at - 1);
  $("next").onclick = () => go(view.at + 1);
  $("last").onclick = () => go(1e9);
  $("slider").oninput = () => go(Number($("slider").value));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(view.at - 1);
    if (e.key === "ArrowRight") go(view.at + 1);
  });
  await loadSide(info.sides[0], view.live ? 1e9 : 0);
  document.body.dataset.ready = "yes";
}
start();
