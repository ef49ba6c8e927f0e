// The cast: one card per character (and the narrator) with its voice, rate, pitch and volume,
// a preview, and edits: details, merging two characters, adding one the analysis missed.
import { api, apiBlob, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";

function describe(character) {
  return [character.gender, character.ageRange, character.accent, character.personality]
    .filter((part) => part && part !== "unknown").join(" · ") || "not described yet";
}

// The story's own words behind what a model said of a character, one quotation per field.
const evidenceFields = [["gender", "Gender"], ["ageRange", "Age"], ["accent", "Accent"],
  ["personality", "Personality"], ["description", "Description"]];

function evidenceDetails(character) {
  const quoted = evidenceFields.filter(([field]) => character.evidence?.[field]);
  if (!quoted.length) return null;
  return el("details", { className: "evidence" },
    el("summary", {}, "Why the model says so"),
    el("dl", {}, ...quoted.flatMap(([field, label]) =>
      [el("dt", {}, label), el("dd", {}, el("q", {}, character.evidence[field]))])));
}

export function voiceLabel(voice) {
  const price = voice.cost_per_1000_characters > 0 ? `${voice.engine}, $${voice.cost_per_1000_characters.toFixed(3)} per 1,000 characters` : null;
  return [voice.name, voice.gender !== "unknown" ? voice.gender : null, voice.accent, price].filter(Boolean).join(" · ");
}

function slider(name, label, min, max, step, value, unit) {
  const output = el("output", {}, `${Number(value).toFixed(2)}${unit}`);
  const input = el("input", { type: "range", name, min, max, step, value,
    oninput: () => { output.value = `${Number(input.value).toFixed(2)}${unit}`; } });
  return el("label", {}, `${label} `, input, output);
}

export function castPart(view) {
  const { $, signal } = view;
  const preview = { audio: null, url: null }; // the one voice preview that may be sounding

  function stopPreview() {
    preview.audio?.pause();
    if (preview.url) URL.revokeObjectURL(preview.url);
    preview.audio = null;
    preview.url = null;
  }
  signal.addEventListener("abort", stopPreview, { once: true });

  /** Runs an edit, then rebuilds the page; a failure is said in `status`. */
  async function edit(status, action) {
    try {
      await action();
      await view.refresh();
      return true;
    } catch (error) {
      if (!isAbort(error)) status.textContent = error.message;
      return false;
    }
  }

  function render() {
    const { analysis, cast, overrides } = view.reply;
    const totalLines = analysis.characters.reduce((sum, character) => sum + character.lines, 0) || 1;
    const cards = [castCard({ id: "narrator", name: "Narrator", lines: null }, cast.narrator, Boolean(overrides.narrator), totalLines)];
    for (const character of [...analysis.characters].sort((a, b) => b.lines - a.lines)) {
      cards.push(castCard(character, cast.characters[character.id], Boolean(overrides.characters[character.id]), totalLines));
    }
    cards.push(addCharacterCard());
    $("#cast-list").replaceChildren(...cards);
  }

  function castCard(character, assignment, overridden, totalLines) {
    const isNarrator = character.id === "narrator";
    const headingId = `cast-${character.id}`;
    const card = el("li", { className: "card cast-card", dataset: { role: character.id }, "aria-labelledby": headingId });
    card.append(el("h4", { id: headingId }, character.name));
    if (!isNarrator) {
      card.append(el("p", { className: "traits" }, describe(character)));
      if (character.description) card.append(el("p", { className: "hint description" }, character.description));
      const evidence = evidenceDetails(character);
      if (evidence) card.append(evidence);
      if (character.aliases?.length) card.append(el("p", { className: "hint" }, `Also called ${character.aliases.join(", ")}`));
      const share = Math.round((100 * character.lines) / totalLines);
      card.append(el("p", { className: "hint" }, `${character.lines} line${character.lines === 1 ? "" : "s"} · ${share}% of dialogue`));
      card.append(el("div", { className: "share", role: "img", "aria-label": `${share}% of the dialogue` },
        el("span", { style: `width:${share}%` })));
    }

    const select = el("select", { name: "voice" },
      ...view.voices.map((voice) => el("option", { value: voice.id, selected: voice.id === assignment.voice }, voiceLabel(voice))));
    const form = el("form", { className: "voice-form", onsubmit: (event) => event.preventDefault() },
      el("label", {}, "Voice ", select),
      slider("rate", "Rate", 0.5, 2, 0.05, assignment.rate, "×"),
      slider("pitch", "Pitch", -12, 12, 0.5, assignment.pitch, " st"),
      slider("volume", "Volume", 0, 2, 0.05, assignment.volume, "×"));
    const choice = () => ({ voice: select.value, rate: Number(form.elements.rate.value),
      pitch: Number(form.elements.pitch.value), volume: Number(form.elements.volume.value) });
    const status = el("p", { role: "status", className: "hint" });
    const previewButton = el("button", { type: "button", className: "secondary", "aria-label": `Preview the voice of ${character.name}`, onclick: async () => {
      status.textContent = "Preparing preview…";
      try {
        const blob = await apiBlob("/api/voices/preview", { method: "POST", json: { ...choice(), name: character.name }, signal });
        stopPreview();
        preview.url = URL.createObjectURL(blob);
        preview.audio = new Audio(preview.url);
        await preview.audio.play();
        status.textContent = `Playing ${character.name}'s voice.`;
      } catch (error) {
        if (!isAbort(error)) status.textContent = error.message || "The preview failed.";
      }
    } }, "▶ Preview");
    const save = el("button", { type: "button", onclick: async () => {
      const saved = await edit(status, () => api(`/api/stories/${view.id}/cast/${character.id}`, { method: "PUT", json: choice(), signal }));
      if (saved) announce(character.id, `${character.name} now speaks with ${voiceLabel(view.voices.find((v) => v.id === select.value) ?? { name: select.value })}.`);
    } }, "Use this voice");
    const restore = el("button", { type: "button", className: "secondary", disabled: !overridden, onclick: async () => {
      const restored = await edit(status, () => api(`/api/stories/${view.id}/cast/${character.id}`, { method: "DELETE", signal }));
      if (restored) announce(character.id, `${character.name} has the automatic voice again.`);
    } }, "Restore default");
    form.append(el("div", { className: "actions" }, previewButton, save, restore), status);
    card.append(form);
    if (!isNarrator) card.append(editDetails(character));
    return card;
  }

  /** After a rebuild, says what happened in the card that did it and keeps focus there. */
  function announce(role, message) {
    const card = $(`#cast-list [data-role="${role}"]`);
    if (!card) return;
    card.querySelector("[role=status]").textContent = message;
    card.querySelector("select")?.focus();
  }

  function editDetails(character) {
    const option = (value, selected) => el("option", { value, selected: value === selected }, value);
    const status = el("p", { role: "status", className: "hint" });
    const form = el("form", { onsubmit: (event) => {
      event.preventDefault();
      const f = event.target.elements;
      edit(status, () => api(`/api/stories/${view.id}/characters/${character.id}`, { method: "PATCH", signal, json: {
        name: f.name.value, gender: f.gender.value, age_range: f.age.value, accent: f.accent.value, personality: f.personality.value,
        description: f.description.value } }));
    } },
    el("label", {}, "Name ", el("input", { type: "text", name: "name", value: character.name, required: true })),
    el("label", {}, "Gender ", el("select", { name: "gender" }, ...["female", "male", "nonbinary", "unknown"].map((g) => option(g, character.gender)))),
    el("label", {}, "Age ", el("select", { name: "age" }, ...["child", "teen", "adult", "elderly", "unknown"].map((a) => option(a, character.ageRange)))),
    el("label", {}, "Accent ", el("input", { type: "text", name: "accent", value: character.accent ?? "" })),
    el("label", {}, "Personality ", el("input", { type: "text", name: "personality", value: character.personality ?? "" })),
    el("label", {}, "Description ", el("input", { type: "text", name: "description", value: character.description ?? "" })),
    el("div", { className: "actions" }, el("button", { type: "submit" }, "Save details")),
    status);

    const others = view.reply.analysis.characters.filter((other) => other.id !== character.id);
    const into = el("select", { name: "into" }, ...others.map((other) => el("option", { value: other.id }, other.name)));
    const merge = el("div", { className: "actions" }, el("label", {}, "Same person as ", into),
      el("button", { type: "button", className: "secondary", disabled: others.length === 0, onclick: () =>
        edit(status, () => api(`/api/stories/${view.id}/characters/${character.id}/merge`, { method: "POST", json: { into: into.value }, signal })),
      }, "Merge"));
    return el("details", {}, el("summary", {}, `Edit ${character.name}`), form, merge);
  }

  function addCharacterCard() {
    const status = el("p", { role: "status", className: "hint" });
    const form = el("form", { onsubmit: (event) => {
      event.preventDefault();
      edit(status, () => api(`/api/stories/${view.id}/characters`, { method: "POST", json: { name: event.target.elements.name.value }, signal }));
    } }, el("label", {}, "Name ", el("input", { type: "text", name: "name", required: true })),
    el("div", { className: "actions" }, el("button", { type: "submit" }, "Add character")), status);
    return el("li", { className: "card" }, el("h4", {}, "Someone missing?"), form);
  }

  return { render };
}
