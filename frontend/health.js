// The health strip: each MCP server up, degraded (up, but its outside API does not answer) or
// down, its note shown on focus or hover; documents; engine.

import { api } from "./api.js";
import { $, clear, el } from "./dom.js";

/** Fetch /api/health, draw the strip, and return its servers ({server, status, note, …}). */
export async function refreshHealth() {
  const strip = clear($("health-servers"));
  try {
    const health = await api("/api/health");
    for (const server of health.servers || []) {
      const state = server.status === "up" || server.status === "degraded" ? server.status : "down";
      const tools = (server.tools || []).join(", ");
      const tip = [server.note, tools && `tools: ${tools}`, server.transport && `transport: ${server.transport}`]
        .filter(Boolean)
        .join("\n");
      const tipId = `health-tip-${String(server.server).replace(/[^a-z0-9_-]/gi, "_")}`;
      // A focusable chip whose note shows as text on focus or hover (not a title tooltip,
      // which keyboard users never see) and is its accessible description.
      const chip = el(
        "li",
        {
          class: `server-health ${state}`,
          tabindex: "0",
          "aria-label": `${server.server}: ${server.status}`,
          "aria-describedby": tip ? tipId : null,
          onkeydown: (event) => {
            if (event.key === "Escape") chip.classList.add("tip-dismissed");
          },
          onblur: () => chip.classList.remove("tip-dismissed"),
          onmouseleave: () => chip.classList.remove("tip-dismissed"),
        },
        el("span", { class: "dot", "aria-hidden": "true" }),
        String(server.server),
        el("span", { class: "visually-hidden" }, ` ${server.status}`),
        tip ? el("span", { class: "server-tip", id: tipId, role: "tooltip" }, tip) : null,
      );
      strip.appendChild(chip);
    }
    $("health-docs").textContent = health.documents ?? "–";
    $("health-engine").textContent = health.engine || "–";
    $("health-engine").title = health.engine_note || ""; // why MARSA_LLM is not used, and the fix
    $("health-status").textContent = health.status || "";
    $("health-status").className = `chip status-${health.status === "ok" ? "ok" : "degraded"}`;
    return health.servers || [];
  } catch (error) {
    strip.appendChild(el("li", { class: "server-health down" }, `health: ${error.message}`));
    return null;
  }
}
