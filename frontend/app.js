// MARSA web UI: wires the ask form, the run on screen, and the side panels together.

import { api, onUnauthorized, setToken, getToken } from "./api.js";
import { $, clear, el } from "./dom.js";
import { initDocuments, refreshDocuments } from "./documents.js";
import { refreshHealth } from "./health.js";
import { initHistory, isFinished, refreshHistory, setActiveRun } from "./history.js";
import { hidePlanReview, initPlanReview, showPlanReview } from "./plan.js";
import { clearResults, jumpToSource, renderRun } from "./report.js";
import { closeStream, followRun, resetTimeline } from "./timeline.js";

const MAX_QUERY = 2000;
const STATUS_TEXT = {
  queued: "Queued…",
  running: "Researching…",
  awaiting_review: "Waiting for you to review the plan.",
  done: "Done.",
  failed: "The run failed.",
  cancelled: "The run was cancelled.",
  interrupted: "The run was interrupted (the server stopped). Resume it from the history.",
};

let servers = []; // names of MCP servers that are up
let current = null; // { id, status }
let lostRetries = 0;

// ---------- status line ----------

function setStatus(status, extra = "") {
  const line = $("status");
  line.dataset.status = status || "";
  line.textContent = [STATUS_TEXT[status] || status || "", extra].filter(Boolean).join(" ");
  line.classList.toggle("error-text", status === "failed");
  const busy = status === "queued" || status === "running" || status === "awaiting_review";
  $("run-cancel").hidden = !busy;
  $("run-resume").hidden = status !== "interrupted" && status !== "failed";
  $("ask-button").disabled = false;
  document.body.classList.toggle("busy", status === "queued" || status === "running");
}

/** "follow-up of <question>", linking to the earlier run (its question fetched once). */
async function setParent(run) {
  const line = $("run-parent");
  const link = $("run-parent-link");
  if (!run.parent_run_id) {
    line.hidden = true;
    delete line.dataset.parent;
    return;
  }
  if (line.dataset.parent === run.parent_run_id && !line.hidden) return;
  line.dataset.parent = run.parent_run_id;
  link.href = `#run=${encodeURIComponent(run.parent_run_id)}`;
  link.textContent = `run ${run.parent_run_id}`;
  line.hidden = false;
  try {
    const parent = await loadDetail(run.parent_run_id);
    if (line.dataset.parent === run.parent_run_id) link.textContent = String(parent.query ?? "");
  } catch (error) {
    if (line.dataset.parent === run.parent_run_id) {
      link.textContent = `run ${run.parent_run_id} (${error.message})`;
    }
  }
}

function setRunHeader(run) {
  $("run-header").hidden = false;
  $("run-query").textContent = run.query || "";
  $("run-id").textContent = run.id;
  setParent(run);
  const subQueries = run.sub_queries || [];
  const list = clear($("run-plan-list"));
  for (const sq of subQueries) {
    list.appendChild(
      el("li", {}, String(sq.text ?? ""), " ",
        (sq.sources || []).map((s) => el("span", { class: "chip" }, String(s)))),
    );
  }
  $("run-plan-count").textContent = `${subQueries.length} sub-quer${subQueries.length === 1 ? "y" : "ies"}`;
  $("run-plan").hidden = !subQueries.length;
}

// ---------- following a run ----------

async function loadDetail(id) {
  return api(`/api/research/${encodeURIComponent(id)}`);
}

function follow(id) {
  followRun(id, {
    onStatus: async (status) => {
      if (!current || current.id !== id) return;
      current.status = status;
      setStatus(status);
      refreshHistory();
      if (status === "awaiting_review") {
        const run = await loadDetail(id);
        if (current?.id === id) showPlanReview(run, servers, planSubmitted);
      } else {
        hidePlanReview();
      }
    },
    onEnd: async (status) => {
      if (!current || current.id !== id) return;
      lostRetries = 0;
      try {
        const run = await loadDetail(id);
        if (current?.id !== id) return;
        current.status = run.status;
        setRunHeader(run);
        setStatus(run.status);
        hidePlanReview();
        renderRun(run);
      } catch (error) {
        setStatus(status, `(${error.message})`);
      }
      refreshHistory();
    },
    onLost: async () => {
      // The stream was refused (401, 404, server restarting): ask for the run itself.
      if (!current || current.id !== id) return;
      try {
        const run = await loadDetail(id);
        if (current?.id !== id) return;
        show(run);
        if (!isFinished(run.status) && run.status !== "interrupted" && lostRetries < 5) {
          lostRetries += 1;
          setTimeout(() => current?.id === id && follow(id), 1000 * lostRetries);
        }
      } catch (error) {
        setStatus(current.status, `(lost the event stream: ${error.message})`);
      }
    },
  });
}

