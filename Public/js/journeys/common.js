// Requests and lists the journey screens share: JSON requests whose refusals keep the server's
// whole error (a `field` it names, if any), the voices (cached for the session), the models.
import { APIError, api, request } from "../shared/api.js";
import { sessionCache } from "../shared/session.js";

const cache = sessionCache();

/**
 * A JSON request like `api`, but a refusal keeps what the server's error body says beyond its
 * code and message (`field`: which input it concerns, when the server names one).
 */
export async function send(path, { method = "POST", json, signal } = {}) {
  const response = await request(path, { method, json, signal });
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  if (response.ok) return body;
  const error = new APIError(response.status, body?.error?.code ?? "error", body?.error?.message ?? `The server answered ${response.status}.`);
  error.field = body?.error?.field ?? null;
  throw error;
}

/** What `path` answers (its `field`), asked for once per session; a failure is asked again. */
function once(path, field, signal) {
  if (!cache.has(path)) {
    const pending = api(path, { signal }).then((reply) => reply[field]);
    cache.set(path, pending);
    pending.catch(() => cache.delete(path));
  }
  return cache.get(path);
}

/** The voices of GET /api/voices. */
export const voices = (signal) => once("/api/voices", "voices", signal);

/** The story styles of GET /api/journeys/styles. */
export const styles = (signal) => once("/api/journeys/styles", "styles", signal);

/** "Telling", "Complete", "Failed". */
export function statusName(status) {
  return { telling: "Telling", complete: "Complete", failed: "Failed" }[status] ?? status;
}

/** "26 Nov 2026, 23:40". */
export function when(date) {
  return new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The journey the player should start playing by itself (set by "Tell me a story"). */
export const autoplayKey = "storyvoice:journey-autoplay";
