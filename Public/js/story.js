// The story page: analysis with live progress, the cast (voices, previews, edits), the lines
// (filter, reassign), the player and export.
import { api, followJob, APIError } from "./api.js";
import { $, el, confirmDialog, formatDuration } from "./dom.js";
import { Player } from "./player.js";

let current = null; // { id, story, reply, lines, voices, player }

export function leaveStory() {
  current?.player?.dispose();
  current = null;
}

export async function showStory(id) {
  if (current?.id !== id) {
    leaveStory();
    current = { id };
  }
  const story = await api(`/api/stories/${id}`);
  current.story = story;
  $("#story-title").textContent = story.title;
  $("#story-meta").textContent = [story.author, `${story.character_count.toLocaleString()} characters of text`].filter(Boolean).join(" · ");
  await refresh();
  if (story.analysis_state === "analyzing") resumeAnalysis();
}

/** Reloads analysis, cast and lines, and rebuilds what shows them. */
async function refresh() {
  const { id } = current;
  const reply = await api(`/api/stories/${id}/analysis`);
  current.reply = reply;
  const analyzed = Boolean(reply.analysis);
  $("#analyze").textContent = analyzed ? "Analyse again" : "Analyse";
  for (const section of ["#player", "#cast", "#pronunciation", "#lines", "#export"]) $(section).hidden = !analyzed;
  $("#suggest-voices").hidden = !analyzed || !$("#model-provider").value;
  if (!analyzed) return;
  if (!current.voices) {
    try {
      current.voices = (await api("/api/voices")).voices;
    } catch (error) {
      current.voices = [];
      $("#player-status").textContent = error.message;
    }
  }
  current.lines = (await api(`/api/stories/${id}/segments`)).segments;
  renderCast();
  renderLexicon();
  renderLines();
  setUpPlayer();
  renderExport();
}

// MARK: Analysis

const defaultModels = { openai: "gpt-4o-mini", anthropic: "claude-3-5-haiku-latest", gemini: "gemini-2.0-flash" };

/** The chosen model as `provider:name`, or null for offline only. */
function chosenModel() {
  const provider = $("#model-provider").value;
  if (!provider) return null;
  return `${provider}:${$("#model-name").value.trim() || defaultModels[provider]}`;
}

$("#model-provider").addEventListener("change", () => {
  const provider = $("#model-provider").value;
  $("#model-name").placeholder = defaultModels[provider] ?? "";
  $("#suggest-voices").hidden = !provider || !current?.reply?.analysis;
});

function money(usd) {
  return usd == null ? "an unknown price" : usd < 0.01 ? `under $0.01` : `about $${usd.toFixed(2)}`;
}

/** Shows what the chosen mode would send and cost, and asks before anything is sent. */
async function confirmModelAnalysis(llm, mode) {
  const { estimates } = await api(`/api/stories/${current.id}/analyze/estimate`, { method: "POST", json: { llm } });
  const chosen = estimates.find((estimate) => estimate.mode === mode);
  const other = estimates.find((estimate) => estimate.mode !== mode);
  const tokens = (estimate) => (estimate.input_tokens + estimate.output_tokens).toLocaleString();
  const text = `${mode === "full" ? "Full" : "Hybrid"} analysis with ${llm}: ${chosen.lines_sent.toLocaleString()} of `
    + `${chosen.dialogue_lines.toLocaleString()} lines in ${chosen.requests} request(s), ~${tokens(chosen)} tokens, ${money(chosen.cost_usd)}. `
    + `(${other.mode}: ~${tokens(other)} tokens, ${money(other.cost_usd)}.) Send it to your model?`;
  return confirmDialog(text, "Send");
}

$("#analyze").addEventListener("click", async () => {
  try {
    const llm = chosenModel();
    const mode = $("#model-mode").value;
    if (llm && !await confirmModelAnalysis(llm, mode)) return;
    const job = await api(`/api/stories/${current.id}/analyze`, { method: "POST", json: llm ? { llm, mode } : {} });
    await followAnalysis(job.id);
  } catch (error) {
    $("#analysis-status").textContent = error.message;
  }
});