/** Draw a run as it is now (without touching the timeline). */
function show(run) {
  current = { id: run.id, status: run.status };
  setRunHeader(run);
  setStatus(run.status);
  setActiveRun(run.id);
  if (run.status === "awaiting_review") showPlanReview(run, servers, planSubmitted);
  else hidePlanReview();
  if (isFinished(run.status) || run.status === "interrupted") renderRun(run);
  else clearResults();
}

function planSubmitted(run) {
  current = { id: run.id, status: run.status };
  setRunHeader(run);
  setStatus(run.status);
  follow(run.id);
}

/** Show a run from scratch: its detail, then its events (replayed, then live). */
async function openRun(id) {
  closeStream();
  resetTimeline();
  clearResults();
  hidePlanReview();
  lostRetries = 0;
  setHash(id);
  current = { id, status: "" };
  setStatus("", "Loading run…");
  let run;
  try {
    run = await loadDetail(id);
  } catch (error) {
    if (current?.id !== id) return;
    setStatus("", `Could not load run ${id}: ${error.message}`);
    $("status").classList.add("error-text");
    return;
  }
  if (current?.id !== id) return;
  show(run);
  // The detail has no trace: the event stream replays every stored event, then follows
  // the run live until it ends (at once for a finished run).
  follow(id);
}

function setHash(id) {
  const want = id ? `#run=${encodeURIComponent(id)}` : "";
  if (window.location.hash !== want) {
    history.replaceState(null, "", `${window.location.pathname}${window.location.search}${want}`);
  }
}

function runFromHash() {
  const match = /^#run=([^&]+)/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

// ---------- asking ----------

/** Whether a server can be searched now: up, or degraded (its API may still answer). */
function usable(server) {
  return server.status === "up" || server.status === "degraded";
}

function buildSourceToggles(known) {
  const box = clear($("source-toggles"));
  if (!known || !known.some(usable)) {
    box.appendChild(el("span", { class: "hint" }, known ? "No source is up." : "Sources unknown: the server chooses."));
    if (!known) return;
  }
  // Every source is shown: one that is off or down as a disabled toggle saying why (e.g. its
  // setting is missing), one whose outside API does not answer checked but marked.
  for (const server of known) {
    const name = String(server.server);
    const on = usable(server);
    const note = on && server.status !== "degraded" ? "" : server.note || server.status;
    const noteId = `source-note-${name.replace(/[^a-z0-9_-]/gi, "_")}`;
    box.appendChild(
      el(
        "label",
        { class: `check source-toggle ${on ? server.status : "off"}`, title: note || null },
        el("input", {
          type: "checkbox",
          name: "sources",
          value: name,
          checked: on,
          disabled: !on,
          "aria-describedby": note ? noteId : null,
        }),
        name,
        note ? el("span", { class: "visually-hidden", id: noteId }, note) : null,
      ),
    );
  }
}

function chosenSources() {
  const boxes = [...$("source-toggles").querySelectorAll("input[name=sources]")].filter((b) => !b.disabled);
  if (!boxes.length) return undefined;
  const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
  return chosen;
}

async function ask(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  const error = $("ask-error");
  error.textContent = "";
  if (!query) {
    error.textContent = "Type a question first.";
    $("query").focus();
    return;
  }
  if (query.length > MAX_QUERY) {
    error.textContent = `The question is longer than ${MAX_QUERY} characters.`;
    return;
  }
  const body = { query, review_plan: $("review-plan").checked };
  const iterations = Number($("max-iterations").value);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 20) {
    error.textContent = "Max iterations must be a whole number from 1 to 20.";
    $("max-iterations").focus();
    return;
  }
  body.max_iterations = iterations;
  const sources = chosenSources();
  if (sources !== undefined) {
    if (!sources.length) {
      error.textContent = "Choose at least one source.";
      return;
    }
    body.sources = sources;
  }
  $("ask-button").disabled = true;
  try {
    started(await api("/api/research", { method: "POST", body }));
  } catch (err) {
    error.textContent = err.message;
  } finally {
    $("ask-button").disabled = false;
  }
}

