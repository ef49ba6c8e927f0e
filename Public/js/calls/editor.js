// "Create your own" and Edit: a custom scenario's name, description, icon, prompt (20–2000
// characters, counted as the server counts), voice (chosen with gender, accent and personality
// filter chips over GET /mobile/voices, each voice with its description) and temperature. The
// server checks the prompt (length, abuse) and its refusal is shown in its own words.
import { apiBlob, isAbort } from "../shared/api.js";
import { el, markup } from "../shared/dom.js";
import { voiceFilters } from "./common.js";
import { saveScenario, voices as listVoices } from "./api.js";

const MIN_PROMPT = 20;
const MAX_PROMPT = 2000;

const html = `
<section id="calls-editor" class="card calls-editor" aria-labelledby="calls-editor-title" hidden>
  <h3 id="calls-editor-title" tabindex="-1">Create your own scenario</h3>
  <form id="calls-editor-form" novalidate>
    <div class="calls-editor-row">
      <label class="block" for="calls-scenario-name">Name
        <input id="calls-scenario-name" name="name" type="text" required maxlength="60" autocomplete="off" placeholder="Pirate Captain">
      </label>
      <label class="block calls-icon-field" for="calls-scenario-icon">Icon
        <input id="calls-scenario-icon" name="icon" type="text" maxlength="8" autocomplete="off" placeholder="🏴‍☠️">
      </label>
    </div>
    <label class="block" for="calls-scenario-description"><span>Description <span class="hint">(optional)</span></span>
      <input id="calls-scenario-description" name="description" type="text" maxlength="120" autocomplete="off" placeholder="A jolly pirate with tall tales of the sea">
    </label>
    <label class="block" for="calls-scenario-prompt">Who calls, and what about
      <textarea id="calls-scenario-prompt" name="prompt" rows="5" maxlength="2000" required aria-describedby="calls-scenario-count calls-prompt-hint"
        placeholder="You are a cheerful pirate captain calling a friend to tell a tall tale of your latest voyage…"></textarea>
    </label>
    <p class="calls-counter"><span id="calls-prompt-hint" class="hint">Describe the character and the call; keep it kind.</span>
      <span id="calls-scenario-count" class="hint"></span></p>
    <fieldset class="calls-voice-picker">
      <legend>Voice</legend>
      <div id="calls-voice-filters" class="calls-chips"></div>
      <p id="calls-voices-status" class="hint" role="status" aria-live="polite"></p>
      <div id="calls-voices" class="calls-voices" role="radiogroup" aria-label="Voices"></div>
    </fieldset>
    <label for="calls-scenario-temperature">Liveliness
      <input id="calls-scenario-temperature" name="temperature" type="range" min="0.5" max="1" step="0.05" value="0.7" aria-describedby="calls-temperature-hint">
      <output id="calls-temperature-value" for="calls-scenario-temperature">0.70</output>
    </label>
    <p id="calls-temperature-hint" class="hint">Lower is steadier and more predictable; higher is livelier and more surprising.</p>
    <p id="calls-editor-error" class="error" role="alert"></p>
    <div class="actions">
      <button type="submit" id="calls-editor-save">Save scenario</button>
      <button type="button" id="calls-editor-cancel" class="secondary">Cancel</button>
    </div>
  </form>
</section>`;