$("#suggest-voices").addEventListener("click", async () => {
  const status = $("#model-status");
  const llm = chosenModel();
  if (!llm) return;
  const speaking = current.reply.analysis.characters.filter((character) => character.lines > 0 && !current.reply.overrides.characters[character.id]);
  if (!await confirmDialog(`Ask ${llm} to choose voices for ${speaking.length} character(s) (one short request each)? Voices you chose yourself are kept.`, "Ask")) return;
  try {
    $("#suggest-voices").disabled = true;
    const job = await api(`/api/stories/${current.id}/cast/suggest`, { method: "POST", json: { llm } });
    const done = await followJob(job.id, (snapshot) => { status.textContent = snapshot.message ?? "Asking your model…"; });
    if (done.status === "succeeded") {
      const result = JSON.parse(done.result ?? "{}");
      status.textContent = `Your model chose voices for ${result.suggested ?? 0} of ${result.asked ?? 0} character(s); the others keep the offline casting.`;
      await refresh();
    } else {
      status.textContent = `Voice suggestion failed: ${done.error ?? "unknown error"}.`;
    }
  } catch (error) {
    status.textContent = error.message;
  } finally {
    $("#suggest-voices").disabled = false;
  }
});

async function resumeAnalysis() {
  const { jobs } = await api("/api/jobs");
  const running = jobs.find((job) => job.kind === "analyze" && (job.status === "queued" || job.status === "running"));
  if (running) await followAnalysis(running.id);
}

async function followAnalysis(jobId) {
  const box = $("#analysis-progress");
  const bar = $("#analysis-bar");
  const status = $("#analysis-status");
  box.hidden = false;
  $("#analyze").disabled = true;
  const job = await followJob(jobId, (snapshot) => {
    bar.value = snapshot.progress;
    status.textContent = snapshot.status === "queued" ? "Waiting for a worker…" : (snapshot.message ?? "Analysing…");
  });
  $("#analyze").disabled = false;
  if (job.status === "succeeded") {
    status.textContent = "Analysis finished." + modelReport(job.result);
    await refresh();
  } else {
    status.textContent = `Analysis failed: ${job.error ?? "unknown error"}. Try again.`;
  }
}

/** What the model did, from the analysis job's result, or "" for an offline analysis. */
function modelReport(result) {
  const run = JSON.parse(result ?? "{}");
  if (run.requests === undefined) return "";
  const notes = run.notes?.length ? ` Notes: ${run.notes.join(" ")}` : "";
  return ` Your model labelled ${run.model_labelled} line(s) in ${run.requests} request(s) `
    + `(${(run.input_tokens + run.output_tokens).toLocaleString()} tokens, ${money(run.cost_usd)}).${notes}`;
}

// MARK: Pronunciation

/** One entry as a line of the box: "word = respelling | espeak-ng [[…]] | piper [[…]]". */
function lexiconLine(word, entry) {
  if (typeof entry === "string") return `${word} = ${entry}`;
  const { say, ...phonemes } = entry;
  const parts = Object.entries(phonemes).sort(([a], [b]) => a.localeCompare(b)).map(([engine, notation]) => `${engine} [[${notation}]]`);
  return `${word} = ${[say, ...parts].filter(Boolean).join(" | ")}`;
}

function renderLexicon() {
  const entries = Object.entries(current.reply.overrides.lexicon ?? {}).sort(([a], [b]) => a.localeCompare(b));
  $("#lexicon").value = entries.map(([word, entry]) => lexiconLine(word, entry)).join("\n");
}

// The server reads the box as it reads a --lexicon file, and names the line that is wrong.
$("#lexicon-save").addEventListener("click", async () => {
  const status = $("#lexicon-status");
  try {
    const before = new Set((current.lines ?? []).filter((line) => line.cached).map((line) => line.index));
    await api(`/api/stories/${current.id}/lexicon`, { method: "PUT", json: { text: $("#lexicon").value } });
    await refresh();
    const stale = current.lines.filter((line) => before.has(line.index) && !line.cached).length;
    const saved = Object.keys(current.reply.overrides.lexicon ?? {}).length;
    status.textContent = `Saved ${saved} pronunciation(s); ${stale} rendered line(s) will be rendered again.`;
  } catch (error) {
    status.textContent = error.message;
  }
});

// MARK: Cast

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

