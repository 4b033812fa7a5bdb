// The finished run: report, claims table, sources panel, citation check, exports, errors.

import { ApiError, apiBlob, exportUrl } from "./api.js";
import { $, clear, el, formatMs, percent, plainText, safeUrl } from "./dom.js";

const VERDICTS = new Set(["supported", "contradicted", "unverifiable"]);
const NOT_FOUND_DETAIL =
  " The sources searched do not answer this question, or they contradict what it assumes; " +
  "the report says what they do cover.";

/** Hide every result panel (a new run starts, or a run without results is shown). */
export function clearResults() {
  const report = $("report");
  clear(report);
  report.hidden = true;
  clear($("claims").tBodies[0]);
  clear($("source-list"));
  clear($("run-errors"));
  clear($("exports"));
  clear($("timings"));
  $("answer-notice").textContent = "";
  $("answer-notice").hidden = true;
  $("citation-check").textContent = "";
  $("export-error").textContent = "";
  $("follow-up-form").hidden = true;
  $("follow-up-error").textContent = "";
  for (const id of ["results", "claims-panel", "sources"]) $(id).hidden = true;
}

/** Scroll to a source and highlight it briefly. */
export function jumpToSource(sourceId) {
  const target = document.getElementById(`src-${sourceId}`);
  if (!target) return false;
  for (const old of document.querySelectorAll(".source.highlight")) old.classList.remove("highlight");
  target.classList.add("highlight");
  target.scrollIntoView({ behavior: "smooth", block: "center" });
  target.focus({ preventScroll: true });
  return true;
}

function sourceLink(sourceId) {
  return el(
    "a",
    { href: `#src-${sourceId}`, class: "source-ref", dataset: { source: sourceId } },
    sourceId,
  );
}

function bar(name, value) {
  const safe = typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0;
  return el(
    "div",
    { class: `score-part part-${name}` },
    el("span", { class: "score-name" }, name),
    el(
      "span",
      {
        class: "bar",
        role: "meter",
        "aria-valuemin": "0",
        "aria-valuemax": "1",
        "aria-valuenow": safe.toFixed(2),
        "aria-label": `${name} ${safe.toFixed(2)}`,
      },
      el("span", { class: "bar-fill", style: { width: `${Math.round(safe * 100)}%` } }),
    ),
    el("span", { class: "score-value" }, safe.toFixed(2)),
  );
}

function renderSources(run) {
  const list = clear($("source-list"));
  const citedBy = new Map();
  for (const c of run.citations || []) {
    if (!citedBy.has(c.source_id)) citedBy.set(c.source_id, []);
    if (!citedBy.get(c.source_id).includes(c.n)) citedBy.get(c.source_id).push(c.n);
  }
  for (const source of run.sources || []) {
    const url = safeUrl(source.url);
    const title = source.title || source.path || source.id;
    // Where it is: the path in the ingested folder when known, else the file path (a web
    // source's address is its title link).
    const where = source.relative_path || (!url ? source.path : null);
    const breakdown = source.score_breakdown || {};
    const numbers = citedBy.get(source.id) || [];
    const snippet = typeof source.text === "string" ? plainText(source.text.slice(0, 600)) : "";
    list.appendChild(
      el(
        "li",
        { class: "source", id: `src-${source.id}`, tabindex: "-1" },
        el(
          "div",
          { class: "source-head" },
          el("span", { class: "source-id" }, source.id),
          url
            ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "source-title" }, title)
            : el("span", { class: "source-title" }, title),
          source.status
            ? el("span", { class: "source-status" }, `(${String(source.status)})`)
            : null,
        ),
        el(
          "div",
          { class: "source-meta" },
          el("span", { class: `chip server server-${String(source.server).replace(/[^a-z0-9_-]/gi, "")}` }, source.server || "?"),
          source.published_date ? el("span", { class: "chip" }, String(source.published_date)) : null,
          numbers.length ? el("span", { class: "chip" }, `cited ${numbers.map((n) => `[${n}]`).join(" ")}`) : null,
          where ? el("span", { class: "source-path" }, String(where)) : null,
        ),
        el(
          "div",
          { class: "score" },
          el("span", { class: "score-total" }, `score ${Number(source.score ?? 0).toFixed(2)}`),
          bar("domain", breakdown.domain),
          bar("recency", breakdown.recency),
          bar("depth", breakdown.depth),
        ),
        snippet ? el("details", { class: "source-text" }, el("summary", {}, "text"), el("p", {}, snippet)) : null,
      ),
    );
  }
  $("source-count").textContent = `${(run.sources || []).length}`;
  $("sources").hidden = !(run.sources || []).length;
}

