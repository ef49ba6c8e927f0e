// The settings screen: narration defaults and provider keys.
import { api } from "./api.js";
import { $ } from "./dom.js";

const providers = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini", elevenlabs: "ElevenLabs" };

export async function showAccount() {
  fillSettings(await api("/api/settings"));
}

function fillSettings(settings) {
  const form = $("#settings-form");
  for (const name of ["rate", "pitch", "volume"]) {
    form.elements[name].value = settings.narration[name];
    form.elements[`${name}-out`].value = `${Number(settings.narration[name]).toFixed(2)}×`;
  }
  const keys = $("#keys");
  keys.querySelectorAll("label").forEach((label) => label.remove());
  for (const [id, name] of Object.entries(providers)) {
    const label = document.createElement("label");
    const masked = settings.api_keys[id];
    label.append(`${name} `);
    label.append(Object.assign(document.createElement("input"), {
      type: "password", name: `key-${id}`, autocomplete: "off", placeholder: masked ? "stored" : "not set",
    }));
    if (masked) label.append(Object.assign(document.createElement("span"), { className: "masked", textContent: masked }));
    keys.append(label);
  }
}

$("#settings-form").addEventListener("input", (event) => {
  const output = event.target.form?.elements[`${event.target.name}-out`];
  if (output) output.value = `${Number(event.target.value).toFixed(2)}×`;
});

$("#settings-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const body = {
    narration: Object.fromEntries(["rate", "pitch", "volume"].map((name) => [name, Number(form.elements[name].value)])),
    api_keys: {},
  };
  for (const id of Object.keys(providers)) {
    const value = form.elements[`key-${id}`].value.trim();
    if (value) body.api_keys[id] = value;
  }
  try {
    fillSettings(await api("/api/settings", { method: "PUT", json: body }));
    $("#settings-status").textContent = "Saved.";
  } catch (error) {
    $("#settings-status").textContent = error.message;
  }
});