function renderCast() {
  const { analysis, cast, overrides } = current.reply;
  const totalLines = analysis.characters.reduce((sum, character) => sum + character.lines, 0) || 1;
  const cards = [castCard({ id: "narrator", name: "Narrator", lines: null }, cast.narrator, Boolean(overrides.narrator), totalLines)];
  for (const character of [...analysis.characters].sort((a, b) => b.lines - a.lines)) {
    cards.push(castCard(character, cast.characters[character.id], Boolean(overrides.characters[character.id]), totalLines));
  }
  cards.push(addCharacterCard());
  $("#cast-list").replaceChildren(...cards);
}

function voiceLabel(voice) {
  const price = voice.cost_per_1000_characters > 0 ? `${voice.engine}, $${voice.cost_per_1000_characters.toFixed(3)} per 1,000 characters` : null;
  return [voice.name, voice.gender !== "unknown" ? voice.gender : null, voice.accent, price].filter(Boolean).join(" · ");
}

function slider(name, label, min, max, step, value, unit) {
  const output = el("output", {}, `${Number(value).toFixed(2)}${unit}`);
  const input = el("input", { type: "range", name, min, max, step, value,
    oninput: () => { output.value = `${Number(input.value).toFixed(2)}${unit}`; } });
  return el("label", {}, `${label} `, input, output);
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
    ...current.voices.map((voice) => el("option", { value: voice.id, selected: voice.id === assignment.voice }, voiceLabel(voice))));
  const form = el("form", { className: "voice-form", onsubmit: (event) => event.preventDefault() },
    el("label", {}, "Voice ", select),
    slider("rate", "Rate", 0.5, 2, 0.05, assignment.rate, "×"),
    slider("pitch", "Pitch", -12, 12, 0.5, assignment.pitch, " st"),
    slider("volume", "Volume", 0, 2, 0.05, assignment.volume, "×"));
  const choice = () => ({ voice: select.value, rate: Number(form.elements.rate.value),
    pitch: Number(form.elements.pitch.value), volume: Number(form.elements.volume.value) });
  const status = el("p", { role: "status", className: "hint" });
  const preview = el("button", { type: "button", className: "secondary", "aria-label": `Preview the voice of ${character.name}`, onclick: async () => {
    status.textContent = "Preparing preview…";
    try {
      const response = await fetch("/api/voices/preview", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...choice(), name: character.name }) });
      if (!response.ok) throw new Error((await response.json().catch(() => null))?.error?.message ?? "The preview failed.");
      const audio = new Audio(URL.createObjectURL(await response.blob()));
      await audio.play();
      status.textContent = `Playing ${character.name}'s voice.`;
    } catch (error) {
      status.textContent = error.message;
    }
  } }, "▶ Preview");
  const save = el("button", { type: "button", onclick: async () => {
    try {
      await api(`/api/stories/${current.id}/cast/${character.id}`, { method: "PUT", json: choice() });
      await refresh();
      announce(character.id, `${character.name} now speaks with ${voiceLabel(current.voices.find((v) => v.id === select.value) ?? { name: select.value })}.`);
    } catch (error) {
      status.textContent = error.message;
    }
  } }, "Use this voice");
  const restore = el("button", { type: "button", className: "secondary", disabled: !overridden, onclick: async () => {
    await api(`/api/stories/${current.id}/cast/${character.id}`, { method: "DELETE" });
    await refresh();
    announce(character.id, `${character.name} has the automatic voice again.`);
  } }, "Restore default");
  form.append(el("div", { className: "actions" }, preview, save, restore), status);
  card.append(form);
  if (!isNarrator) card.append(editDetails(character));
  return card;
}

/** After a rebuild, says what happened in the card that did it and keeps focus there. */
function announce(role, message) {
  const card = $(`#cast-list [data-role="${role}"]`);
  if (!card) return;
  $("[role=status]", card).textContent = message;
  $("select", card)?.focus();
}

