// The cast: one card per character (and the narrator) with its voice and a sample, and edits:
// the voice (one picker for every card, voice-picker.js), rate, pitch and volume, details,
// merging two characters, adding one the analysis missed. Every choice is saved as it is made,
// and the card says what changed; a change that also re-cast someone else says so and offers
// to undo it. A novel has dozens of characters: a card is a few buttons, and its heavier
// controls (sliders, the edit form) are made when it is opened.
import { api, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";
import { voicePicker, voiceFacts, qualityMark, playSample, samplePlaying, stopSample } from "./voice-picker.js";

// The cast's own styles (cards, picker), beside the area's css/stories.css.
if (!document.querySelector('link[href="/css/cast.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/css/cast.css" }));
}

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

/** "Flite SLT (Flite · American · female)", or the id of a voice not installed here. */
export function voiceLabel(voice) {
  return voice.engine ? `${voice.name} (${voiceFacts(voice)})` : voice.name;
}

function initials(name) {
  const words = name.replace(/^(the|a|an|mrs?\.?|miss|dr\.?|sir|lady|lord)\s+/i, "").split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words.at(-1)[0] : (words[0] ?? "?").slice(0, 2)).toUpperCase();
}

function hue(text) {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)) % 360;
  return hash;
}

const signed = (value, digits, unit) => `${value > 0 ? "+" : ""}${Number(value).toFixed(digits)}${unit}`;

