// #/journeys — plan a trip (start, destination, travel mode), see its route, length and parts,
// choose how the story is told (style, voice, model) and start it; below, the journeys told so
// far, each opening the player, with Delete.
import { api, isAbort } from "../shared/api.js";
import { $, el, markup, confirmDialog } from "../shared/dom.js";
import { href } from "../shared/router.js";
import { autoplayKey, send, statusName, styles, voices, when } from "./common.js";
import { modelOptions } from "../shared/models.js";
import { formatDistance, formatTrip, modeName, modes, partsText, routeDrawing, tripName } from "./route.js";

const remembered = "storyvoice:journey-choices";
const descriptionLimit = 300;

const html = `
<section id="journeys" aria-labelledby="journeys-title">
  <h2 id="journeys-title">Journeys</h2>
  <p class="hint">A story exactly as long as your trip: say where you are going, and StoryVoice tells a story of one-minute parts, written and voiced while you listen.</p>
  <form id="journey-form" novalidate>
    <div class="journey-places">
      <div class="journey-field" id="journey-start-field">
        <label for="journey-start">Start</label>
        <div class="journey-place-row">
          <input id="journey-start" name="start" type="text" autocomplete="off" required maxlength="300"
            placeholder="A place, an address, or 51.752,-1.258" aria-describedby="journey-start-error journey-locate-status">
          <button type="button" id="journey-locate" class="secondary">Use my location</button>
        </div>
        <p id="journey-locate-status" class="hint" role="status" aria-live="polite"></p>
        <p id="journey-start-error" class="error field-error" aria-live="polite"></p>
      </div>
      <div class="journey-field" id="journey-end-field">
        <label for="journey-end">Destination</label>
        <input id="journey-end" name="end" type="text" autocomplete="off" required maxlength="300"
          placeholder="A place, an address, or lat,lon" aria-describedby="journey-end-error">
        <p id="journey-end-error" class="error field-error" aria-live="polite"></p>
      </div>
    </div>
    <fieldset id="journey-mode" aria-describedby="journey-mode-error">
      <legend>Travelling by</legend>
      <div class="journey-modes"></div>
      <p id="journey-mode-error" class="error field-error" aria-live="polite"></p>
    </fieldset>
    <div class="actions">
      <button type="submit" id="journey-plan-start">Plan</button>
    </div>
    <p id="journey-form-status" role="status" aria-live="polite"></p>

    <section id="journey-plan" aria-labelledby="journey-plan-title" hidden>
      <h3 id="journey-plan-title">Your trip</h3>
      <div id="journey-places" class="journey-places"></div>
      <div id="journey-route"></div>
      <dl class="journey-facts">
        <div><dt>Distance</dt><dd id="journey-distance"></dd></div>
        <div><dt>Time</dt><dd id="journey-duration"></dd></div>
        <div><dt>Story</dt><dd id="journey-parts"></dd></div>
      </dl>
      <p id="journey-source" class="hint"></p>
      <p id="journey-attribution" class="hint attribution"></p>
      <p id="journey-stale" class="hint" hidden>You changed the trip since it was planned: press Plan again.</p>

      <fieldset class="journey-telling">
        <legend>How it is told</legend>
        <div class="journey-field">
          <label for="journey-style">Style</label>
          <select id="journey-style" name="style" aria-describedby="journey-style-about journey-style-error"></select>
          <p id="journey-style-about" class="hint"></p>
          <div id="journey-custom" hidden>
            <label for="journey-style-description">Your style</label>
            <textarea id="journey-style-description" name="style_description" rows="3" maxlength="${descriptionLimit}"
              placeholder="A gentle ghost story told by an old lighthouse keeper" aria-describedby="journey-description-count journey-style-error"></textarea>
            <p id="journey-description-count" class="hint" aria-live="polite"></p>
          </div>
          <p id="journey-style-error" class="error field-error" aria-live="polite"></p>
        </div>
        <div class="journey-field">
          <label for="journey-voice">Voice</label>
          <select id="journey-voice" name="voice" aria-describedby="journey-voice-error"><option value="">The best installed voice</option></select>
          <p id="journey-voice-error" class="error field-error" aria-live="polite"></p>
        </div>
        <div class="journey-field">
          <label for="journey-model">Model</label>
          <select id="journey-model" name="model" aria-describedby="journey-model-error"></select>
          <p id="journey-model-error" class="error field-error" aria-live="polite"></p>
        </div>
      </fieldset>
      <div class="actions">
        <button type="button" id="journey-tell">Tell me a story</button>
      </div>
      <p id="journey-tell-status" role="status" aria-live="polite"></p>
    </section>
  </form>

  <section id="journey-history-section" aria-labelledby="journey-history-title">
    <h3 id="journey-history-title" tabindex="-1">Your journeys</h3>
    <p id="journey-history-status" role="status" aria-live="polite"></p>
    <ul id="journey-history" class="cards" aria-label="Your journeys"></ul>
    <p id="journey-history-empty" class="hint" hidden>No journeys yet: plan one above.</p>
  </section>
</section>`;

