// The live timeline of agent activity, and the event stream that feeds it.

import { eventsUrl } from "./api.js";
import { $, clear, el, formatMs, plainText } from "./dom.js";

export const AGENTS = ["planner", "researcher", "fact_checker", "synthesizer"];
const KNOWN_KINDS = new Set([
  "run_start", "run_end", "node_start", "node_end", "tool_call", "verdict",
  "refinement", "fallback", "llm_call", "info", "error",
]);
const KNOWN_NODES = new Set([...AGENTS, "client", "run"]);

const seen = new Set();
let stream = null;

/** Empty the timeline for a new run. */
export function resetTimeline() {
  seen.clear();
  clear($("timeline"));
  $("timeline-empty").hidden = false;
  updateCounts();
}

const cssToken = (value, known) => (known.has(value) ? value : "other");

function label(node) {
  return node === "fact_checker" ? "fact-checker" : node || "run";
}

/** The small facts shown under a message: server.tool, duration, results, verdict. */
function details(event) {
  const data = event.data || {};
  const parts = [];
  const chip = (text, cls = "") => el("span", { class: `chip ${cls}`.trim() }, text);
  if (event.kind === "tool_call") {
    if (data.server || data.tool) parts.push(chip(`${data.server ?? "?"} · ${data.tool ?? "?"}`, "chip-tool"));
    const ms = data.duration_ms ?? data.duration_ms_call ?? event.duration_ms;
    if (typeof ms === "number") parts.push(chip(formatMs(ms)));
    if (typeof data.result_count === "number") {
      parts.push(chip(`${data.result_count} result${data.result_count === 1 ? "" : "s"}`));
    }
    if (data.error) parts.push(chip(`error: ${data.error}`, "chip-error"));
  } else if (event.kind === "verdict") {
    if (data.verdict) parts.push(chip(String(data.verdict), `verdict verdict-${data.verdict}`));
    if (typeof data.confidence === "number") parts.push(chip(`${Math.round(data.confidence * 100)}%`));
  } else if (event.kind === "refinement" && Array.isArray(data.sub_queries)) {
    for (const sq of data.sub_queries) parts.push(chip(sq?.text ?? String(sq), "chip-query"));
  } else if (event.kind === "llm_call") {
    // One model call: which step, model and attempt, how it was asked, what came back.
    if (data.model) parts.push(chip(`${data.model}${data.attempt > 1 ? ` · try ${data.attempt}` : ""}`, "chip-tool"));
    if (data.output) parts.push(chip(String(data.output)));
    if (data.outcome) parts.push(chip(String(data.outcome), data.outcome === "valid" ? "" : "chip-error"));
    if (typeof data.duration_ms === "number") parts.push(chip(formatMs(data.duration_ms)));
    if (typeof data.input_tokens === "number" || typeof data.output_tokens === "number") {
      parts.push(chip(`${data.input_tokens ?? "?"} in · ${data.output_tokens ?? "?"} out tokens`));
    }
    if (data.error) parts.push(chip(`error: ${data.error}`, "chip-error"));
  } else if (typeof event.duration_ms === "number") {
    parts.push(chip(formatMs(event.duration_ms)));
  }
  return parts.length ? el("div", { class: "event-details" }, parts) : null;
}

/** Add one trace event, unless its seq is already shown (replays after a reconnect). */
export function addEvent(event) {
  if (!event || typeof event !== "object") return;
  const seq = Number(event.seq);
  if (Number.isFinite(seq)) {
    if (seen.has(seq)) return;
    seen.add(seq);
  }
  const kind = cssToken(event.kind, KNOWN_KINDS);
  const node = cssToken(event.node, KNOWN_NODES);
  const time = event.ts ? new Date(event.ts) : null;
  const item = el(
    "li",
    { class: `event kind-${kind} node-${node}`, dataset: { seq: String(seq) } },
    el("span", { class: "event-node" }, label(event.node)),
    el("span", { class: "event-kind" }, String(event.kind || "")),
    time && !Number.isNaN(time.getTime())
      ? el("time", { datetime: event.ts, class: "event-time" }, time.toLocaleTimeString())
      : null,
    // A verdict's message quotes its claim, which is document text.
    el("p", { class: "event-message" }, kind === "verdict" ? plainText(event.message) : String(event.message ?? "")),
    details(event),
  );
  const list = $("timeline");
  // Keep seq order even if a replay delivers an older event late.
  const later = [...list.children].find((li) => Number(li.dataset.seq) > seq);
  list.insertBefore(item, later || null);
  $("timeline-empty").hidden = true;
  updateCounts();
  const box = $("timeline-scroll");
  if (box.scrollHeight - box.scrollTop - box.clientHeight < 80 || !later) {
    box.scrollTop = box.scrollHeight;
  }
}

function updateCounts() {
  const items = $("timeline").children;
  let tools = 0;
  let problems = 0;
  for (const li of items) {
    if (li.classList.contains("kind-tool_call")) tools += 1;
    if (li.classList.contains("kind-error") || li.classList.contains("kind-fallback")) problems += 1;
  }
  $("timeline-count").textContent = items.length
    ? `${items.length} events · ${tools} tool calls${problems ? ` · ${problems} problems` : ""}`
    : "";
}

/** Stop following the current run's events. */
export function closeStream() {
  if (stream) stream.close();
  stream = null;
}

/**
 * Follow /api/research/{id}/events. EventSource reconnects with Last-Event-ID by
 * itself; `end` closes it for good. `handlers`: onStatus(status), onEnd(status), onLost().
 */
export function followRun(runId, handlers) {
  closeStream();
  const source = new EventSource(eventsUrl(runId));
  stream = source;
  const parse = (message) => {
    try {
      return JSON.parse(message.data);
    } catch {
      return null;
    }
  };
  source.addEventListener("trace", (message) => {
    if (stream === source) addEvent(parse(message));
  });
  // A reconnect (the server closes a stream after MARSA_SSE_MAX_SECONDS) is sent the status
  // again: only a change is passed on, so a plan being edited is not drawn afresh.
  let lastStatus = null;
  source.addEventListener("status", (message) => {
    const body = parse(message);
    if (stream !== source || !body?.status || body.status === lastStatus) return;
    lastStatus = body.status;
    handlers.onStatus?.(body.status);
  });
  source.addEventListener("end", (message) => {
    if (stream !== source) return;
    closeStream();
    handlers.onEnd?.(parse(message)?.status);
  });
  source.addEventListener("error", () => {
    // CLOSED means the browser gave up (an HTTP error such as 401 or 404): no retry.
    if (stream === source && source.readyState === EventSource.CLOSED) {
      closeStream();
      handlers.onLost?.();
    }
  });
  return source;
}
