// The health strip: each MCP server up or down (its note as a tooltip), documents, engine.

import { api } from "./api.js";
import { $, clear, el } from "./dom.js";

/** Fetch /api/health, draw the strip, and return the names of the servers that are up. */
export async function refreshHealth() {
  const strip = clear($("health-servers"));
  try {
    const health = await api("/api/health");
    for (const server of health.servers || []) {
      const up = server.status === "up";
      const tools = (server.tools || []).join(", ");
      const tip = [server.note, tools && `tools: ${tools}`, server.transport && `transport: ${server.transport}`]
        .filter(Boolean)
        .join("\n");
      strip.appendChild(
        el(
          "li",
          { class: `server-health ${up ? "up" : "down"}`, title: tip, tabindex: "0", "aria-label": `${server.server}: ${server.status}. ${server.note || ""}` },
          el("span", { class: "dot", "aria-hidden": "true" }),
          String(server.server),
          el("span", { class: "visually-hidden" }, ` ${server.status}`),
        ),
      );
    }
    $("health-docs").textContent = health.documents ?? "–";
    $("health-engine").textContent = health.engine || "–";
    $("health-status").textContent = health.status || "";
    $("health-status").className = `chip status-${health.status === "ok" ? "ok" : "degraded"}`;
    return (health.servers || []).filter((s) => s.status === "up").map((s) => String(s.server));
  } catch (error) {
    strip.appendChild(el("li", { class: "server-health down" }, `health: ${error.message}`));
    return null;
  }
}
