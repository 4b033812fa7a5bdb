// Small DOM helpers. Everything from the API goes in through textContent or
// attributes set here, never through innerHTML (report_html is the one exception,
// handled in report.js).

/**
 * Create an element: el("a", {href: "#x", class: "cite"}, "text", child, ...).
 * Attribute values are set with setAttribute (or as properties for a few booleans);
 * string children become text nodes.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") Object.assign(node.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "checked" || key === "disabled" || key === "value" || key === "hidden") {
      node[key] = value;
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Shorthand for document.getElementById. */
export const $ = (id) => document.getElementById(id);

/** Only http(s) URLs become links; anything else (javascript:, data:) stays text. */
export function safeUrl(url) {
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** "1.2 s" or "340 ms". */
export function formatMs(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** A short local date-time for an ISO timestamp. */
export function formatDate(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

/** 0.734 → "73%". */
export function percent(value) {
  return typeof value === "number" && Number.isFinite(value) ? `${Math.round(value * 100)}%` : "–";
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/**
 * Text from documents with its Markdown, MDX and HTML markup removed, for places that show
 * it as plain text (claims, evidence, verdicts): `**Author(s)**:` → `Author(s):`,
 * `[text](url)` → `text`, `<Note>…</Note>` → its inner text, `` `code` `` → `code` (backticks
 * always dropped), leading `#`, `>` and list markers dropped, `\*` → `*`. The result still
 * goes into the page as text, never as HTML.
 */
export function plainText(value) {
  // Escaped characters are set aside first, so `\*` is never read as emphasis.
  const text = String(value ?? "")
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, (_, c) => String.fromCharCode(0xe000 + c.charCodeAt(0)))
    .replace(/<!--[\s\S]*?(?:-->|$)/g, "")
    .replace(/<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, "$2")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, "$1$2")
    .replace(/(^|[^\w_])_(?=\S)([^_]*?\S)_(?![\w_])/g, "$1$2")
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "$1")
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)/gm, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name) => ENTITIES[name])
    .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000));
  return text.replace(/[ \t]{2,}/g, " ").trim();
}