/** Which input an error concerns: the server's `field`, else what its code is about. */
function fieldOf(error) {
  if (error.field && ["start", "end", "mode", "style", "voice", "model"].includes(error.field)) return error.field;
  switch (error.code) {
    case "same_place": return "end";
    case "too_long": case "no_route": case "no_road": return "mode";
    case "invalid_style": return "style";
    case "invalid_voice": return "voice";
    case "invalid_model": case "missing_key": return "model";
    default: return null;
  }
}

export default function plannerScreen() {
  return {
    async mount(container, _params, context) {
      const { signal } = context;
      const q = (selector) => $(selector, container);
      container.replaceChildren(markup(html));
      context.setTitle("Journeys");
      const form = q("#journey-form");
      let plan = null; // the plan shown
      let plannedFor = null; // the start, end and mode it was planned for
      let historyTimer = null;
      signal.addEventListener("abort", () => clearTimeout(historyTimer), { once: true });

      // Travel modes: radio buttons (three choices, all in view).
      q(".journey-modes").append(...modes.map((mode, at) => el("label", { className: "journey-mode" },
        el("input", { type: "radio", name: "mode", value: mode.id, checked: at === 0 }), mode.name)));
      q("#journey-model").append(...modelOptions());

      // --- What went wrong, where it went wrong --------------------------------------------
      const errorLine = { start: "#journey-start-error", end: "#journey-end-error", mode: "#journey-mode-error",
        style: "#journey-style-error", voice: "#journey-voice-error", model: "#journey-model-error" };
      const inputOf = { start: () => form.start, end: () => form.end, mode: () => q("#journey-mode"),
        style: () => form.style, voice: () => form.voice, model: () => form.model };
      function clearErrors() {
        for (const [field, selector] of Object.entries(errorLine)) {
          q(selector).replaceChildren();
          inputOf[field]().removeAttribute("aria-invalid");
        }
        say("#journey-form-status", "");
        say("#journey-tell-status", "");
      }
      function say(selector, text, { error = false } = {}) {
        q(selector).replaceChildren(...(Array.isArray(text) ? text : [text]));
        q(selector).classList.toggle("error", error);
      }
      /** Shows a refusal at its field (the general line when it concerns none); true if at a field. */
      function showError(error, generalLine) {
        const field = fieldOf(error);
        const words = error.code === "missing_key"
          ? [error.message, " ", el("a", { href: href("/account") }, "Open Settings")]
          : [error.message];
        if (!field || (field !== "start" && field !== "end" && field !== "mode" && q("#journey-plan").hidden)) {
          say(generalLine, words, { error: true });
          return;
        }
        q(errorLine[field]).replaceChildren(...words);
        const input = inputOf[field]();
        input.setAttribute("aria-invalid", "true");
        (field === "mode" ? form.querySelector("input[name=mode]:checked") : input)?.focus();
      }

      // --- Remembered choices (mode, style, voice, model; never places) --------------------
      let saved = {};
      try {
        saved = JSON.parse(localStorage.getItem(remembered) ?? "{}") ?? {};
      } catch {
        saved = {};
      }
      const choose = (select, value) => {
        if (value !== undefined && [...select.options].some((option) => option.value === value)) select.value = value;
      };
      if (saved.mode) {
        const radio = form.querySelector(`input[name=mode][value="${CSS.escape(saved.mode)}"]`);
        if (radio) radio.checked = true;
      }
      choose(form.model, saved.model);
      function remember() {
        localStorage.setItem(remembered, JSON.stringify({ mode: mode(), style: form.style.value, voice: form.voice.value,
          model: form.model.value, style_description: form.style_description.value }));
      }
      const mode = () => form.querySelector("input[name=mode]:checked")?.value ?? "walking";

      // --- Styles and voices -----------------------------------------------------------------
      let styleList = [];
      const describeStyle = () => {
        const style = styleList.find((entry) => entry.id === form.style.value);
        q("#journey-style-about").textContent = style?.description ?? "";
        const custom = form.style.value === "custom";
        q("#journey-custom").hidden = !custom;
        form.style_description.required = custom;
        countDescription();
      };
      const countDescription = () => {
        const used = form.style_description.value.length;
        q("#journey-description-count").textContent = `${used} of ${descriptionLimit} characters`;
      };
      form.style.addEventListener("change", () => { describeStyle(); remember(); }, { signal });
      form.style_description.addEventListener("input", countDescription, { signal });
      form.style_description.value = saved.style_description ?? "";
      const stylesReady = styles(signal).then((list) => {
        styleList = list;
        form.style.replaceChildren(...list.map((style) => el("option", { value: style.id }, style.name)));
        choose(form.style, saved.style);
        describeStyle();
      }).catch((error) => {
        if (isAbort(error)) return;
        form.style.replaceChildren(el("option", { value: "" }, "The usual style"));
        q("#journey-style-error").textContent = `The styles could not be listed: ${error.message}`;
      });
      const voicesReady = voices(signal).then((list) => {
        // Grouped by engine, the best of each first.
        const engines = new Map();
        for (const voice of [...list].sort((a, b) => (b.quality ?? 0) - (a.quality ?? 0) || a.name.localeCompare(b.name))) {
          if (!engines.has(voice.engine)) engines.set(voice.engine, []);
          engines.get(voice.engine).push(voice);
        }
        const best = (group) => Math.max(...group.map((voice) => voice.quality ?? 0));
        const groups = [...engines.entries()].sort(([, a], [, b]) => best(b) - best(a));
        form.voice.append(...groups.map(([engine, group]) => el("optgroup", { label: engine }, ...group.map((voice) =>
          el("option", { value: voice.id }, [voice.name, voice.gender !== "unknown" ? voice.gender : null, voice.accent,
            voice.cost_per_1000_characters > 0 ? "paid, your key" : null].filter(Boolean).join(" · "))))));
        choose(form.voice, saved.voice);
      }).catch((error) => {
        if (!isAbort(error)) q("#journey-voice-error").textContent = `The voices could not be listed: ${error.message}`;
      });
      for (const select of [form.voice, form.model]) select.addEventListener("change", remember, { signal });

      // --- Use my location -------------------------------------------------------------------
      q("#journey-locate").addEventListener("click", () => {
        const status = q("#journey-locate-status");
        status.classList.remove("error");
        if (!navigator.geolocation) {
          status.textContent = "This browser cannot tell where you are: type the start instead.";
          status.classList.add("error");
          return;
        }
        q("#journey-locate").disabled = true;
        status.textContent = "Finding where you are…";
        navigator.geolocation.getCurrentPosition((position) => {
          if (signal.aborted) return;
          q("#journey-locate").disabled = false;
          const { latitude, longitude, accuracy } = position.coords;
          form.start.value = `${latitude.toFixed(5)},${longitude.toFixed(5)}`;
          form.start.dispatchEvent(new Event("input", { bubbles: true }));
          status.textContent = `Start set to where you are (within about ${formatDistance(accuracy)}).`;
        }, (failure) => {
          if (signal.aborted) return;
          q("#journey-locate").disabled = false;
          status.classList.add("error");
          status.textContent = failure.code === failure.PERMISSION_DENIED
            ? (window.isSecureContext
              ? "Your location is blocked for this site: allow it in the browser's site settings, or type the start."
              : "The browser gives your location only to a secure (https) page: type the start instead.")
            : failure.code === failure.TIMEOUT
              ? "Finding your location took too long: try again, or type the start."
              : "Your location is not available right now: type the start instead.";
        }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
      }, { signal });

      // --- Plan ------------------------------------------------------------------------------
      const trip = () => ({ start: form.start.value.trim(), end: form.end.value.trim(), mode: mode() });
      const sameTrip = (a, b) => a && b && a.start === b.start && a.end === b.end && a.mode === b.mode;
      function markStale() {
        if (!plan) return;
        const stale = !sameTrip(trip(), plannedFor);
        q("#journey-stale").hidden = !stale;
        q("#journey-tell").disabled = stale;
        q("#journey-plan").classList.toggle("stale", stale);
      }
      // A field changed: its error goes (the user is dealing with it); a changed trip needs planning again.
      const fieldNamed = { start: "start", end: "end", mode: "mode", style: "style", style_description: "style", voice: "voice", model: "model" };
      form.addEventListener("input", (event) => {
        const field = fieldNamed[event.target.name];
        if (!field) return;
        q(errorLine[field]).replaceChildren();
        inputOf[field]().removeAttribute("aria-invalid");
        event.target.removeAttribute("aria-invalid");
        if (field === "start" || field === "end" || field === "mode") markStale();
      }, { signal });
      form.addEventListener("change", (event) => { if (event.target.name === "mode") { remember(); markStale(); } }, { signal });

      // The story's choices as POST /api/journeys takes them.
      function storyChoices() {
        const custom = form.style.value === "custom";
        return { ...trip(),
          style: form.style.value || undefined,
          style_description: custom ? form.style_description.value.trim() : undefined,
          voice: form.voice.value || undefined,
          model: form.model.value || undefined };
      }
      // While the plan is on screen, the model on this machine writes the opening of the story
      // these choices would start (POST /api/journeys/prepare), so that "Tell me a story" is
      // heard at once. A guess: its refusals are shown when the story is started, not here.
      let prepareTimer = null;
      signal.addEventListener("abort", () => clearTimeout(prepareTimer), { once: true });
      function prepareStory({ delay = 800 } = {}) {
        clearTimeout(prepareTimer);
        prepareTimer = setTimeout(() => {
          const choices = storyChoices();
          if (!plan || !sameTrip(trip(), plannedFor) || (choices.style === "custom" && !choices.style_description)) return;
          send("/api/journeys/prepare", { json: choices, signal }).catch(() => {});
        }, delay);
      }
      form.addEventListener("change", (event) => {
        if (["style", "voice", "model"].includes(event.target.name)) prepareStory();
      }, { signal });
      form.style_description.addEventListener("input", () => prepareStory({ delay: 1500 }), { signal });

      function showPlan(reply) {
        plan = reply;
        const drawing = routeDrawing(reply, { label: "The route" });
        q("#journey-route").replaceChildren(drawing.element);
        q("#journey-distance").textContent = formatDistance(reply.distance_m);
        q("#journey-duration").textContent = `${formatTrip(reply.duration_s)} ${modeName(reply.mode).toLowerCase()}`;
        q("#journey-parts").textContent = `${partsText(reply.parts)} of about a minute (${reply.words_per_part} words each)`;
        q("#journey-parts").dataset.parts = String(reply.parts);
        q("#journey-source").textContent = reply.source === "estimate"
          ? "Estimated from the straight-line distance (no router is set up): the real route may differ."
          : "";
        q("#journey-attribution").textContent = reply.attribution ?? "";
        showPlaces(reply);
        q("#journey-plan").hidden = false;
        markStale();
      }

      /** The places the plan used, in full, and the others each name may mean, one press from a
          new plan with that one. */
      function showPlaces(reply) {
        const line = (field, heading) => {
          const place = reply[field];
          const others = place.alternatives ?? [];
          return el("div", { className: "journey-place", dataset: { field } },
            el("p", {}, el("span", { className: "journey-place-heading" }, heading), " ",
              el("strong", { className: "journey-place-label" }, place.label ?? place.name)),
            others.length ? el("p", { className: "journey-alternatives" }, `Another ${place.name}? `,
              ...others.map((other) => el("button", { type: "button", className: "secondary small", onclick: () => {
                form[field].value = other;
                form.requestSubmit();
              } }, other))) : "");
        };
        q("#journey-places").replaceChildren(line("start", "From"), line("end", "To"));
      }

      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        clearErrors();
        const wanted = trip();
        let missing = false;
        for (const field of ["start", "end"]) {
          if (!wanted[field]) {
            q(errorLine[field]).textContent = field === "start" ? "Say where you start." : "Say where you are going.";
            inputOf[field]().setAttribute("aria-invalid", "true");
            if (!missing) inputOf[field]().focus();
            missing = true;
          }
        }
        if (missing) return;
        const button = q("#journey-plan-start");
        button.disabled = true;
        say("#journey-form-status", "Planning the route…");
        try {
          const reply = await send("/api/journeys/plan", { json: wanted, signal });
          plannedFor = wanted;
          say("#journey-form-status", "");
          showPlan(reply);
          prepareStory({ delay: 0 });
          q("#journey-plan-title").scrollIntoView({ block: "nearest" });
        } catch (error) {
          if (isAbort(error)) return;
          say("#journey-form-status", "");
          showError(error, "#journey-form-status");
        } finally {
          if (!signal.aborted) button.disabled = false;
        }
      }, { signal });

      // --- Tell me a story -------------------------------------------------------------------
      q("#journey-tell").addEventListener("click", async () => {
        clearErrors();
        const wanted = trip();
        if (!plan || !sameTrip(wanted, plannedFor)) return markStale();
        const custom = form.style.value === "custom";
        const description = form.style_description.value.trim();
        if (custom && !description) {
          q("#journey-style-error").textContent = "Describe the style you want (up to 300 characters).";
          form.style_description.setAttribute("aria-invalid", "true");
          form.style_description.focus();
          return;
        }
        remember();
        const button = q("#journey-tell");
        button.disabled = true;
        say("#journey-tell-status", "Starting the story…");
        try {
          clearTimeout(prepareTimer);
          const journey = await send("/api/journeys", { signal, json: storyChoices() });
          sessionStorage.setItem(autoplayKey, journey.id);
          location.hash = href(`/journeys/${journey.id}`);
        } catch (error) {
          if (isAbort(error)) return;
          say("#journey-tell-status", "");
          showError(error, "#journey-tell-status");
          if (!signal.aborted) button.disabled = false;
        }
      }, { signal });

      // --- History ---------------------------------------------------------------------------
      async function listJourneys() {
        clearTimeout(historyTimer);
        try {
          const { journeys } = await api("/api/journeys", { signal });
          q("#journey-history").replaceChildren(...journeys.map(card));
          q("#journey-history-empty").hidden = journeys.length > 0;
          // Stories still being told: their counts move, so look again in a while.
          if (journeys.some((journey) => journey.status === "telling") && !signal.aborted) {
            historyTimer = setTimeout(() => listJourneys(), 5000);
          }
        } catch (error) {
          if (!isAbort(error)) say("#journey-history-status", `Your journeys could not be listed: ${error.message}`, { error: true });
        }
      }

      function card(journey) {
        const name = journey.title || tripName(journey.start, journey.end);
        const remove = el("button", { type: "button", className: "danger", "aria-label": `Delete ${name}`, onclick: async () => {
          if (!await confirmDialog(`Delete “${name}”? Its story and audio go too.`)) return;
          try {
            await api(`/api/journeys/${journey.id}`, { method: "DELETE", signal });
            say("#journey-history-status", `Deleted “${name}”.`);
            await listJourneys();
            q("#journey-history-title").focus();
          } catch (error) {
            if (!isAbort(error)) say("#journey-history-status", `Not deleted: ${error.message}`, { error: true });
          }
        } }, "Delete");
        const begun = journey.playhead && (journey.playhead.part > 1 || journey.playhead.sentence > 0);
        const where = begun ? ` · heard to part ${journey.playhead.part}` : "";
        return el("li", { className: "card journey-card", dataset: { id: journey.id, status: journey.status } },
          el("h4", {}, el("a", { href: href(`/journeys/${journey.id}`), className: "title" }, name)),
          journey.title ? el("p", { className: "hint" }, tripName(journey.start, journey.end)) : null,
          el("p", { className: "hint journey-card-facts" },
            `${when(journey.created_at)} · ${modeName(journey.mode)} · `,
            el("span", { className: "journey-card-parts" }, `${journey.parts_ready} of ${partsText(journey.parts)} ready`),
            where, " · ",
            el("span", { className: `journey-status status-${journey.status}` }, statusName(journey.status))),
          el("div", { className: "actions" }, el("a", { href: href(`/journeys/${journey.id}`), className: "button" },
            begun ? "Resume" : "Listen", el("span", { className: "visually-hidden" }, ` to ${name}`)), remove));
      }

      await Promise.all([listJourneys(), stylesReady, voicesReady]);
    },
    unmount() {},
  };
}