function renderClaims(run) {
  const body = clear($("claims").tBodies[0]);
  for (const claim of run.claims || []) {
    const verdict = VERDICTS.has(claim.verdict) ? claim.verdict : "unverifiable";
    const evidence = el("ul", { class: "evidence" });
    for (const item of claim.evidence || []) {
      const stance = String(item.stance || "neutral");
      evidence.appendChild(
        el(
          "li",
          { class: `stance-${stance.replace(/[^a-z]/g, "")}` },
          el("span", { class: "chip" }, stance),
          " ",
          item.source_id ? sourceLink(item.source_id) : null,
          " ",
          el("q", {}, plainText(item.text ?? item.quote)),
        ),
      );
    }
    if (!evidence.children.length && (claim.source_ids || []).length) {
      evidence.appendChild(el("li", {}, "from ", claim.source_ids.map((id) => [sourceLink(id), " "])));
    }
    body.appendChild(
      el(
        "tr",
        { class: `claim verdict-row-${verdict}` },
        el("td", { class: "claim-text" }, plainText(claim.text),
          claim.rationale ? el("small", { class: "rationale" }, plainText(claim.rationale)) : null),
        el("td", {}, el("span", { class: `badge verdict verdict-${verdict}` }, String(claim.verdict ?? "unverifiable"))),
        el("td", { class: "confidence" }, percent(claim.confidence)),
        el("td", {}, evidence),
      ),
    );
  }
  $("claims-panel").hidden = !(run.claims || []).length;
}

async function download(event, runId, name) {
  // Fetched rather than followed, so the token goes in a header and a refusal (the run
  // was deleted, the export failed) is shown here instead of as a broken download.
  event.preventDefault();
  const message = $("export-error");
  message.textContent = "";
  let blob;
  try {
    blob = await apiBlob(`/api/research/${encodeURIComponent(runId)}/${name}`);
  } catch (error) {
    const status = error instanceof ApiError ? `HTTP ${error.status}: ` : "";
    message.textContent = `Could not download ${name}: ${status}${error.message}`;
    return;
  }
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: `marsa-${runId}-${name}` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function renderExtras(run) {
  const exports = clear($("exports"));
  for (const name of ["report.md", "report.json", "report.pdf"]) {
    exports.appendChild(
      el("a", {
        class: "button secondary",
        href: exportUrl(run.id, name),
        download: `marsa-${run.id}-${name}`,
        onclick: (event) => download(event, run.id, name),
      }, name),
    );
  }
  const check = run.citation_check;
  $("citation-check").textContent = check
    ? `Citation check: ${check.checked ?? 0} checked, ${check.removed ?? 0} removed`
    : "";
  const timings = clear($("timings"));
  for (const [name, ms] of Object.entries(run.timings || {})) {
    timings.appendChild(el("li", {}, el("span", {}, name.replace("_", "-")), " ", formatMs(ms)));
  }
  const steps = run.engine_steps;
  if (steps && typeof steps === "object") {
    // Which steps the model did, and which the offline engine did instead, and why.
    const byModel = (steps.by_model || []).join(", ") || "none";
    timings.appendChild(el("li", { class: "engine-steps" }, el("span", {}, "model did"), " ", byModel));
    (steps.fell_back || []).forEach((step, i) => {
      const why = (steps.fell_back_why || [])[i];
      timings.appendChild(
        el("li", { class: "engine-steps fell-back" }, el("span", {}, "fell back"), " ", `${step}${why ? ` (${why})` : ""}`),
      );
    });
  }
  const errors = clear($("run-errors"));
  const all = [...(run.error ? [run.error] : []), ...(run.errors || [])];
  for (const message of all) errors.appendChild(el("li", {}, String(message)));
}

/** Show whatever a run has: the report (sanitised server-side), claims, sources, extras. */
export function renderRun(run) {
  clearResults();
  if (run.answer_found === false) {
    const notice = $("answer-notice");
    notice.append(el("strong", {}, "Not found in the sources."), NOT_FOUND_DETAIL);
    notice.hidden = false;
  }
  const report = $("report");
  if (typeof run.report_html === "string" && run.report_html) {
    // report_html is sanitised by the server; it is the only HTML the UI inserts.
    report.innerHTML = run.report_html;
    report.hidden = false;
  } else if (typeof run.report === "string" && run.report) {
    report.appendChild(el("pre", { class: "report-plain" }, run.report));
    report.hidden = false;
  }
  renderClaims(run);
  renderSources(run);
  renderExtras(run);
  const hasAnything = !report.hidden || (run.claims || []).length || (run.sources || []).length ||
    (run.errors || []).length || run.error || !$("answer-notice").hidden;
  $("results").hidden = !hasAnything;
  $("exports").hidden = report.hidden;
  // A follow-up starts from the run's sources and answer: offered once there is a report
  // (the API refuses a run with no answer, or one that failed with no sources).
  $("follow-up-form").hidden = report.hidden || (run.status === "failed" && !(run.sources || []).length);
}
