// The voice picker: one dialog for the whole cast, built the first time a card opens it. A search
// box (name, engine, accent, gender), the voices grouped by engine and then by gender and accent,
// quality marked, a sample of any voice on demand (one sounds at a time), and the keyboard:
// arrows move through the voices, Enter chooses, → reaches a voice's sample, Escape closes (the
// first Escape clears a search), and focus returns to the card. Choosing a voice hands it to `onChoose` (which saves it at once).
import { apiBlob, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";

const engineNames = { "espeak-ng": "eSpeak NG", flite: "Flite", festival: "Festival", piper: "Piper",
  kokoro: "Kokoro", openai: "OpenAI", elevenlabs: "ElevenLabs", gemini: "Gemini" };
// What each engine's voices sound like, in a word or two beside its name.
const engineKinds = { "espeak-ng": "formant, robotic", flite: "diphone", festival: "HTS", piper: "neural",
  kokoro: "neural", openai: "cloud, neural", elevenlabs: "cloud, neural", gemini: "cloud, neural" };
const accentNames = { "en-US": "American", "en-GB": "British", "en-GB-scotland": "Scottish",
  "en-GB-x-gbclan": "Lancastrian", "en-GB-x-rp": "Received Pronunciation", "en-GB-x-gbcwmd": "West Midlands",
  "en-029": "Caribbean", "en-US-nyc": "New York", "en-AU": "Australian", "en-IN": "Indian", "en-IE": "Irish",
  "en-ZA": "South African", "en-CA": "Canadian", "en-NZ": "New Zealand" };
const qualityWords = { 1: "robotic", 2: "plain", 3: "clear", 4: "natural", 5: "lifelike" };

export const engineName = (engine) => engineNames[engine] ?? engine;
export const accentName = (accent) => (accent ? accentNames[accent] ?? accent : null);
const known = (value) => (value && value !== "unknown" ? value : null);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** "★★★★☆" with its meaning for a screen reader. */
export function qualityMark(quality) {
  const stars = Math.max(0, Math.min(5, Math.round(quality ?? 0)));
  if (!stars) return null;
  return el("span", { className: `quality q${stars}`, role: "img", "aria-label": `quality ${stars} of 5, ${qualityWords[stars]}`,
    title: `Quality ${stars} of 5: ${qualityWords[stars]}` }, "★".repeat(stars) + "☆".repeat(5 - stars));
}

/** "Flite · American · female", and the price of a paid voice. */
export function voiceFacts(voice) {
  const price = voice.cost_per_1000_characters > 0 ? `$${voice.cost_per_1000_characters.toFixed(3)} per 1,000 characters` : null;
  return [engineName(voice.engine), accentName(voice.accent), known(voice.gender), voice.age === "elderly" ? "older" : null, price]
    .filter(Boolean).join(" · ");
}

// ---- Samples: one at a time, for the picker and the cards alike ---------------------------------

const sample = { key: null, audio: null, url: null, controller: null, onEnd: null };

/** Stops whatever sample is sounding or being fetched. */
export function stopSample() {
  sample.controller?.abort();
  sample.audio?.pause();
  if (sample.url) URL.revokeObjectURL(sample.url);
  const onEnd = sample.onEnd;
  Object.assign(sample, { key: null, audio: null, url: null, controller: null, onEnd: null });
  onEnd?.();
}

/** True while the sample called `key` is being fetched or played. */
export const samplePlaying = (key) => sample.key === key;

/**
 * Plays "Hello, I'm <name>" in `choice` (a VoiceChoice); stops any other sample first.
 * `onState("loading" | "playing" | "stopped" | Error)` follows it. `signal` is the screen's.
 */
export async function playSample(key, choice, name, { signal, onState }) {
  stopSample();
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort(), { once: true });
  Object.assign(sample, { key, controller, onEnd: () => onState("stopped") });
  onState("loading");
  try {
    const blob = await apiBlob("/api/voices/preview", { method: "POST", json: { ...choice, name }, signal: controller.signal });
    if (sample.controller !== controller) return;
    sample.url = URL.createObjectURL(blob);
    sample.audio = new Audio(sample.url);
    sample.audio.addEventListener("ended", () => { if (sample.controller === controller) stopSample(); });
    await sample.audio.play();
    if (sample.controller === controller) onState("playing");
  } catch (error) {
    if (sample.controller !== controller) return;
    sample.onEnd = null;
    stopSample();
    if (!isAbort(error)) onState(error);
  }
}

