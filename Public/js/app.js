// The account screen: sign in or register, then narration defaults and provider keys.
import { api, login, logout, register, APIError } from "./api.js";

const $ = (selector) => document.querySelector(selector);
const providers = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini", elevenlabs: "ElevenLabs" };

async function showAccount() {
  let me;
  try {
    me = await api("/api/me");
  } catch (error) {
    if (error instanceof APIError && error.status === 401) return showSignIn();
    throw error;
  }
  $("#signin").hidden = true;
  $("#account").hidden = false;
  $("#logout").hidden = false;
  $("#who").textContent = `Signed in as ${me.email}`;
  fillSettings(await api("/api/settings"));
}

function showSignIn() {
  $("#signin").hidden = false;
  $("#account").hidden = true;
  $("#logout").hidden = true;
  $("#who").textContent = "";
  $("#auth-form [name=email]").focus();
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
    const input = Object.assign(document.createElement("input"), {
      type: "password", name: `key-${id}`, autocomplete: "off", placeholder: masked ? "stored" : "not set",
    });
    label.append(input);
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

$("#auth-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const action = event.submitter?.value ?? "login";
  const email = form.elements.email.value;
  const password = form.elements.password.value;
  $("#auth-error").textContent = "";
  try {
    await (action === "register" ? register(email, password) : login(email, password));
    form.reset();
    await showAccount();
  } catch (error) {
    $("#auth-error").textContent = error.message;
  }
});

$("#logout").addEventListener("click", async () => {
  await logout().catch(() => {});
  showSignIn();
});

showAccount().catch((error) => {
  $("#auth-error").textContent = error.message;
  showSignIn();
});
