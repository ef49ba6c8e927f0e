// The settings screen: narration defaults and provider keys.
import { api } from "../shared/api.js";
import { $, el, markup } from "../shared/dom.js";

const providers = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini", elevenlabs: "ElevenLabs" };

const html = `
<section id="account" aria-labelledby="settings-title">
  <h2 id="settings-title">Settings</h2>
  <form id="settings-form">
    <fieldset>
      <legend>Default narration</legend>
      <label>Rate <input name="rate" type="range" min="0.5" max="2" step="0.05"><output name="rate-out"></output></label>
      <label>Pitch <input name="pitch" type="range" min="0.5" max="2" step="0.05"><output name="pitch-out"></output></label>
      <label>Volume <input name="volume" type="range" min="0" max="2" step="0.05"><output name="volume-out"></output></label>
    </fieldset>
    <fieldset id="voices-choice">
      <legend>Voices: how long you will wait for a book</legend>
      <label><input type="radio" name="voices" value="fastest"> Fastest: a book renders at least ten times faster than it plays; the best (slowest) voices only for the roles that fit in that</label>
      <label><input type="radio" name="voices" value="hours"> Ready in about <input name="hours" type="number" min="0.25" max="72" step="0.25" value="2" size="4"> hours: the best voices for the roles that speak most, as many as fit</label>
      <label><input type="radio" name="voices" value="best"> Best: the best voices (Kokoro) for every role, however long it takes (hours for a novel on this machine)</label>
      <p class="hint">Every choice gives each role a natural (neural) voice where there is one. A story's Export shows how long each choice takes for it. Roles you gave a voice by hand keep it.</p>
    </fieldset>
    <fieldset id="keys">
      <legend>Provider API keys</legend>
      <p class="hint">Keys are encrypted on the server and never shown again; leave a field empty to keep the stored key.</p>
    </fieldset>
    <div class="actions"><button type="submit">Save settings</button></div>
    <p class="status" role="status" id="settings-status"></p>
  </form>
</section>`;

export default function settingsScreen() {
  return {
    async mount(container, _params, { signal, setTitle }) {
      container.replaceChildren(markup(html));
      setTitle("Settings");
      const form = $("#settings-form", container);
      const status = $("#settings-status", container);

      function fill(settings) {
        for (const name of ["rate", "pitch", "volume"]) {
          form.elements[name].value = settings.narration[name];
          form.elements[`${name}-out`].value = `${Number(settings.narration[name]).toFixed(2)}×`;
        }
        const voices = settings.narration.voices ?? "fastest";
        form.elements.voices.value = voices.startsWith("hours:") ? "hours" : voices;
        if (voices.startsWith("hours:")) form.elements.hours.value = voices.slice("hours:".length);
        const keys = $("#keys", container);
        keys.querySelectorAll("label").forEach((label) => label.remove());
        for (const [id, name] of Object.entries(providers)) {
          const masked = settings.api_keys[id];
          keys.append(el("label", {}, `${name} `,
            el("input", { type: "password", name: `key-${id}`, autocomplete: "off", placeholder: masked ? "stored" : "not set" }),
            masked ? el("span", { className: "masked" }, masked) : null));
        }
      }

      form.addEventListener("input", (event) => {
        const output = event.target.form?.elements[`${event.target.name}-out`];
        if (output) output.value = `${Number(event.target.value).toFixed(2)}×`;
      }, { signal });

      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const body = {
          narration: {
            ...Object.fromEntries(["rate", "pitch", "volume"].map((name) => [name, Number(form.elements[name].value)])),
            voices: form.elements.voices.value === "hours"
              ? `hours:${Math.min(72, Math.max(0.25, Number(form.elements.hours.value) || 2))}` : form.elements.voices.value,
          },
          api_keys: {},
        };
        for (const id of Object.keys(providers)) {
          const value = form.elements[`key-${id}`].value.trim();
          if (value) body.api_keys[id] = value;
        }
        try {
          fill(await api("/api/settings", { method: "PUT", json: body, signal }));
          status.textContent = "Saved.";
        } catch (error) {
          if (!signal.aborted) status.textContent = error.message;
        }
      }, { signal });

      fill(await api("/api/settings", { signal }));
    },
    unmount() {},
  };
}
