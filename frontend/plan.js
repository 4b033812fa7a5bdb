// Plan review: edit the planner's sub-queries before the research starts.

import { api } from "./api.js";
import { $, clear, el } from "./dom.js";

let current = null; // { runId, servers, onSubmitted }

function subQueryRow(sq, servers, index) {
  const chosen = new Set(sq.sources || []);
  const textId = `sq-text-${index}-${Math.random().toString(36).slice(2, 7)}`;
  const boxes = servers.map((server) =>
    el(
      "label",
      { class: "check" },
      el("input", { type: "checkbox", value: server, checked: chosen.has(server), class: "sq-source" }),
      server,
    ),
  );
  const row = el(
    "li",
    { class: "sub-query" },
    el("label", { for: textId, class: "visually-hidden" }, `Sub-query ${index + 1}`),
    el("input", { id: textId, type: "text", class: "sq-text", value: sq.text || "", maxlength: "2000", required: true }),
    el("div", { class: "sq-sources", role: "group", "aria-label": "Sources for this sub-query" }, boxes),
    el("button", { type: "button", class: "secondary small remove-sq", onclick: () => { row.remove(); renumber(); } }, "Remove"),
  );
  return row;
}

function renumber() {
  [...$("plan-list").children].forEach((li, i) => {
    const label = li.querySelector("label.visually-hidden");
    if (label) label.textContent = `Sub-query ${i + 1}`;
  });
}

/** Show the editor for a run waiting on review. */
export function showPlanReview(run, servers, onSubmitted) {
  const extra = new Set();
  for (const sq of run.sub_queries || []) for (const s of sq.sources || []) extra.add(s);
  const all = [...new Set([...servers, ...extra])];
  current = { runId: run.id, servers: all, onSubmitted };
  const list = clear($("plan-list"));
  (run.sub_queries || []).forEach((sq, i) => list.appendChild(subQueryRow(sq, all, i)));
  $("plan-rationale").textContent = run.plan?.rationale || "";
  $("plan-error").textContent = "";
  $("plan-review").hidden = false;
  list.querySelector("input.sq-text")?.focus();
}

export function hidePlanReview() {
  current = null;
  $("plan-review").hidden = true;
  clear($("plan-list"));
}

function editedSubQueries() {
  return [...$("plan-list").children]
    .map((li) => ({
      text: li.querySelector(".sq-text").value.trim(),
      sources: [...li.querySelectorAll(".sq-source:checked")].map((box) => box.value),
    }))
    .filter((sq) => sq.text);
}

async function submit(body) {
  if (!current) return;
  const { runId, onSubmitted } = current;
  $("plan-error").textContent = "";
  for (const button of $("plan-review").querySelectorAll("button")) button.disabled = true;
  try {
    const run = await api(`/api/research/${encodeURIComponent(runId)}/plan`, { method: "POST", body });
    hidePlanReview();
    onSubmitted(run);
  } catch (error) {
    $("plan-error").textContent = error.message;
  } finally {
    for (const button of $("plan-review").querySelectorAll("button")) button.disabled = false;
  }
}

/** Wire the plan review buttons once. */
export function initPlanReview() {
  $("plan-approve").addEventListener("click", () => submit({}));
  $("plan-run-edited").addEventListener("click", () => {
    const subQueries = editedSubQueries();
    if (!subQueries.length) {
      $("plan-error").textContent = "Add at least one sub-query.";
      return;
    }
    if (subQueries.some((sq) => !sq.sources.length)) {
      $("plan-error").textContent = "Each sub-query needs at least one source.";
      return;
    }
    submit({ sub_queries: subQueries });
  });
  $("plan-add").addEventListener("click", () => {
    if (!current) return;
    const list = $("plan-list");
    const row = subQueryRow({ text: "", sources: current.servers.slice(0, 1) }, current.servers, list.children.length);
    list.appendChild(row);
    row.querySelector(".sq-text").focus();
  });
}