// ---- The picker ----------------------------------------------------------------------------------

/** Lower-case words a search term may start: the name, engine, accent (code and words), gender. */
function searchWords(voice) {
  return [voice.name, voice.engine, engineName(voice.engine), engineKinds[voice.engine], voice.accent, accentName(voice.accent),
    known(voice.gender), known(voice.age), voice.id, voice.cost_per_1000_characters > 0 ? "paid cloud" : "free",
    qualityWords[voice.quality]].filter(Boolean).join(" ").toLowerCase().split(/[\s·,:+()_-]+/).filter(Boolean);
}

function matches(words, terms) {
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}

/** Voices grouped by engine (best first), then by gender and accent. */
function grouped(voices) {
  const engines = new Map();
  for (const voice of voices) {
    if (!engines.has(voice.engine)) engines.set(voice.engine, []);
    engines.get(voice.engine).push(voice);
  }
  const best = (list) => Math.max(...list.map((voice) => voice.quality ?? 0));
  const genderOrder = { female: 0, male: 1 };
  return [...engines.entries()]
    .sort(([a, la], [b, lb]) => best(lb) - best(la) || engineName(a).localeCompare(engineName(b)))
    .map(([engine, list]) => {
      const groups = new Map();
      for (const voice of list) {
        const key = `${known(voice.gender) ?? "any"}|${accentName(voice.accent) ?? ""}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(voice);
      }
      const sections = [...groups.entries()].sort(([a], [b]) => {
        const [ga, aa] = a.split("|");
        const [gb, ab] = b.split("|");
        return (genderOrder[ga] ?? 2) - (genderOrder[gb] ?? 2) || aa.localeCompare(ab);
      }).map(([key, members]) => {
        const [gender, accent] = key.split("|");
        const label = [gender === "any" ? "Any voice" : capital(gender), accent].filter(Boolean).join(" · ");
        return { label, voices: members.sort((a, b) => (b.quality ?? 0) - (a.quality ?? 0) || a.name.localeCompare(b.name, undefined, { numeric: true })) };
      });
      return { engine, sections };
    });
}

/**
 * The picker of one story screen: `open({...})` shows it for one card. The dialog is created the
 * first time and lives inside `host`, so it goes with the screen.
 */
export function voicePicker(host, { signal }) {
  let dialog = null;
  let parts = null; // the dialog's elements
  let rows = []; // {voice, words, row, choose, sampleButton}
  let builtFor = null; // the voice list the rows were built from
  let session = null; // the card the picker is open for: {role, name, current, opener, onChoose, choice}

  function build() {
    const title = el("h3", { id: "voice-picker-title" });
    const now = el("p", { className: "hint", id: "voice-picker-now" });
    const search = el("input", { type: "search", id: "voice-picker-search", placeholder: "Search by name, engine, accent or gender",
      autocomplete: "off", spellcheck: false, "aria-label": "Search voices", "aria-controls": "voice-picker-list",
      "aria-describedby": "voice-picker-count", oninput: filter, onkeydown: searchKeys });
    const count = el("p", { className: "hint", id: "voice-picker-count", "aria-live": "polite" });
    const list = el("div", { className: "picker-list", id: "voice-picker-list", onkeydown: listKeys, onclick: listClicks });
    const close = el("button", { type: "button", className: "secondary icon", "aria-label": "Close the voice picker", onclick: hide }, "✕");
    // A modal dialog in the top layer as a popover: showModal() would make the rest of the page
    // inert, which costs seconds on a novel's page; aria-modal, the focus kept inside and
    // Escape or a click outside to close give the same dialog for a fraction of that.
    dialog = el("div", { className: "voice-picker", role: "dialog", "aria-modal": "true", popover: "manual",
      "aria-labelledby": "voice-picker-title", "aria-describedby": "voice-picker-now", onkeydown: dialogKeys },
    el("div", { className: "picker-head" }, title, close), now, search, count, list);
    dialog.addEventListener("toggle", (event) => { if (event.newState === "closed") closed(); });
    host.append(dialog);
    // A click outside the picker closes it, as a click on a dialog's backdrop would.
    document.addEventListener("pointerdown", (event) => {
      if (isOpen() && !dialog.contains(event.target)) hide();
    }, { signal, capture: true });
    parts = { title, now, search, count, list };
  }

  const isOpen = () => Boolean(dialog?.matches(":popover-open"));
  function hide() {
    if (isOpen()) dialog.hidePopover();
  }

  /** Escape closes; Tab and Shift+Tab stay inside the picker. */
  function dialogKeys(event) {
    if (event.key === "Escape" && !event.defaultPrevented) {
      event.preventDefault();
      hide();
    } else if (event.key === "Tab") {
      const stops = [...dialog.querySelectorAll("button, input")].filter((node) => node.tabIndex >= 0 && !node.disabled && node.checkVisibility());
      const first = stops[0];
      const last = stops.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  }

  /** One row per voice, made once per voice list; filtering only hides rows. */
  function fill(voices) {
    rows = [];
    const engines = grouped(voices).map(({ engine, sections }) => {
      const heading = el("h4", {}, engineName(engine), " ", el("span", { className: "badge" }, engineKinds[engine] ?? "voices"));
      const blocks = sections.map(({ label, voices: members }) => {
        const items = members.map((voice) => {
          const choose = el("button", { type: "button", className: "picker-choose", tabIndex: -1, dataset: { voice: voice.id } },
            el("span", { className: "picker-name" }, voice.name), qualityMark(voice.quality),
            el("span", { className: "picker-facts" }, voiceFacts(voice)));
          const sampleButton = el("button", { type: "button", className: "picker-sample icon secondary", tabIndex: -1,
            "aria-label": `Hear ${voice.name}`, dataset: { voice: voice.id } }, "▶");
          const row = el("li", { className: "picker-row" }, choose, sampleButton);
          rows.push({ voice, words: searchWords(voice), row, choose, sampleButton });
          return row;
        });
        return el("section", { className: "picker-group" }, el("h5", {}, label), el("ul", {}, ...items));
      });
      return el("section", { className: "picker-engine" }, heading, ...blocks);
    });
    parts.list.replaceChildren(...engines);
    if (!voices.length) parts.list.append(el("p", { className: "hint" }, "No voices could be loaded. Reload the page to try again."));
    builtFor = voices;
  }

  const visibleRows = () => rows.filter((entry) => !entry.row.hidden);

  function filter() {
    const terms = parts.search.value.toLowerCase().split(/[\s,]+/).filter(Boolean);
    let shown = 0;
    for (const entry of rows) {
      entry.row.hidden = !matches(entry.words, terms);
      if (!entry.row.hidden) shown += 1;
    }
    for (const group of parts.list.querySelectorAll(".picker-group")) group.hidden = !group.querySelector(".picker-row:not([hidden])");
    for (const engine of parts.list.querySelectorAll(".picker-engine")) engine.hidden = !engine.querySelector(".picker-group:not([hidden])");
    parts.count.textContent = terms.length
      ? (shown ? `${shown} of ${rows.length} voices match.` : `No voice matches “${parts.search.value}”.`)
      : `${rows.length} voices. Arrow keys move, Enter chooses, → then Enter plays a sample.`;
    roving(visibleRows().find((entry) => entry.voice.id === session?.current) ?? visibleRows()[0]);
    requestAnimationFrame(() => performance.mark("storyvoice:voice-picker-filtered", { detail: { shown } }));
  }

  /** Exactly one voice button is reachable with Tab: the current or first shown one. */
  function roving(entry) {
    for (const other of rows) other.choose.tabIndex = -1;
    if (entry) entry.choose.tabIndex = 0;
  }

  function move(from, step) {
    const shown = visibleRows();
    if (!shown.length) return;
    const at = shown.findIndex((entry) => entry.choose === from || entry.sampleButton === from);
    const next = step === Infinity ? shown.at(-1) : step === -Infinity ? shown[0]
      : shown[Math.max(0, Math.min(shown.length - 1, (at < 0 ? -1 : at) + step))];
    roving(next);
    next.choose.focus();
    next.choose.scrollIntoView({ block: "nearest" });
  }

  function searchKeys(event) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      const first = visibleRows()[0];
      if (first) move(first.choose, 0);
    } else if (event.key === "Enter") {
      // Enter in the box takes the only (or first) voice that matches.
      event.preventDefault();
      const first = visibleRows()[0];
      if (first && parts.search.value.trim()) choose(first.voice);
    } else if (event.key === "Escape" && parts.search.value) {
      event.preventDefault(); // the first Escape clears the search, the next closes
      parts.search.value = "";
      filter();
    }
  }

  function listKeys(event) {
    const target = event.target;
    if (!target.matches?.(".picker-choose, .picker-sample")) return;
    const row = rows.find((entry) => entry.choose === target || entry.sampleButton === target);
    const steps = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8, Home: -Infinity, End: Infinity };
    if (event.key in steps) {
      event.preventDefault();
      if (event.key === "ArrowUp" && visibleRows()[0] === row) return parts.search.focus();
      move(target, steps[event.key]);
    } else if (event.key === "ArrowRight" && target === row.choose) {
      event.preventDefault();
      row.sampleButton.focus();
    } else if (event.key === "ArrowLeft" && target === row.sampleButton) {
      event.preventDefault();
      row.choose.focus();
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== " ") {
      parts.search.focus(); // typing goes on in the search box
    }
  }

  function listClicks(event) {
    const button = event.target.closest("button");
    if (!button) return;
    const entry = rows.find((candidate) => candidate.choose === button || candidate.sampleButton === button);
    if (!entry) return;
    if (button === entry.choose) choose(entry.voice);
    else toggleSample(entry);
  }

  function toggleSample(entry) {
    const key = `picker:${entry.voice.id}`;
    if (samplePlaying(key)) return stopSample();
    const button = entry.sampleButton;
    playSample(key, { ...session.choice, voice: entry.voice.id }, session.name, { signal, onState: (state) => {
      button.classList.toggle("loading", state === "loading");
      button.classList.toggle("playing", state === "playing");
      button.textContent = state === "playing" ? "■" : state === "loading" ? "…" : "▶";
      button.setAttribute("aria-label", `${state === "playing" ? "Stop" : "Hear"} ${entry.voice.name}`);
      if (state instanceof Error) parts.count.textContent = `The sample of ${entry.voice.name} failed: ${state.message}`;
    } });
  }

  function choose(voice) {
    const chosen = session;
    session = { ...session, chosen: voice };
    hide();
    chosen.onChoose(voice);
  }

  function closed() {
    stopSample();
    const { role, opener, chosen } = session ?? {};
    session = null;
    // Back to the card (it may have been rebuilt meanwhile: find it again by its role).
    const target = opener?.isConnected ? opener : host.querySelector(`.cast-card[data-role="${role}"] .voice-button`);
    if (!chosen) target?.focus();
  }

  return {
    /** Builds the picker's rows while the page is idle, so that the first open is quick. */
    prepare(voices) {
      const build_ = () => {
        if (signal.aborted || isOpen()) return;
        if (!dialog) build();
        if (builtFor !== voices) fill(voices);
      };
      if (window.requestIdleCallback) requestIdleCallback(build_, { timeout: 2000 });
      else setTimeout(build_, 200);
    },
    /**
     * Opens the picker for one card: `name` the character's, `choice` its VoiceChoice (the
     * current voice, rate, pitch and volume), `opener` the button focus returns to.
     */
    open({ role, name, choice, voices, opener, onChoose }) {
      if (!dialog) build();
      if (builtFor !== voices) fill(voices);
      session = { role, name, choice, current: choice.voice, opener, onChoose };
      parts.title.textContent = `Voice for ${name}`;
      const current = voices.find((voice) => voice.id === choice.voice);
      parts.now.textContent = `Now: ${current ? `${current.name} (${voiceFacts(current)})` : choice.voice}. Choosing a voice saves it at once.`;
      for (const entry of rows) {
        const isCurrent = entry.voice.id === choice.voice;
        entry.row.classList.toggle("current", isCurrent);
        if (isCurrent) entry.choose.setAttribute("aria-current", "true");
        else entry.choose.removeAttribute("aria-current");
      }
      parts.search.value = "";
      filter();
      if (!isOpen()) dialog.showPopover();
      parts.search.focus();
      rows.find((entry) => entry.voice.id === choice.voice)?.row.scrollIntoView({ block: "center" });
      requestAnimationFrame(() => performance.mark("storyvoice:voice-picker-shown", { detail: { voices: rows.length } }));
    },
    /** Closes the picker (the screen is going away). */
    close() {
      hide();
      stopSample();
    },
  };
}