function editDetails(character) {
  const option = (value, selected) => el("option", { value, selected: value === selected }, value);
  const form = el("form", { onsubmit: async (event) => {
    event.preventDefault();
    const f = event.target.elements;
    try {
      await api(`/api/stories/${current.id}/characters/${character.id}`, { method: "PATCH", json: {
        name: f.name.value, gender: f.gender.value, age_range: f.age.value, accent: f.accent.value, personality: f.personality.value,
        description: f.description.value } });
      await refresh();
    } catch (error) {
      $("[role=status]", form).textContent = error.message;
    }
  } },
  el("label", {}, "Name ", el("input", { type: "text", name: "name", value: character.name, required: true })),
  el("label", {}, "Gender ", el("select", { name: "gender" }, ...["female", "male", "nonbinary", "unknown"].map((g) => option(g, character.gender)))),
  el("label", {}, "Age ", el("select", { name: "age" }, ...["child", "teen", "adult", "elderly", "unknown"].map((a) => option(a, character.ageRange)))),
  el("label", {}, "Accent ", el("input", { type: "text", name: "accent", value: character.accent ?? "" })),
  el("label", {}, "Personality ", el("input", { type: "text", name: "personality", value: character.personality ?? "" })),
  el("label", {}, "Description ", el("input", { type: "text", name: "description", value: character.description ?? "" })),
  el("div", { className: "actions" }, el("button", { type: "submit" }, "Save details")),
  el("p", { role: "status", className: "hint" }));

  const others = current.reply.analysis.characters.filter((other) => other.id !== character.id);
  const into = el("select", { name: "into" }, ...others.map((other) => el("option", { value: other.id }, other.name)));
  const merge = el("div", { className: "actions" }, el("label", {}, "Same person as ", into),
    el("button", { type: "button", className: "secondary", disabled: others.length === 0, onclick: async () => {
      try {
        await api(`/api/stories/${current.id}/characters/${character.id}/merge`, { method: "POST", json: { into: into.value } });
        await refresh();
      } catch (error) {
        $("[role=status]", form).textContent = error.message;
      }
    } }, "Merge"));
  return el("details", {}, el("summary", {}, `Edit ${character.name}`), form, merge);
}

function addCharacterCard() {
  const form = el("form", { onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api(`/api/stories/${current.id}/characters`, { method: "POST", json: { name: event.target.elements.name.value } });
      await refresh();
    } catch (error) {
      $("[role=status]", form).textContent = error.message;
    }
  } }, el("label", {}, "Name ", el("input", { type: "text", name: "name", required: true })),
  el("div", { className: "actions" }, el("button", { type: "submit" }, "Add character")), el("p", { role: "status", className: "hint" }));
  return el("li", { className: "card" }, el("h4", {}, "Someone missing?"), form);
}

// MARK: Lines

function renderLines() {
  const { analysis } = current.reply;
  const filter = $("#line-filter");
  const chosen = filter.value;
  filter.replaceChildren(el("option", { value: "" }, "Everyone"), el("option", { value: "narrator" }, "Narrator"),
    ...analysis.characters.map((character) => el("option", { value: character.id }, character.name)));
  filter.value = [...filter.options].some((option) => option.value === chosen) ? chosen : "";
  const speakers = [el("option", { value: "" }, "Narrator"), ...analysis.characters.map((c) => el("option", { value: c.id }, c.name))];
  $("#line-list").replaceChildren(...current.lines.map((line) => {
    const select = el("select", { "aria-label": `Speaker of line ${line.index + 1}`, onchange: async () => {
      try {
        await api(`/api/stories/${current.id}/segments/${line.index}`, { method: "PATCH", json: { speaker: select.value || null } });
        await refresh();
        $(`#line-${line.index} select`)?.focus();
      } catch (error) {
        select.value = line.speaker ?? "";
        $("#player-status").textContent = `Line ${line.index + 1} keeps its speaker: ${error.message}`;
      }
    } }, ...speakers.map((option) => option.cloneNode(true)));
    select.value = line.speaker ?? "";
    const jump = el("button", { type: "button", className: "line-text", "aria-label": `Play from line ${line.index + 1}: ${line.speaker_name}`,
      onclick: () => { current.player.jump(line.index); if (!current.player.playing) current.player.play(); } }, line.text);
    return el("li", { id: `line-${line.index}`, className: `line ${line.kind}`, dataset: { speaker: line.speaker ?? "narrator" } },
      el("span", { className: "speaker" }, line.speaker_name), jump, select);
  }));
  applyFilter();
}

function applyFilter() {
  const wanted = $("#line-filter").value;
  for (const item of $("#line-list").children) item.hidden = Boolean(wanted) && item.dataset.speaker !== wanted;
}

$("#line-filter").addEventListener("change", applyFilter);

// MARK: Player

