// The one place the UI talks to the API: JSON in and out, bearer token, 401 handling.

const TOKEN_KEY = "marsa.token";
const unauthorizedListeners = [];

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status;
  }
}

export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function setToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private mode without storage: the token lives only for this page.
  }
}

/** Called with no arguments whenever the API answers 401. */
export function onUnauthorized(listener) {
  unauthorizedListeners.push(listener);
}

function authHeaders() {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function detailOf(response) {
  try {
    const body = await response.json();
    if (typeof body?.detail === "string") return body.detail;
    if (Array.isArray(body?.detail)) {
      return body.detail.map((d) => d?.msg || JSON.stringify(d)).join("; ");
    }
    return JSON.stringify(body);
  } catch {
    return response.statusText;
  }
}

/**
 * Fetch a path under the API. `body` is sent as JSON unless it is FormData.
 * Returns parsed JSON (or null for 204); throws ApiError with the server's detail.
 */
export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json", ...authHeaders() };
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload, signal });
  if (response.status === 401) unauthorizedListeners.forEach((fn) => fn());
  if (!response.ok) throw new ApiError(response.status, await detailOf(response));
  if (response.status === 204) return null;
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? response.json() : response.text();
}

/** Fetch a file under the API as a Blob; throws ApiError with the status and the detail. */
export async function apiBlob(path) {
  const response = await fetch(path, { headers: authHeaders() });
  if (response.status === 401) unauthorizedListeners.forEach((fn) => fn());
  if (!response.ok) throw new ApiError(response.status, await detailOf(response));
  return response.blob();
}

/** EventSource cannot send headers, so the token rides in the query string. */
export function eventsUrl(runId) {
  const url = `/api/research/${encodeURIComponent(runId)}/events`;
  const token = getToken();
  return token ? `${url}?access_token=${encodeURIComponent(token)}` : url;
}

/** A download link for an export; with a token it goes in the query string too. */
export function exportUrl(runId, name) {
  const url = `/api/research/${encodeURIComponent(runId)}/${name}`;
  const token = getToken();
  return token ? `${url}?access_token=${encodeURIComponent(token)}` : url;
}
