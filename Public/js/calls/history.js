// The calls made (date, scenario, number or "In the browser", status, duration) and the calls
// scheduled (with Cancel while still pending).
import { isAbort } from "../shared/api.js";
import { el, markup, confirmDialog } from "../shared/dom.js";
import { seconds, statusName, when } from "./common.js";
import { callHistory, cancelScheduledCall, scheduledCalls } from "./api.js";

const html = `
<section id="calls-log" aria-labelledby="calls-history-title">
  <h3 id="calls-history-title">Your calls</h3>
  <p id="calls-history-status" role="status" aria-live="polite"></p>
  <div class="calls-table-wrap">
    <table id="calls-history" class="calls-table">
      <caption class="visually-hidden">Calls made, newest first</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Scenario</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Length</th></tr></thead>
      <tbody></tbody>
    </table>
  </div>
  <p id="calls-history-empty" class="hint" hidden>No calls yet.</p>
  <h3 id="calls-scheduled-title" tabindex="-1">Scheduled calls</h3>
  <p id="calls-scheduled-status" role="status" aria-live="polite"></p>
  <ul id="calls-scheduled" class="calls-scheduled" aria-labelledby="calls-scheduled-title"></ul>
  <p id="calls-scheduled-empty" class="hint" hidden>Nothing scheduled: use “Schedule…” under Call a phone.</p>
</section>`;

/** `scenarioName(id)` names a scenario (its id when unknown, e.g. a deleted custom one). */
export function callLog({ signal, scenarioName }) {
  const element = markup(html).firstElementChild;
  const q = (selector) => element.querySelector(selector);

  const say = (selector, text, error = false) => {
    q(selector).textContent = text;
    q(selector).classList.toggle("error", error);
  };

  async function refresh() {
    await Promise.all([history(), schedules()]);
  }

  async function history() {
    try {
      const reply = await callHistory(signal);
      const rows = reply.call_history ?? [];
      q("#calls-history tbody").replaceChildren(...rows.map((call) => {
        const browser = call.phone_number === "browser";
        return el("tr", { dataset: { id: String(call.id), kind: browser ? "browser" : "phone", status: call.status } },
          el("td", {}, when(call.created_at)),
          el("td", {}, scenarioName(call.scenario)),
          el("td", {}, browser ? "In the browser" : call.phone_number),
          el("td", {}, statusName(call.status)),
          el("td", {}, Number.isFinite(call.duration_seconds) ? seconds(call.duration_seconds) : "—"));
      }));
      q("#calls-history").hidden = rows.length === 0;
      q("#calls-history-empty").hidden = rows.length > 0;
      say("#calls-history-status", reply.total_calls > rows.length ? `The latest ${rows.length} of ${reply.total_calls} calls.` : "");
    } catch (error) {
      if (!isAbort(error)) say("#calls-history-status", `Your calls could not be listed: ${error.message}`, true);
    }
  }

  async function schedules() {
    try {
      const list = await scheduledCalls(signal);
      q("#calls-scheduled").replaceChildren(...list.map((call) => el("li", { className: "card calls-scheduled-call", dataset: { id: String(call.schedule_id), status: call.status } },
        el("div", {},
          el("strong", {}, scenarioName(call.scenario)), ` → ${call.phone_number}`,
          el("p", { className: "hint" }, `${when(call.scheduled_time)} · ${statusName(call.status)}${call.message ? ` · ${call.message}` : ""}`)),
        call.status === "scheduled" ? el("button", { type: "button", className: "danger small", "aria-label": `Cancel the call to ${call.phone_number} on ${when(call.scheduled_time)}`,
          onclick: () => cancel(call) }, "Cancel") : null)));
      q("#calls-scheduled-empty").hidden = list.length > 0;
    } catch (error) {
      if (!isAbort(error)) say("#calls-scheduled-status", `Your scheduled calls could not be listed: ${error.message}`, true);
    }
  }

  async function cancel(call) {
    if (!await confirmDialog(`Cancel the call to ${call.phone_number} on ${when(call.scheduled_time)}?`, "Yes, cancel it")) return;
    try {
      await cancelScheduledCall(call.schedule_id, signal);
      say("#calls-scheduled-status", "The call was cancelled.");
      await schedules();
      q("#calls-scheduled-title").focus();
    } catch (error) {
      if (!isAbort(error)) say("#calls-scheduled-status", `Not cancelled: ${error.message}`, true);
    }
  }

  return { element, refresh };
}
