// Every request the web app makes goes through this file: JSON, uploads, audio and other binary
// bodies, and job event streams. The session is a pair of HttpOnly cookies set by the server
// (login with ?cookie=1): a short-lived access cookie and a refresh cookie. On a 401 the session
// is refreshed once and the request retried.
//
// The refresh is single-flight: the server rotates refresh tokens and treats a spent token
// presented again as theft (it revokes the whole login), so two refreshes sent with the same
// cookie would sign the user out. All callers that meet a 401 at the same time share one
// POST /auth/refresh?cookie=1; a Web Lock (where the browser has them) also keeps two tabs from
// refreshing at once.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The session could not be refreshed: the user has to sign in again. */
export const sessionEndedMessage = "Your session ended; sign in again.";

let epoch = 0; // bumps each time the session cookies are replaced (sign-in, refresh)
let refreshing = null; // the one refresh in flight, or null
const endedListeners = new Set();

/** Calls `listener` when the session ends under the user (a refresh was refused). */
export function onSessionEnded(listener) {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

function sessionEnded() {
  for (const listener of endedListeners) listener();
  return new APIError(401, "session_ended", sessionEndedMessage);
}

function withRefreshLock(task) {
  return navigator.locks ? navigator.locks.request("storyvoice-session-refresh", task) : task();
}

/**
 * Refreshes the session; resolves true when new cookies were set, false when the server refused
 * (the session is over). Concurrent callers share the refresh that is already in flight.
 * A network failure rejects: it says nothing about the session.
 */
export function refreshSession() {
  if (!refreshing) {
    refreshing = withRefreshLock(() => fetch("/auth/refresh?cookie=1", { method: "POST", credentials: "same-origin" }))
      .then((response) => {
        if (response.ok) epoch += 1;
        else if (response.status >= 500) throw new APIError(response.status, "error", `The server answered ${response.status}.`);
        return response.ok;
      })
      .finally(() => { refreshing = null; });
  }
  return refreshing;
}

async function errorFrom(response) {
  const body = await response.json().catch(() => null);
  if (body?.error) return new APIError(response.status, body.error.code, body.error.message);
  return Object.assign(new APIError(response.status, "error", `The server answered ${response.status}.`), { generic: true });
}

/**
 * Sends a request and answers the Response once it is not a 401: on a 401 the session is
 * refreshed (unless another request already refreshed it meanwhile) and the request sent again.
 * Options: method, json (a value sent as JSON), body (FormData, URLSearchParams…), signal
 * (an AbortSignal), auth: false for the sign-in routes (their 401 is an answer, not an expiry),
 * headers (more request headers, e.g. If-Match).
 * Non-2xx answers other than 401 are returned as they are; see `api` and `apiBlob`.
 */
export async function request(path, { method = "GET", json, body, signal, auth = true, headers = {} } = {}) {
  const init = { method, credentials: "same-origin", headers: { ...headers }, signal };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body; // FormData can be sent twice; the browser sets its boundary
  }
  const sentAt = epoch;
  let response = await fetch(path, init);
  if (response.status !== 401 || !auth) return response;
  // Refresh only if nobody did since this request left: a 401 for a request sent with the old
  // cookie just needs sending again.
  if (epoch === sentAt && !await refreshSession()) throw sessionEnded();
  signal?.throwIfAborted();
  response = await fetch(path, init);
  if (response.status === 401) throw sessionEnded();
  return response;
}

/** A JSON request; resolves with the parsed body (null for 204), rejects with an APIError. */
export async function api(path, options = {}) {
  const response = await request(path, options);
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return null;
  return response.json().catch(() => null);
}

/** A JSON request whose version matters too: resolves with { value, etag } (the ETag an edit
 * names in If-Match), rejects with an APIError. */
export async function apiTagged(path, options = {}) {
  const response = await request(path, options);
  if (!response.ok) throw await errorFrom(response);
  return { value: await response.json().catch(() => null), etag: response.headers.get("ETag") };
}

/** A request for a binary body (audio, a download); resolves with a Blob. */
export async function apiBlob(path, options = {}) {
  const response = await request(path, options);
  if (!response.ok) throw await errorFrom(response);
  return response.blob();
}

/** Multipart upload (the browser sets the boundary). */
export function upload(path, formData, options = {}) {
  return api(path, { ...options, method: "POST", body: formData });
}

export async function login(email, password) {
  const reply = await api("/auth/login?cookie=1", { method: "POST", body: new URLSearchParams({ username: email, password }), auth: false });
  epoch += 1;
  return reply;
}

export async function register(email, password) {
  const reply = await api("/auth/register?cookie=1", { method: "POST", json: { email, password }, auth: false });
  epoch += 1;
  return reply;
}

export async function logout() {
  return api("/auth/logout", { method: "POST", auth: false });
}

/**
 * Follows a job's server-sent events until it finishes; `onProgress` gets each snapshot.
 * Resolves with the final snapshot. EventSource reconnects by itself when a stream drops; when
 * the server refuses the stream (a 401 once the access cookie has expired) it closes, and this
 * refreshes the session (the same single-flight refresh) and opens a new stream. `signal` stops
 * following (the promise rejects with the abort reason) and closes the stream.
 */
export function followJob(id, onProgress, { signal } = {}) {
  return new Promise((resolve, reject) => {
    let source = null;
    let failures = 0; // closed streams in a row without an event in between
    const finish = (settle, value) => {
      source?.close();
      signal?.removeEventListener("abort", aborted);
      settle(value);
    };
    const aborted = () => finish(reject, signal.reason);
    if (signal?.aborted) return aborted();
    signal?.addEventListener("abort", aborted, { once: true });

    const open = () => {
      const openedAt = epoch;
      source = new EventSource(`/api/jobs/${id}/events`);
      source.addEventListener("progress", (event) => {
        failures = 0;
        onProgress(JSON.parse(event.data));
      });
      source.addEventListener("finished", (event) => {
        const job = JSON.parse(event.data);
        onProgress(job);
        finish(resolve, job);
      });
      source.onerror = async () => {
        if (source.readyState !== EventSource.CLOSED || signal?.aborted) return;
        failures += 1;
        if (failures > 3) return finish(resolve, { status: "failed", error: "Lost touch with the server; reload the page to see how the job went." });
        try {
          if (epoch === openedAt && !await refreshSession()) {
            sessionEnded();
            return finish(resolve, { status: "failed", error: sessionEndedMessage });
          }
        } catch {
          // The refresh could not reach the server; try the stream again all the same.
        }
        if (!signal?.aborted) open();
      };
    };
    open();
  });
}

/**
 * POSTs and reads the answer's server-sent events as they arrive (EventSource cannot POST):
 * `onEvent(name, data)` for each, data parsed from JSON. Resolves when the stream ends; rejects
 * with an APIError when the server refuses the request. `signal` stops reading and hangs up,
 * which stops the work on the server.
 */
export async function postEvents(path, { json, body, signal } = {}, onEvent) {
  const response = await request(path, { method: "POST", json, body, signal, headers: { Accept: "text/event-stream" } });
  if (!response.ok) throw await errorFrom(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    let end;
    while ((end = pending.indexOf("\n\n")) >= 0) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const name = block.match(/^event: (.*)$/m)?.[1];
      const data = block.match(/^data: (.*)$/m)?.[1];
      if (name && data) onEvent(name, JSON.parse(data));
    }
  }
}

/** True for the rejection of a request or job follow that was deliberately stopped. */
export function isAbort(error) {
  return error?.name === "AbortError";
}