/** `onSaved(scenario, created)` after a save; `onClosed()` when the editor closes without one. */
export function scenarioEditor({ signal, onSaved, onClosed }) {
  const element = markup(html).firstElementChild;
  const q = (selector) => element.querySelector(selector);
  const form = q("#calls-editor-form");
  const filters = { gender: "", accent: "", personality: "" };
  let editing = null; // the scenario being edited, or null for a new one
  let voice = "alloy";
  let allVoices = [];
  let asked = 0; // the latest voice request; an older answer arriving late is dropped

  // Filter chips: one pressed value per filter at most; pressing it again means "any".
  for (const filter of voiceFilters) {
    q("#calls-voice-filters").append(el("div", { className: "calls-chip-group", role: "group", "aria-label": filter.label },
      el("span", { className: "calls-chip-label", "aria-hidden": "true" }, filter.label),
      ...filter.values.map(([value, label]) => el("button", { type: "button", className: "calls-chip", "aria-pressed": "false",
        dataset: { filter: filter.name, value }, onclick: (event) => {
          filters[filter.name] = filters[filter.name] === value ? "" : value;
          for (const chip of q("#calls-voice-filters").querySelectorAll(`[data-filter="${filter.name}"]`)) {
            chip.setAttribute("aria-pressed", String(chip.dataset.value === filters[filter.name]));
          }
          event.currentTarget.focus();
          showVoices();
        } }, label))));
  }

  const count = () => {
    const length = form.prompt.value.trim().length;
    const counter = q("#calls-scenario-count");
    counter.textContent = `${length} / ${MAX_PROMPT} characters${length < MIN_PROMPT ? ` (at least ${MIN_PROMPT})` : ""}`;
    counter.classList.toggle("short", length < MIN_PROMPT);
    return length;
  };
  form.prompt.addEventListener("input", count, { signal });
  const showTemperature = () => { q("#calls-temperature-value").value = Number(form.temperature.value).toFixed(2); };
  form.temperature.addEventListener("input", showTemperature, { signal });

  async function showVoices() {
    const token = ++asked;
    const status = q("#calls-voices-status");
    status.textContent = "";
    let found;
    try {
      found = await listVoices(filters, signal);
    } catch (error) {
      if (!isAbort(error) && token === asked) status.textContent = `The voices could not be listed: ${error.message}`;
      return;
    }
    if (token !== asked) return;
    if (!filters.gender && !filters.accent && !filters.personality) allVoices = found;
    const box = q("#calls-voices");
    box.replaceChildren(...found.map((entry) => voiceCard(entry)));
    box.dataset.count = String(found.length);
    const chosenShown = found.some((entry) => entry.id === voice);
    const chosenName = allVoices.find((entry) => entry.id === voice)?.name ?? voice;
    status.textContent = !found.length ? "No voice matches all of these: press a filter again to drop it."
      : chosenShown ? `${found.length} matching voice${found.length === 1 ? "" : "s"}.`
        : `${found.length} matching voice${found.length === 1 ? "" : "s"}; your choice, ${chosenName}, is not among them.`;
  }

  function voiceCard(entry) {
    const radio = el("input", { type: "radio", name: "calls-voice", value: entry.id, checked: entry.id === voice });
    radio.addEventListener("change", () => { voice = entry.id; }, { signal });
    const sample = el("button", { type: "button", className: "secondary calls-sample", "aria-label": `Play a sample of ${entry.name}`,
      dataset: { voice: entry.id }, onclick: () => samples.toggle(entry.id, sample) }, "▶");
    return el("div", { className: "calls-voice", dataset: { id: entry.id } },
      el("label", {}, radio, el("span", {}, el("strong", {}, entry.name), el("span", { className: "hint" }, ` ${entry.description}`))),
      sample);
  }

  const samples = voiceSamples(signal, (text) => { q("#calls-voices-status").textContent = text; });

  function error(text, input) {
    q("#calls-editor-error").textContent = text;
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const draft = {
      name: form.name.value.trim(), description: form.description.value.trim() || undefined, icon: form.icon.value.trim() || undefined,
      prompt: form.prompt.value.trim(), voice, temperature: Number(form.temperature.value) };
    if (!draft.name) return error("Give the scenario a name.", form.name);
    const length = count();
    if (length < MIN_PROMPT || length > MAX_PROMPT) {
      return error(`The prompt is ${length} characters; it needs ${MIN_PROMPT} to ${MAX_PROMPT}: who the voice is and what the call is about.`, form.prompt);
    }
    error("");
    const save = q("#calls-editor-save");
    save.disabled = true;
    save.textContent = "Saving…";
    try {
      const saved = await saveScenario(editing?.id, draft, signal);
      const created = !editing;
      close();
      onSaved(saved, created);
    } catch (failure) {
      if (isAbort(failure)) return;
      // The server's refusal (too short, abusive…) where the prompt is, in its words.
      error(failure.message, failure.status === 400 && /prompt|scenario/i.test(failure.message) ? form.prompt : null);
    } finally {
      save.disabled = false;
      save.textContent = "Save scenario";
    }
  }, { signal });
  q("#calls-editor-cancel").addEventListener("click", () => { close(); onClosed?.(); }, { signal });
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { close(); onClosed?.(); }
  }, { signal });

  /** Opens the editor on `scenario` (one of the user's own), or empty for a new one. */
  function open(scenario) {
    editing = scenario;
    form.reset();
    form.name.value = scenario?.name ?? "";
    form.description.value = scenario?.description ?? "";
    form.icon.value = scenario?.icon ?? "";
    form.prompt.value = scenario?.prompt ?? "";
    form.temperature.value = String(scenario?.temperature ?? 0.7);
    voice = scenario?.voice ?? "alloy";
    q("#calls-editor-title").textContent = scenario ? `Edit “${scenario.name}”` : "Create your own scenario";
    error("");
    count();
    showTemperature();
    element.hidden = false;
    showVoices();
    q("#calls-editor-title").focus();
    element.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function close() {
    samples.stop();
    element.hidden = true;
    editing = null;
  }

  return { element, open };
}

/**
 * How each voice sounds on calls played on this machine (GET /mobile/voices/{id}/preview, WAV):
 * one sample at a time, each fetched once; the button shows ■ while its sample plays.
 * `say(text)` reports a failure.
 */
function voiceSamples(signal, say) {
  const audio = new Audio();
  const urls = new Map();
  let button = null;
  const reset = () => {
    if (button) {
      button.textContent = "▶";
      button.setAttribute("aria-pressed", "false");
    }
    button = null;
  };
  audio.addEventListener("ended", reset, { signal });
  signal.addEventListener("abort", () => {
    audio.pause();
    audio.removeAttribute("src");
    for (const url of urls.values()) URL.revokeObjectURL(url);
  }, { once: true });

  function stop() {
    audio.pause();
    reset();
  }

  async function toggle(id, pressed) {
    const again = button === pressed;
    stop();
    if (again) return;
    button = pressed;
    pressed.textContent = "■";
    pressed.setAttribute("aria-pressed", "true");
    try {
      if (!urls.has(id)) urls.set(id, URL.createObjectURL(await apiBlob(`/mobile/voices/${encodeURIComponent(id)}/preview`, { signal })));
      if (button !== pressed) return; // another sample was asked for meanwhile
      audio.src = urls.get(id);
      await audio.play();
    } catch (error) {
      if (isAbort(error)) return;
      if (button === pressed) reset();
      say(`The sample could not be played: ${error.message}`);
    }
  }

  return { toggle, stop };
}
