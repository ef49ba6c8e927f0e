// The Calls screens' requests (the mobile API the iPhone app uses, plus the browser call).
// Refusals keep what the server's body says beyond its code and message: a 402's
// `detail.upgrade_options` (the plans that would allow the call).
import { APIError, request } from "../shared/api.js";
import { sessionCache } from "../shared/session.js";

const cache = sessionCache();

/** A JSON request through the shared helper (session refresh included); null for a 204. */
export async function send(path, { method = "GET", json, signal } = {}) {
  const response = await request(path, { method, json, signal });
  if (response.status === 204) return null;
  const body = await response.json().catch(() => null);
  if (response.ok) return body;
  const detail = body?.detail;
  const message = body?.error?.message ?? (typeof detail === "string" ? detail : detail?.message) ?? `The server answered ${response.status}.`;
  const error = new APIError(response.status, body?.error?.code ?? detail?.error ?? "error", message);
  error.upgradeOptions = Array.isArray(detail?.upgrade_options) ? detail.upgrade_options : [];
  throw error;
}

export const usageStats = (signal) => send("/mobile/usage-stats", { signal });

/** Whether a call may be made now: {can_make_call, status, details: {message, upgrade_options?, …}}. */
export const checkPermission = (signal) => send("/mobile/check-call-permission", { method: "POST", signal });

/** The plans (the same for everyone: asked for once a session). */
export function pricing(signal) {
  if (!cache.has("pricing")) {
    const pending = send("/mobile/pricing", { signal });
    cache.set("pricing", pending);
    pending.catch(() => cache.delete("pricing"));
  }
  return cache.get("pricing");
}

export const scenarios = (signal) => send("/mobile/scenarios", { signal }).then((reply) => reply.scenarios);

/** The voices matching the filters ({gender, accent, personality}; empty values are "any"). */
export function voices(filters, signal) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  const text = query.toString();
  return send(`/mobile/voices${text ? `?${text}` : ""}`, { signal }).then((reply) => reply.voices);
}

export const saveScenario = (id, draft, signal) => id
  ? send(`/mobile/scenarios/${encodeURIComponent(id)}`, { method: "PUT", json: draft, signal })
  : send("/mobile/scenarios", { method: "POST", json: draft, signal });

export const deleteScenario = (id, signal) => send(`/mobile/scenarios/${encodeURIComponent(id)}`, { method: "DELETE", signal });

export const makeCall = (phoneNumber, scenario, signal) =>
  send("/mobile/make-call", { method: "POST", json: { phone_number: phoneNumber, scenario }, signal });

export const scheduleCall = (phoneNumber, scenario, scheduledTime, signal) =>
  send("/mobile/schedule-call", { method: "POST", json: { phone_number: phoneNumber, scenario, scheduled_time: scheduledTime }, signal });

export const scheduledCalls = (signal) => send("/mobile/scheduled-calls", { signal }).then((reply) => reply.scheduled_calls);

export const cancelScheduledCall = (id, signal) => send(`/mobile/scheduled-calls/${encodeURIComponent(id)}`, { method: "DELETE", signal });

export const callHistory = (signal) => send("/mobile/call-history?limit=20", { signal });

/** A ticket for an in-browser call: {call_id, token, media_stream_path, duration_limit, scenario}. */
export const startBrowserCall = (scenario, signal) => send("/api/calls/browser", { method: "POST", json: { scenario }, signal });
