// "Call a phone": an E.164 number, the chosen scenario, Call now or Schedule (a date and time).
// Refusals are shown in the server's words: a bad number, a 402 with the plans that would allow
// the call, a 503 when this server has no Twilio account (with the in-browser call offered).
import { isAbort } from "../shared/api.js";
import { el, markup } from "../shared/dom.js";
import { upgradeList, upgradeWhere, when } from "./common.js";
import { makeCall, scheduleCall } from "./api.js";

const html = `
<section id="calls-phone" class="card" aria-labelledby="calls-phone-title">
  <h3 id="calls-phone-title">Call a phone</h3>
  <p class="hint">The AI voice calls the number and plays <strong class="calls-chosen-name">the scenario</strong>.</p>
  <form id="calls-phone-form" novalidate>
    <label class="block" for="calls-phone-number">Phone number
      <input id="calls-phone-number" name="phone" type="tel" inputmode="tel" autocomplete="tel" required maxlength="20"
        placeholder="+14155550100" aria-describedby="calls-phone-hint">
    </label>
    <p id="calls-phone-hint" class="hint">With + and the country code, no spaces needed: +44 20 7946 0018 or +14155550100.</p>
    <div class="actions">
      <button type="submit" id="calls-phone-call">📞 Call now</button>
      <button type="button" id="calls-phone-schedule-toggle" class="secondary" aria-expanded="false" aria-controls="calls-phone-schedule">Schedule…</button>
    </div>
    <div id="calls-phone-schedule" class="calls-schedule" hidden>
      <label for="calls-schedule-time">When
        <input id="calls-schedule-time" name="when" type="datetime-local">
      </label>
      <button type="button" id="calls-phone-schedule-save">Schedule the call</button>
    </div>
    <div id="calls-phone-status" role="status" aria-live="polite"></div>
  </form>
</section>`;

/** `scenario()` is the chosen scenario; `onOfferBrowser()` moves to the in-browser call;
 *  `onChanged()` after a call or a schedule (plan, history and schedules change). */
export function phoneCall({ signal, scenario, onOfferBrowser, onChanged }) {
  const element = markup(html).firstElementChild;
  const q = (selector) => element.querySelector(selector);
  const form = q("#calls-phone-form");
  const status = q("#calls-phone-status");

  function say(...parts) {
    status.replaceChildren(...parts.filter(Boolean));
  }

  function refusal(error) {
    element.dataset.outcome = error.code;
    const words = el("p", { className: "error", id: "calls-phone-error" }, error.message);
    if (error.status === 402) {
      return say(words, upgradeList(error.upgradeOptions), el("p", { className: "hint" }, upgradeWhere));
    }
    if (error.status === 503 || error.code === "telephony_not_configured") {
      // No Twilio here: the same scenario can still be tried with the microphone.
      return say(words, el("p", {}, el("button", { type: "button", id: "calls-offer-browser", onclick: onOfferBrowser },
        "🎧 Try it in the browser instead")));
    }
    if (error.code === "invalid_phone_number") {
      form.phone.setAttribute("aria-invalid", "true");
      form.phone.focus();
    }
    say(words);
  }

  function number() {
    form.phone.removeAttribute("aria-invalid");
    const value = form.phone.value.replaceAll(/[\s().-]/g, "");
    if (!value) {
      form.phone.setAttribute("aria-invalid", "true");
      form.phone.focus();
      say(el("p", { className: "error", id: "calls-phone-error" }, "Write the number to call, with + and the country code."));
      return null;
    }
    return value;
  }

  async function busy(button, text, task) {
    const label = button.textContent;
    button.disabled = true;
    button.textContent = text;
    try {
      await task();
    } catch (error) {
      if (!isAbort(error)) refusal(error);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const phone = number();
    const chosen = scenario();
    if (!phone || !chosen) return;
    say(el("p", {}, "Placing the call…"));
    busy(q("#calls-phone-call"), "Calling…", async () => {
      const placed = await makeCall(phone, chosen.id, signal);
      element.dataset.outcome = placed.status;
      say(el("p", { className: "calls-ok" }, `Calling ${phone} as ${chosen.name}: the call is ${placed.status}. It lasts at most ${placed.duration_limit} s.`));
      onChanged();
    });
  }, { signal });

  const toggle = q("#calls-phone-schedule-toggle");
  toggle.addEventListener("click", () => {
    const box = q("#calls-phone-schedule");
    box.hidden = !box.hidden;
    toggle.setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) {
      // Five minutes from now, in the browser's time zone, by default.
      const soon = new Date(Date.now() + 5 * 60_000);
      soon.setSeconds(0, 0);
      form.when.min = local(new Date());
      form.when.value ||= local(soon);
      form.when.focus();
    }
  }, { signal });

  q("#calls-phone-schedule-save").addEventListener("click", () => {
    const phone = number();
    const chosen = scenario();
    if (!phone || !chosen) return;
    const at = form.when.value ? new Date(form.when.value) : null;
    if (form.when.value && Number.isNaN(at.getTime())) {
      say(el("p", { className: "error" }, "Choose a date and time for the call."));
      return;
    }
    busy(q("#calls-phone-schedule-save"), "Scheduling…", async () => {
      // The server wants ISO 8601 in UTC, without fractions of a second.
      const scheduled = await scheduleCall(phone, chosen.id, at ? at.toISOString().replace(/\.\d{3}Z$/, "Z") : undefined, signal);
      element.dataset.outcome = "scheduled";
      say(el("p", { className: "calls-ok" }, `Scheduled: ${chosen.name} calls ${scheduled.phone_number} on ${when(scheduled.scheduled_time)}.`));
      onChanged();
    });
  }, { signal });

  /** Shows the chosen scenario's name in the section. */
  function show(chosen) {
    q(".calls-chosen-name").textContent = chosen ? `${chosen.icon ?? ""} ${chosen.name}`.trim() : "the scenario";
  }

  return { element, show };
}

/** "2026-11-27T08:05" for a datetime-local input. */
function local(date) {
  const two = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}
