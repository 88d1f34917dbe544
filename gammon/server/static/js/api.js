// HTTP calls to the server (docs/PROTOCOL.md section 1), with the double-submit CSRF header.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

async function csrfToken() {
  let token = cookie("gammon_csrf");
  if (!token) {
    const me = await fetch("/api/me", { credentials: "same-origin" });
    const body = await me.json().catch(() => ({}));
    token = cookie("gammon_csrf") || body.csrf || "";
  }
  return token;
}

/** Call the API; resolve with the JSON answer or throw an ApiError with the server's message. */
export async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
  if (method !== "GET") {
    options.headers["X-CSRF-Token"] = await csrfToken();
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", "cannot reach the server: check your connection");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(
      response.status,
      error.code || `http_${response.status}`,
      error.message || `${response.status} ${response.statusText}`,
    );
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
