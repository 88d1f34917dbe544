// @ts-check
// HTTP calls to the server (docs/PROTOCOL.md section 1), with the double-submit CSRF header.

import { t } from "./i18n.js";

/** A refusal from the server (its code and message), or no answer at all (status 0). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** @param {string} name */
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
  return token || "";
}

/**
 * Call the API; resolve with the JSON answer or throw an ApiError with the server's message.
 * @param {"GET" | "POST"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  /** @type {RequestInit} */
  const options = { method, credentials: "same-origin", headers };
  if (method !== "GET") {
    headers["X-CSRF-Token"] = await csrfToken();
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", t("cannot reach the server: check your connection"));
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

/** @param {string} path */
export const get = (path) => api("GET", path);
/**
 * @param {string} path
 * @param {unknown} body
 */
export const post = (path, body) => api("POST", path, body);

/**
 * POST a file as it is (an upload, docs/PROTOCOL.md 9), with the CSRF header; resolve with
 * the JSON answer or throw an ApiError with the server's message.
 * @param {string} path
 * @param {Blob} file
 * @returns {Promise<any>}
 */
export async function upload(path, file) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRF-Token": await csrfToken(), "Content-Type": "application/octet-stream" },
      body: file,
    });
  } catch {
    throw new ApiError(0, "network", t("cannot reach the server: check your connection"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || `http_${response.status}`,
      error.message || `${response.status} ${response.statusText}`);
  }
  return data;
}
