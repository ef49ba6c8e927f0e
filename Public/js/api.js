// The StoryVoice API as the web app uses it: a cookie session (HttpOnly, set by the server on
// login with ?cookie=1), refreshed once on a 401 before giving up.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function parse(response) {
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = body?.error ?? { code: "error", message: `The server answered ${response.status}.` };
    throw new APIError(response.status, error.code, error.message);
  }
  return body;
}

async function refreshSession() {
  const response = await fetch("/auth/refresh?cookie=1", { method: "POST", credentials: "same-origin" });
  return response.ok;
}

export async function api(path, { method = "GET", json } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  }
  let response = await fetch(path, init);
  if (response.status === 401 && await refreshSession()) response = await fetch(path, init);
  return parse(response);
}

export async function login(email, password) {
  const body = new URLSearchParams({ username: email, password });
  return parse(await fetch("/auth/login?cookie=1", { method: "POST", body, credentials: "same-origin" }));
}

export async function register(email, password) {
  return parse(await fetch("/auth/register?cookie=1", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  }));
}

export async function logout() {
  return parse(await fetch("/auth/logout", { method: "POST", credentials: "same-origin" }));
}

/** Multipart upload (the browser sets the boundary). */
export async function upload(path, formData) {
  const init = { method: "POST", body: formData, credentials: "same-origin" };
  let response = await fetch(path, init);
  if (response.status === 401 && await refreshSession()) response = await fetch(path, init);
  return parse(response);
}

/**
 * Follows a job's server-sent events until it finishes; `onProgress` gets each snapshot.
 * Resolves with the final snapshot (EventSource reconnects on its own if the stream drops).
 */
export function followJob(id, onProgress) {
  return new Promise((resolve) => {
    const source = new EventSource(`/api/jobs/${id}/events`);
    source.addEventListener("progress", (event) => onProgress(JSON.parse(event.data)));
    source.addEventListener("finished", (event) => {
      source.close();
      const job = JSON.parse(event.data);
      onProgress(job);
      resolve(job);
    });
    source.onerror = async () => {
      // A 401 (expired session) closes the stream; refresh once and start over.
      if (source.readyState === EventSource.CLOSED) {
        if (await refreshSession()) resolve(followJob(id, onProgress));
        else resolve({ status: "failed", error: "Your session ended; sign in again." });
      }
    };
  });
}
