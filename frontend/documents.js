// Documents: what the local store holds; upload a file or paste text.

import { api } from "./api.js";
import { $, clear, el, formatDate, safeUrl } from "./dom.js";

let onChange = () => {};

function say(message, isError = false) {
  const status = $("doc-status");
  status.textContent = message;
  status.classList.toggle("error-text", isError);
}

function describe(result) {
  return `${result.title || result.doc_id}: ${result.status} (${result.chunks} chunk${result.chunks === 1 ? "" : "s"})`;
}

/** Reload the document list. */
export async function refreshDocuments() {
  try {
    const page = await api("/api/documents?limit=100&offset=0");
    const list = clear($("doc-list"));
    for (const doc of page.documents || []) {
      const url = safeUrl(doc.source_url);
      list.appendChild(
        el(
          "li",
          { class: "doc", dataset: { docId: doc.doc_id } },
          el(
            "div",
            { class: "doc-main" },
            url
              ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "doc-title" }, String(doc.title || doc.doc_id))
              : el("span", { class: "doc-title" }, String(doc.title || doc.doc_id)),
            el(
              "span",
              { class: "doc-meta" },
              `${doc.chunks ?? 0} chunks · ${doc.word_count ?? 0} words`,
              doc.published_date ? ` · ${doc.published_date}` : "",
              doc.ingested_at ? ` · added ${formatDate(doc.ingested_at)}` : "",
            ),
          ),
          el("button", {
            type: "button",
            class: "danger small",
            "aria-label": `Delete document ${doc.title || doc.doc_id}`,
            onclick: () => remove(doc),
          }, "Delete"),
        ),
      );
    }
    $("doc-count").textContent = String(page.total ?? (page.documents || []).length);
    $("doc-empty").hidden = (page.documents || []).length > 0;
  } catch (error) {
    say(error.message, true);
  }
}

async function remove(doc) {
  if (!window.confirm(`Delete "${doc.title || doc.doc_id}"?`)) return;
  try {
    const result = await api(`/api/documents/${encodeURIComponent(doc.doc_id)}`, { method: "DELETE" });
    say(`Deleted ${doc.title || doc.doc_id} (${result?.chunks_deleted ?? 0} chunks).`);
  } catch (error) {
    say(error.message, true);
  }
  refreshDocuments();
  onChange();
}

async function upload(event) {
  event.preventDefault();
  const input = $("doc-file");
  if (!input.files.length) {
    say("Choose a file first.", true);
    return;
  }
  const button = $("doc-upload");
  button.disabled = true;
  const messages = [];
  let failed = false;
  for (const file of input.files) {
    const form = new FormData();
    form.append("file", file, file.name);
    say(`Uploading ${file.name}…`);
    try {
      messages.push(describe(await api("/api/documents", { method: "POST", body: form })));
    } catch (error) {
      failed = true;
      messages.push(`${file.name}: ${error.message}`);
    }
  }
  button.disabled = false;
  input.value = "";
  say(messages.join("; "), failed);
  refreshDocuments();
  onChange();
}

async function paste(event) {
  event.preventDefault();
  const title = $("paste-title").value.trim();
  const content = $("paste-content").value;
  if (!title || !content.trim()) {
    say("A pasted document needs a title and some text.", true);
    return;
  }
  const body = { title, content };
  const url = $("paste-url").value.trim();
  if (url) body.source_url = url;
  try {
    const result = await api("/api/documents", { method: "POST", body });
    say(describe(result));
    $("paste-form").reset();
  } catch (error) {
    say(error.message, true);
  }
  refreshDocuments();
  onChange();
}

/** The file picker offers the types the store reads; the API gives its one list. */
async function loadFormats() {
  try {
    const { suffixes } = await api("/api/documents/formats");
    $("doc-file").accept = suffixes.join(",");
    $("doc-file-label").textContent = `Add files (${suffixes.join(" ")})`;
  } catch (error) {
    // The picker then offers every file; an upload of another type is refused with the list.
    say(error.message, true);
  }
}

/** Wire the forms once; `changed` runs after any add or delete (health shows the count). */
export function initDocuments(changed) {
  onChange = changed;
  $("upload-form").addEventListener("submit", upload);
  $("paste-form").addEventListener("submit", paste);
  loadFormats();
}