function setUpPlayer() {
  const resumeAt = current.player?.index;
  current.player?.dispose();
  Object.assign(speaking, { index: null, state: "stopped" });
  showSpeaker();
  const player = new Player(current.id, current.lines, {
    onLine: (index) => {
      highlight(index);
      speaking.index = index;
      showSpeaker();
    },
    onState: (state) => {
      speaking.state = state;
      showSpeaker();
      $("#play").textContent = state === "playing" ? "❚❚ Pause" : "▶ Play";
      $("#play").setAttribute("aria-pressed", String(state === "playing"));
      if (state === "finished") $("#player-status").textContent = "The end.";
    },
    onError: (message) => { $("#player-status").textContent = message; },
  });
  if (resumeAt !== undefined && resumeAt < current.lines.length) player.index = resumeAt;
  player.setSpeed(Number($("#speed").value));
  current.player = player;
  player.warmUp();
  // The remembered line is marked (and scrolled to) before anything plays.
  highlight(player.index > 0 ? player.index : null);
  if (player.index > 0) $("#player-status").textContent = `Resumes at line ${player.index + 1}.`;
}

/** Who the player is on, and whether it is speaking (a paused voice is not "now speaking"). */
const speaking = { index: null, state: "stopped" };

function showSpeaker() {
  const name = speaking.index === null ? null : current.lines[speaking.index]?.speaker_name;
  $("#now-speaking").textContent = !name ? "Now speaking: —"
    : speaking.state === "playing" ? `Now speaking: ${name}` : `Paused on: ${name}`;
}

/** Marks line `index` as the current one (null: none). */
function highlight(index) {
  for (const node of $("#line-list").querySelectorAll("[aria-current]")) { node.removeAttribute("aria-current"); node.classList.remove("current"); }
  const node = index === null ? null : $(`#line-${index}`);
  if (node) {
    node.classList.add("current");
    node.setAttribute("aria-current", "true");
    keepInView(node);
  }
}

// The sticky player covers the top of the page: scrolling to a section, or tabbing to a
// control, keeps what it reveals below the player rather than under it.
new ResizeObserver(() => {
  const player = $("#player");
  document.documentElement.style.scrollPaddingTop = player.offsetHeight ? `${player.offsetHeight + 8}px` : "";
}).observe($("#player"));

/** Scrolls the lines list (not the page) so the line being read stays visible. */
function keepInView(node) {
  const list = $("#line-list");
  const top = node.offsetTop; // the list is positioned, so this is relative to it
  if (top < list.scrollTop || top + node.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTo({ top: Math.max(0, top - list.clientHeight / 3), behavior: "smooth" });
  }
}

$("#play").addEventListener("click", () => {
  const player = current?.player;
  if (!player) return;
  $("#player-status").textContent = "";
  if (player.playing) player.pause();
  else player.play();
});
$("#stop").addEventListener("click", () => current?.player?.stop());
$("#speed").addEventListener("change", (event) => current?.player?.setSpeed(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  // Space toggles playback unless typing or on a control that uses it.
  if (event.key !== " " || $("#story").hidden || event.target.closest("input, textarea, select, button, summary, a")) return;
  event.preventDefault();
  $("#play").click();
});

// MARK: Export

function renderExport() {
  const render = current.reply.render;
  const link = $("#export-download");
  link.hidden = !render;
  if (render) {
    link.href = render.url;
    link.textContent = `Download the ${render.format.toUpperCase()} (${formatDuration(render.duration_seconds)})`;
  }
}

$("#export-start").addEventListener("click", async () => {
  const status = $("#export-status");
  const bar = $("#export-bar");
  try {
    const job = await api(`/api/stories/${current.id}/render`, { method: "POST", json: { format: $("#export-format").value } });
    $("#export-progress-label").hidden = false;
    $("#export-start").disabled = true;
    const done = await followJob(job.id, (snapshot) => {
      bar.value = snapshot.progress;
      status.textContent = snapshot.status === "queued" ? "Waiting for a worker…" : (snapshot.message ?? "Exporting…");
    });
    $("#export-start").disabled = false;
    status.textContent = done.status === "succeeded" ? "Export finished." : `Export failed: ${done.error ?? "unknown error"}.`;
    current.reply = await api(`/api/stories/${current.id}/analysis`);
    renderExport();
  } catch (error) {
    $("#export-start").disabled = false;
    status.textContent = error instanceof APIError ? error.message : String(error);
  }
});