export function castPart(view) {
  const { $, signal } = view;
  const picker = voicePicker($("#cast"), { signal });
  signal.addEventListener("abort", () => picker.close(), { once: true });
  /** What the last change said in each card (kept across the rebuild that follows it). */
  const notices = new Map();
  /** Cards whose "Adjust and edit" panel is open (kept across rebuilds). */
  const open = new Set();
  let focusAfterRender = null; // [role, key] of the control to focus once the cards are rebuilt

  const voiceById = () => new Map(view.voices.map((voice) => [voice.id, voice]));
  const voiceName = (id) => voiceById().get(id)?.name ?? id;
  const assignmentOf = (reply, role) => (role === "narrator" ? reply.cast.narrator : reply.cast.characters[role]);
  const nameOf = (reply, role) => (role === "narrator" ? "the narrator"
    : reply.analysis.characters.find((character) => character.id === role)?.name ?? assignmentOf(reply, role)?.name ?? role);
  const isOverridden = (reply, role) => Boolean(role === "narrator" ? reply.overrides.narrator : reply.overrides.characters[role]);
  const choiceOf = (assignment) => ({ voice: assignment.voice, rate: assignment.rate, pitch: assignment.pitch, volume: assignment.volume });

  /**
   * Who else a change re-cast: the server's `also_changed` where it sends one, else what differs
   * between the cast before and after.
   */
  function alsoChanged(before, after, role) {
    if (Array.isArray(after.also_changed)) {
      return after.also_changed.map((change) => ({ role: change.role, name: change.name ?? nameOf(after, change.role), from: change.from, to: change.to }));
    }
    const roles = ["narrator", ...Object.keys(before.cast.characters)];
    return roles.filter((other) => other !== role && assignmentOf(after, other) && assignmentOf(before, other)
      && assignmentOf(after, other).voice !== assignmentOf(before, other).voice)
      .map((other) => ({ role: other, name: nameOf(after, other), from: assignmentOf(before, other).voice, to: assignmentOf(after, other).voice }));
  }

  /** Shows a notice in a card now, without waiting for a rebuild. */
  function notify(role, notice) {
    if (notice) notices.set(role, notice);
    else notices.delete(role);
    const slot = $(`#cast-list .cast-card[data-role="${role}"] .cast-notice`);
    if (slot) slot.replaceChildren(...noticeContent(role));
  }

  function noticeContent(role) {
    const notice = notices.get(role);
    if (!notice) return [];
    const parts = [el("p", { role: notice.error ? "alert" : "status", className: notice.error ? "error" : notice.busy ? "hint" : "done" }, notice.text)];
    if (notice.also?.length) {
      parts.push(el("p", { className: "also-title" }, `This also changed ${notice.also.length === 1 ? "another voice" : `${notice.also.length} other voices`}:`),
        el("ul", { className: "also" }, ...notice.also.map((change) =>
          el("li", {}, el("strong", {}, capitalise(change.name)), `: ${voiceName(change.from)} → ${voiceName(change.to)}`))));
    }
    if (notice.undo) {
      parts.push(el("div", { className: "actions" },
        el("button", { type: "button", className: "secondary small undo", dataset: { focus: "undo" }, onclick: notice.undo },
          notice.also?.length ? "Undo all of it" : "Undo"),
        el("button", { type: "button", className: "secondary small", dataset: { focus: "dismiss" }, onclick: () => {
          notify(role, null);
          focusCard(role);
        } }, notice.also?.length ? "Keep these voices" : "OK")));
    }
    return parts;
  }

  const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  function focusCard(role, key = "voice") {
    const card = $(`#cast-list .cast-card[data-role="${role}"]`);
    (card?.querySelector(`[data-focus="${key}"]`) ?? card?.querySelector("[data-focus=voice]"))?.focus();
  }

  /**
   * Sends one change of a role's voice (PUT with `choice`, or DELETE for the automatic one),
   * then rebuilds the page and says in the card what changed, and what else changed with it.
   */
  async function change(role, { choice, said, focusKey = "voice" }) {
    const before = view.reply;
    const previous = { overridden: isOverridden(before, role), choice: choiceOf(assignmentOf(before, role)) };
    // One change speaks at a time: what the last one said (and its undo) goes.
    for (const other of [...notices.keys()]) if (other !== role) notify(other, null);
    notify(role, { text: "Saving…", busy: true });
    try {
      const after = await api(`/api/stories/${view.id}/cast/${role}`, choice ? { method: "PUT", json: choice, signal } : { method: "DELETE", signal });
      const also = alsoChanged(before, after, role);
      const text = said(after);
      notices.set(role, { text, also, undo: () => undo(role, previous, also) });
      for (const other of also) {
        notices.set(other.role, { text: `Re-cast when ${nameOf(after, role)} changed: now ${voiceName(other.to)} (was ${voiceName(other.from)}).`, changed: true });
      }
      focusAfterRender = [role, focusKey];
      await view.refresh();
    } catch (error) {
      if (isAbort(error)) return;
      notify(role, { text: `Not saved: ${error.message}`, error: true });
    }
  }

  /** Puts back the role's previous voice, and the voices of everyone the change re-cast. */
  async function undo(role, previous, also) {
    notify(role, { text: "Undoing…", busy: true });
    try {
      let reply = await api(`/api/stories/${view.id}/cast/${role}`, previous.overridden
        ? { method: "PUT", json: previous.choice, signal } : { method: "DELETE", signal });
      for (const other of also) {
        const now = assignmentOf(reply, other.role);
        if (now && now.voice !== other.from) {
          reply = await api(`/api/stories/${view.id}/cast/${other.role}`, { method: "PUT", json: { ...choiceOf(now), voice: other.from }, signal });
        }
      }
      const back = also.length ? ` ${also.map((other) => `${capitalise(other.name)}'s`).join(" and ")} ${also.length === 1 ? "voice is" : "voices are"} back.` : "";
      notices.set(role, { text: `Undone: ${nameOf(reply, role)} speaks with ${voiceName(previous.choice.voice)} again.${back}` });
      for (const other of also) notices.delete(other.role);
      focusAfterRender = [role, "voice"];
      await view.refresh();
    } catch (error) {
      if (!isAbort(error)) notify(role, { text: `Could not undo: ${error.message}`, error: true });
    }
  }

  function render() {
    const started = performance.now();
    const { analysis, cast } = view.reply;
    // Focus inside the cards survives the rebuild (the same control of the same card).
    const active = document.activeElement?.closest?.("#cast-list .cast-card") ? document.activeElement : null;
    if (active && !focusAfterRender) focusAfterRender = [active.closest(".cast-card").dataset.role, active.dataset.focus ?? active.name ?? "voice"];
    const totalLines = analysis.characters.reduce((sum, character) => sum + character.lines, 0) || 1;
    const roles = new Set(["narrator", ...analysis.characters.map((character) => character.id)]);
    for (const role of notices.keys()) if (!roles.has(role)) notices.delete(role);
    const cards = [castCard({ id: "narrator", name: "Narrator", lines: null }, cast.narrator, totalLines)];
    for (const character of [...analysis.characters].sort((a, b) => b.lines - a.lines)) {
      cards.push(castCard(character, cast.characters[character.id], totalLines));
    }
    cards.push(addCharacterCard());
    $("#cast-list").replaceChildren(...cards);
    performance.measure("storyvoice:cast-render", { start: started, detail: { cards: cards.length - 1 } });
    picker.prepare(view.voices);
    if (focusAfterRender) {
      const [role, key] = focusAfterRender;
      focusAfterRender = null;
      const card = $(`#cast-list .cast-card[data-role="${role}"]`);
      const target = card?.querySelector(`[data-focus="${key}"], [name="${key}"]`) ?? card?.querySelector("[data-focus=voice]");
      target?.focus({ preventScroll: true });
      target?.scrollIntoView({ block: "nearest" });
    }
  }

  function castCard(character, assignment, totalLines) {
    const role = character.id;
    const isNarrator = role === "narrator";
    const overridden = isOverridden(view.reply, role);
    const headingId = `cast-${role}`;
    const voice = voiceById().get(assignment.voice) ?? { id: assignment.voice, name: assignment.voice };
    const card = el("li", { className: `card cast-card${notices.get(role)?.changed ? " changed" : ""}`,
      dataset: { role, voice: assignment.voice }, "aria-labelledby": headingId });
    const avatar = el("span", { className: "avatar", "aria-hidden": "true" }, isNarrator ? "N" : initials(character.name));
    avatar.style.setProperty("--hue", isNarrator ? 215 : hue(character.name));
    const count = isNarrator ? "Everything outside quotes" : `${character.lines} line${character.lines === 1 ? "" : "s"}`;
    card.append(el("div", { className: "cast-head" }, avatar,
      el("div", { className: "who" }, el("h4", { id: headingId }, character.name),
        el("p", { className: "traits" }, isNarrator ? "narrator" : describe(character))),
      el("span", { className: "count" }, count)));
    if (!isNarrator) {
      const share = Math.round((100 * character.lines) / totalLines);
      const bar = el("span");
      bar.style.width = `${share}%`;
      card.append(el("div", { className: "share", role: "img", "aria-label": `${share}% of the dialogue` }, bar));
      if (character.description) card.append(el("p", { className: "hint description" }, character.description));
      if (character.aliases?.length) card.append(el("p", { className: "hint" }, `Also called ${character.aliases.join(", ")}`));
      const evidence = evidenceDetails(character);
      if (evidence) card.append(evidence);
    }

    const voiceButton = el("button", { type: "button", className: "voice-button", dataset: { focus: "voice" }, "aria-haspopup": "dialog",
      "aria-label": `Voice of ${character.name}: ${voice.name}. Choose another`,
      onclick: () => picker.open({ role, name: character.name, choice: choiceOf(assignment), voices: view.voices, opener: voiceButton,
        onChoose: (chosen) => change(role, { choice: { ...choiceOf(assignment), voice: chosen.id },
          said: (after) => `${character.name} now speaks with ${voiceLabel(voiceById().get(assignmentOf(after, role).voice) ?? chosen)}.` }) }) },
    el("span", { className: "voice-text" }, el("span", { className: "voice-name" }, voice.name),
      el("span", { className: "voice-facts" }, voice.engine ? voiceFacts(voice) : "not installed here")),
    qualityMark(voice.quality), el("span", { className: "chevron", "aria-hidden": "true" }, "▾"));
    const sampleKey = `card:${role}`;
    const hear = el("button", { type: "button", className: "secondary icon hear", dataset: { focus: "hear" },
      "aria-label": `Hear ${character.name}`, onclick: () => {
        if (samplePlaying(sampleKey)) return stopSample();
        playSample(sampleKey, choiceOf(assignment), character.name, { signal, onState: (state) => {
          hear.textContent = state === "playing" ? "■" : state === "loading" ? "…" : "▶";
          hear.setAttribute("aria-label", `${state === "playing" ? "Stop" : "Hear"} ${character.name}`);
          if (state === "playing") notify(role, { text: `Playing ${character.name}'s voice.` });
          else if (state instanceof Error) notify(role, { text: `The sample failed: ${state.message}`, error: true });
          else if (state === "stopped" && notices.get(role)?.text === `Playing ${character.name}'s voice.`) notify(role, null);
        } });
      } }, "▶");
    card.append(el("div", { className: "voice-row" }, voiceButton, hear));

    const source = overridden
      ? el("p", { className: "hint source" }, "Chosen by you · ",
        el("button", { type: "button", className: "link", dataset: { focus: "restore" }, onclick: () => change(role, {
          said: (after) => `${character.name} has the automatic voice again: ${voiceLabel(voiceById().get(assignmentOf(after, role).voice) ?? { name: assignmentOf(after, role).voice })}.` }) },
        "Restore the automatic voice"))
      : el("p", { className: "hint source" }, assignment.delivery ? `Chosen automatically for ${assignment.delivery}` : "Chosen automatically");
    card.append(source, el("div", { className: "cast-notice" }, ...noticeContent(role)));
    card.append(morePanel(character, assignment));
    return card;
  }

  /** Rate, pitch, volume and (for a character) the edit and merge forms, made when opened. */
  function morePanel(character, assignment) {
    const role = character.id;
    const isNarrator = role === "narrator";
    const details = el("details", { className: "more" },
      el("summary", { dataset: { focus: "more" } }, isNarrator ? "Adjust the voice" : "Adjust the voice, edit or merge"));
    const fill = () => {
      if (details.dataset.built) return;
      details.dataset.built = "1";
      details.append(adjustForm(character, assignment));
      if (!isNarrator) details.append(editForm(character), mergeRow(character));
    };
    details.addEventListener("toggle", () => {
      if (details.open) {
        open.add(role);
        fill();
      } else {
        open.delete(role);
      }
    });
    if (open.has(role)) {
      details.open = true;
      fill();
    }
    return details;
  }

  function adjustForm(character, assignment) {
    const role = character.id;
    let timer = null;
    const form = el("form", { className: "adjust", onsubmit: (event) => event.preventDefault() });
    const slider = (name, label, min, max, step, value, format) => {
      const output = el("output", {}, format(value));
      const input = el("input", { type: "range", name, min, max, step, value, "aria-label": `${label} of ${character.name}`,
        oninput: () => { output.value = format(Number(input.value)); },
        // Saved when let go (and, from the keyboard, once the keys rest).
        onchange: () => {
          clearTimeout(timer);
          timer = setTimeout(save, 350);
        } });
      return el("label", {}, el("span", {}, label), input, output);
    };
    const save = () => {
      const f = form.elements;
      const choice = { voice: assignment.voice, rate: Number(f.rate.value), pitch: Number(f.pitch.value), volume: Number(f.volume.value) };
      change(role, { choice, focusKey: document.activeElement?.name ?? "rate",
        said: () => `${character.name}: rate ${choice.rate.toFixed(2)}×, pitch ${signed(choice.pitch, 1, " st")}, volume ${choice.volume.toFixed(2)}×. Saved.` });
    };
    form.append(
      slider("rate", "Rate", 0.5, 2, 0.05, assignment.rate, (v) => `${v.toFixed(2)}×`),
      slider("pitch", "Pitch", -12, 12, 0.5, assignment.pitch, (v) => signed(v, 1, " st")),
      slider("volume", "Volume", 0, 2, 0.05, assignment.volume, (v) => `${v.toFixed(2)}×`),
      el("p", { className: "hint" }, "Each change is saved when you let go."));
    return form;
  }

  /** Runs an edit of the analysis, then rebuilds the page; a failure is said in `status`. */
  async function edit(status, action) {
    try {
      status.textContent = "Saving…";
      await action();
      await view.refresh();
      return true;
    } catch (error) {
      if (!isAbort(error)) {
        status.setAttribute("role", "alert");
        status.textContent = error.message;
      }
      return false;
    }
  }

  function editForm(character) {
    const option = (value, selected) => el("option", { value, selected: value === selected }, value);
    const status = el("p", { role: "status", className: "hint" });
    return el("form", { className: "edit", onsubmit: (event) => {
      event.preventDefault();
      const f = event.target.elements;
      edit(status, () => api(`/api/stories/${view.id}/characters/${character.id}`, { method: "PATCH", signal, json: {
        name: f.name.value, gender: f.gender.value, age_range: f.age.value, accent: f.accent.value, personality: f.personality.value,
        description: f.description.value } }));
    } },
    el("h5", {}, "Details"),
    el("label", {}, "Name ", el("input", { type: "text", name: "name", value: character.name, required: true })),
    el("label", {}, "Gender ", el("select", { name: "gender" }, ...["female", "male", "nonbinary", "unknown"].map((g) => option(g, character.gender)))),
    el("label", {}, "Age ", el("select", { name: "age" }, ...["child", "teen", "adult", "elderly", "unknown"].map((a) => option(a, character.ageRange)))),
    el("label", {}, "Accent ", el("input", { type: "text", name: "accent", value: character.accent ?? "" })),
    el("label", {}, "Personality ", el("input", { type: "text", name: "personality", value: character.personality ?? "" })),
    el("label", {}, "Description ", el("input", { type: "text", name: "description", value: character.description ?? "" })),
    el("div", { className: "actions" }, el("button", { type: "submit" }, "Save details")),
    status);
  }

  function mergeRow(character) {
    const status = el("p", { role: "status", className: "hint" });
    const others = view.reply.analysis.characters.filter((other) => other.id !== character.id);
    const into = el("select", { name: "into" }, ...others.map((other) => el("option", { value: other.id }, other.name)));
    return el("div", { className: "merge" },
      el("div", { className: "actions" }, el("label", {}, "Same person as ", into),
        el("button", { type: "button", className: "secondary merge-button", disabled: others.length === 0, onclick: () =>
          edit(status, () => api(`/api/stories/${view.id}/characters/${character.id}/merge`, { method: "POST", json: { into: into.value }, signal })),
        }, "Merge")),
      status);
  }

  function addCharacterCard() {
    const status = el("p", { role: "status", className: "hint" });
    const form = el("form", { onsubmit: (event) => {
      event.preventDefault();
      edit(status, () => api(`/api/stories/${view.id}/characters`, { method: "POST", json: { name: event.target.elements.name.value }, signal }));
    } }, el("label", {}, "Name ", el("input", { type: "text", name: "name", required: true })),
    el("div", { className: "actions" }, el("button", { type: "submit" }, "Add character")), status);
    return el("li", { className: "card add-card" }, el("h4", {}, "Someone missing?"), form);
  }

  return { render };
}
