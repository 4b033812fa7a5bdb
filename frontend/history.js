// History: past runs, newest first, paged and searchable.

import { api } from "./api.js";
import { $, clear, el, formatDate } from "./dom.js";

const PAGE = 20;
const FINISHED = new Set(["done", "failed", "cancelled"]);
let offset = 0;
let query = "";
let handlers = {};
let activeId = null;
let pending = 0;

function statusChip(status) {
  return el("span", { class: `chip status status-${String(status).replace(/[^a-z_]/g, "")}` }, String(status));
}

async function act(path, method) {
  try {
    return { ok: true, value: await api(path, { method }) };
  } catch (error) {
    $("history-error").textContent = error.message;
    return { ok: false, value: null };
  }
}

function item(run) {
  const id = encodeURIComponent(run.id);
  const actions = [];
  if (run.status === "running" || run.status === "queued" || run.status === "awaiting_review") {
    actions.push(el("button", { type: "button", class: "secondary small", onclick: async () => {
      const result = await act(`/api/research/${id}/cancel`, "POST");
      if (result.ok) handlers.onChanged?.(result.value);
      refreshHistory();
    } }, "Cancel"));
  }
  if (run.status === "interrupted" || run.status === "failed") {
    actions.push(el("button", { type: "button", class: "secondary small", onclick: async () => {
      const result = await act(`/api/research/${id}/resume`, "POST");
      if (result.ok) handlers.onOpen?.(run.id);
      refreshHistory();
    } }, "Resume"));
  }
  actions.push(el("button", {
    type: "button",
    class: "danger small",
    "aria-label": `Delete run: ${run.query}`,
    onclick: async () => {
      if (!window.confirm("Delete this run?")) return;
      const result = await act(`/api/research/${id}`, "DELETE");
      if (result.ok) handlers.onDeleted?.(run.id);
      refreshHistory();
    },
  }, "Delete"));
  return el(
    "li",
    { class: `history-item${run.id === activeId ? " active" : ""}`, dataset: { runId: run.id } },
    el(
      "button",
      { type: "button", class: "history-open", onclick: () => handlers.onOpen?.(run.id) },
      el("span", { class: "history-query" },
        run.parent_run_id ? el("span", { class: "chip follow-up-chip", title: `follow-up of run ${run.parent_run_id}` }, "follow-up") : null,
        run.parent_run_id ? " " : null,
        String(run.query ?? "")),
      el(
        "span",
        { class: "history-meta" },
        statusChip(run.status),
        run.answer_found === false ? [" ", el("span", { class: "chip not-found" }, "not found in the sources")] : null,
        " ",
        el("time", { datetime: run.created_at }, formatDate(run.created_at)),
      ),
      run.answer ? el("span", { class: "history-answer" }, String(run.answer)) : null,
    ),
    el("div", { class: "history-actions" }, actions),
  );
}

/** Reload the current page of history. */
export async function refreshHistory() {
  const ticket = ++pending;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (query) params.set("q", query);
  try {
    const page = await api(`/api/research?${params}`);
    if (ticket !== pending) return;
    $("history-error").textContent = "";
    const list = clear($("history-list"));
    for (const run of page.items || []) list.appendChild(item(run));
    const total = page.total ?? 0;
    $("history-empty").hidden = (page.items || []).length > 0;
    $("history-page").textContent = total
      ? `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}`
      : "";
    $("history-prev").disabled = offset === 0;
    $("history-next").disabled = offset + PAGE >= total;
  } catch (error) {
    if (ticket === pending) $("history-error").textContent = error.message;
  }
}

/** Mark the run on screen. */
export function setActiveRun(runId) {
  activeId = runId;
  for (const li of $("history-list").children) li.classList.toggle("active", li.dataset.runId === runId);
}

export function isFinished(status) {
  return FINISHED.has(status);
}

/** handlers: onOpen(id), onDeleted(id), onChanged(run). */
export function initHistory(callbacks) {
  handlers = callbacks;
  let timer = null;
  $("history-search").addEventListener("input", (event) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      query = event.target.value.trim();
      offset = 0;
      refreshHistory();
    }, 250);
  });
  $("history-form").addEventListener("submit", (event) => event.preventDefault());
  $("history-prev").addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    refreshHistory();
  });
  $("history-next").addEventListener("click", () => {
    offset += PAGE;
    refreshHistory();
  });
  $("history-refresh").addEventListener("click", () => refreshHistory());
}