/** A run just started (asked or followed up): show it and follow its events live. */
function started(run) {
  closeStream();
  resetTimeline();
  clearResults();
  hidePlanReview();
  lostRetries = 0;
  setHash(run.id);
  show(run);
  follow(run.id);
  refreshHistory();
}

async function askFollowUp(event) {
  event.preventDefault();
  const error = $("follow-up-error");
  error.textContent = "";
  const question = $("follow-up-question").value.trim();
  if (!current) return;
  if (!question) {
    error.textContent = "Type a follow-up question first.";
    $("follow-up-question").focus();
    return;
  }
  if (question.length > MAX_QUERY) {
    error.textContent = `The question is longer than ${MAX_QUERY} characters.`;
    return;
  }
  $("follow-up-button").disabled = true;
  try {
    const run = await api(`/api/research/${encodeURIComponent(current.id)}/follow-up`, {
      method: "POST",
      body: { question },
    });
    $("follow-up-question").value = "";
    started(run);
  } catch (err) {
    error.textContent = err.message;
  } finally {
    $("follow-up-button").disabled = false;
  }
}

function updateCounter() {
  const length = $("query").value.length;
  $("query-count").textContent = `${length} / ${MAX_QUERY}`;
}

// ---------- auth ----------

function showAuth() {
  const form = $("auth-form");
  if (!form.hidden) return;
  form.hidden = false;
  $("auth-token").value = getToken();
  $("auth-token").focus();
}

async function refreshAll() {
  // Health probes every MCP server and can be slow: the lists do not wait for it.
  const health = refreshHealth().then((known) => {
    servers = (known || []).filter(usable).map((s) => String(s.server));
    buildSourceToggles(known);
  });
  await Promise.all([health, refreshHistory(), refreshDocuments()]);
}

// ---------- start ----------

function init() {
  $("ask-form").addEventListener("submit", ask);
  $("follow-up-form").addEventListener("submit", askFollowUp);
  $("follow-up-question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      $("follow-up-form").requestSubmit();
    }
  });
  $("query").addEventListener("input", updateCounter);
  $("query").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      $("ask-form").requestSubmit();
    }
  });
  updateCounter();

  onUnauthorized(showAuth);
  $("auth-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    setToken($("auth-token").value.trim());
    $("auth-form").hidden = true;
    await refreshAll();
    const id = runFromHash();
    if (id) openRun(id);
  });

  // Citation links jump to the source without touching the #run= hash.
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.('a[href^="#src-"]');
    if (!link) return;
    event.preventDefault();
    jumpToSource(link.getAttribute("href").slice(5));
  });

  $("run-cancel").addEventListener("click", async () => {
    if (!current) return;
    try {
      const run = await api(`/api/research/${encodeURIComponent(current.id)}/cancel`, { method: "POST" });
      if (current?.id === run.id) setStatus(run.status);
    } catch (error) {
      $("ask-error").textContent = error.message;
    }
    refreshHistory();
  });
  $("run-resume").addEventListener("click", async () => {
    if (!current) return;
    try {
      await api(`/api/research/${encodeURIComponent(current.id)}/resume`, { method: "POST" });
      openRun(current.id);
    } catch (error) {
      $("ask-error").textContent = error.message;
    }
    refreshHistory();
  });

  initPlanReview();
  initHistory({
    onOpen: (id) => openRun(id),
    onDeleted: (id) => {
      if (current?.id !== id) return;
      closeStream();
      current = null;
      setHash(null);
      resetTimeline();
      clearResults();
      hidePlanReview();
      $("run-header").hidden = true;
      setStatus("", "Run deleted.");
    },
    onChanged: (run) => {
      if (current?.id === run.id) setStatus(run.status);
    },
  });
  initDocuments(() => refreshHealth());

  window.addEventListener("hashchange", () => {
    const id = runFromHash();
    if (id && id !== current?.id) openRun(id);
  });

  // The run in the hash loads at once; health (which probes the servers) may take longer.
  refreshAll();
  const id = runFromHash();
  if (id) openRun(id);
}

init();
