// #/journeys/:id — the journey's player. The story is told while it plays: the server writes
// and voices parts ahead of the listener, a sentence at a time, and this screen plays each
// sentence's WAV one after another, across parts. When the next sentence does not exist yet it
// says "Preparing the next part…" and goes on by itself once the journey (read again every
// 1.5 s while it is being told) has it. The position is sent to the server as each sentence
// starts (it writes ahead of it), and a journey opens where it was left.
//
// User Timing marks (read by the browser test): "storyvoice:journey-sentence-playing" and
// "storyvoice:journey-sentence-ended" (detail {part, sentence}), "storyvoice:journey-waiting";
// the <audio> element's data-key is the "part:sentence" it holds (none for the unlocking silence).
import { api, followJob, isAbort } from "../shared/api.js";
import { AudioClips } from "../shared/clips.js";
import { $, el, markup } from "../shared/dom.js";
import { downloadLink } from "../shared/download.js";
import { autoplayKey, send, statusName, styles } from "./common.js";
import { formatDistance, formatTrip, modeName, partsText, routeDrawing, tripName } from "./route.js";

const pollEvery = 1500;
const speedKey = "storyvoice:journey-speed";
const speeds = [0.75, 1, 1.25, 1.5];

const html = `
<section id="journey" aria-labelledby="journey-title">
  <p class="back"><a href="#/journeys">← Journeys</a></p>
  <h2 id="journey-title"></h2>
  <p id="journey-meta" class="hint"></p>
  <p id="journey-error" class="error" role="alert" hidden></p>
  <div class="journey-layout">
    <div id="journey-map"></div>
    <div id="journey-player" class="journey-player" data-state="idle">
      <p class="journey-where"><span id="journey-where"></span> <span id="journey-ahead" class="hint"></span></p>
      <div class="journey-controls">
        <button type="button" id="journey-previous" class="secondary icon" aria-label="Previous part" title="Previous part">⏮</button>
        <button type="button" id="journey-play" aria-keyshortcuts="Space">Play</button>
        <button type="button" id="journey-next" class="secondary icon" aria-label="Next part" title="Next part">⏭</button>
        <label class="journey-speed">Speed
          <select id="journey-speed"></select>
        </label>
      </div>
      <p id="journey-status" role="status" aria-live="polite"></p>
      <audio id="journey-audio" preload="auto"></audio>
    </div>
  </div>
  <section class="journey-part" aria-labelledby="journey-text-title">
    <h3 id="journey-text-title">Part 1</h3>
    <p id="journey-text" class="journey-text"></p>
  </section>
  <section class="journey-parts" aria-labelledby="journey-parts-title">
    <h3 id="journey-parts-title">Parts</h3>
    <ol id="journey-parts"></ol>
  </section>
  <section class="journey-export" aria-labelledby="journey-export-title">
    <h3 id="journey-export-title">Download</h3>
    <p class="hint">An audiobook (M4B) of the parts told so far, a chapter per part.</p>
    <div class="actions">
      <button type="button" id="journey-export-start" class="secondary">Download audio</button>
      <progress id="journey-export-bar" max="1" value="0" hidden aria-label="Export progress"></progress>
      <span id="journey-export-link"></span>
    </div>
    <p id="journey-export-status" role="status" aria-live="polite"></p>
  </section>
</section>`;

/** A tenth of a second of silence, as a WAV object URL (made once). */
let silence = null;
function silentWav() {
  if (silence) return silence;
  const rate = 8000;
  const samples = rate / 10;
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (at, value) => [...value].forEach((char, i) => view.setUint8(at + i, char.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples * 2, true); text(8, "WAVE");
  text(12, "fmt "); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true);
  text(36, "data"); view.setUint32(40, samples * 2, true);
  silence = URL.createObjectURL(new Blob([view], { type: "audio/wav" }));
  return silence;
}

/** Seconds a sentence lasts: the server's figure, else a guess from its length. */
const secondsOf = (sentence) => (Number.isFinite(sentence?.duration_s) && sentence.duration_s > 0 ? sentence.duration_s : Math.max(1, (sentence?.text?.length ?? 40) / 15));

export default function playerScreen() {
  let stop = () => {};

  return {
    async mount(container, params, context) {
      const { signal } = context;
      const q = (selector) => $(selector, container);
      const id = params.id;

      let journey;
      try {
        journey = await api(`/api/journeys/${encodeURIComponent(id)}`, { signal });
      } catch (error) {
        if (isAbort(error) || error.code === "session_ended") throw error;
        if (error.status === 404 || error.status === 400) {
          return context.showProblem("Journey not found", "There is no journey of yours at this address: it may have been deleted.", [["/journeys", "Go to your journeys"]]);
        }
        throw error;
      }
      container.replaceChildren(markup(html));
      const audio = q("#journey-audio");
      const total = () => journey.plan.parts;

      let position = { part: journey.playhead?.part ?? 1, sentence: journey.playhead?.sentence ?? 0 };
      let playing = false; // the listener wants to hear it
      let waiting = false; // ...and the sentence to play does not exist yet
      let ended = false;
      let generation = 0; // bumps on every move, pause or stop: stale callbacks do nothing
      let disposed = false;
      let unlocked = false; // the audio element has played from a press (see unlock())
      let pollTimer = null;
      let lastSent = null; // the playhead last sent to the server
      let shownPart = null; // the part whose text is shown, and how many sentences it showed
      let shownCount = -1;
      const clips = new AudioClips({ signal }); // "part:sentence" -> its WAV
      const counts = new Map(); // part -> sentences it had when last read
      let speed = Number(localStorage.getItem(speedKey));
      if (!speeds.includes(speed)) speed = 1;

      // Style names ("Children's" for "childrens"), for the line under the title.
      const styleNames = new Map();
      styles(signal).then((list) => {
        for (const style of list) styleNames.set(style.id, style.name);
        if (!disposed) renderHeader();
      }).catch(() => {});

      // --- The route ---------------------------------------------------------------------
      const drawing = routeDrawing(journey.plan, { label: "The route" });
      q("#journey-map").append(drawing.element);

      const partOf = (number) => journey.parts.find((part) => part.number === number) ?? null;
      const sentenceAt = (number, index) => partOf(number)?.sentences?.[index] ?? null;
      const key = (number, index) => `${number}:${index}`;

      // --- Drawing the state ---------------------------------------------------------------
      function name() { return journey.title || tripName(journey.plan.start, journey.plan.end); }

      function renderHeader() {
        q("#journey-title").textContent = name();
        context.setTitle(name());
        const plan = journey.plan;
        const style = journey.style === "custom" ? "your own style" : `${(styleNames.get(journey.style) ?? journey.style ?? "").toLowerCase()} story`;
        q("#journey-meta").textContent = [journey.title ? tripName(plan.start, plan.end) : null,
          `${formatDistance(plan.distance_m)} ${modeName(plan.mode).toLowerCase()}, ${formatTrip(plan.duration_s)}`,
          partsText(plan.parts), journey.style ? style : null, statusName(journey.status)].filter(Boolean).join(" · ");
        const error = q("#journey-error");
        error.hidden = !(journey.status === "failed" || journey.error);
        error.textContent = journey.error ?? (journey.status === "failed" ? "This story could not go on." : "");
      }

      function renderParts() {
        const list = q("#journey-parts");
        const items = [];
        let readyAhead = 0;
        // Every part begun, the one playing, and a few after; the rest of a long trip as a count.
        const begun = journey.parts.reduce((last, part) => Math.max(last, part.number), 0);
        const shown = Math.min(total(), Math.max(begun, position.part) + 4);
        for (let number = 1; number <= shown; number += 1) {
          const part = partOf(number);
          const status = part ? part.status : "pending";
          const current = number === position.part;
          if (number > position.part && status === "ready" && readyAhead === number - position.part - 1) readyAhead += 1;
          const word = current ? (playing && !waiting ? "playing" : "here")
            : status === "ready" ? (number > position.part ? "ready" : "told")
              : status === "writing" ? "being written" : "not begun";
          items.push({ number, status, current, word, fallback: part?.fallback });
        }
        // One item per part, updated in place.
        list.querySelector(".journey-parts-more")?.remove();
        while (list.children.length > items.length) list.lastElementChild.remove();
        items.forEach((item, at) => {
          let row = list.children[at];
          if (!row) {
            row = el("li", {}, el("button", { type: "button", className: "link journey-part-go", onclick: () => moveTo({ part: item.number, sentence: 0 }) }),
              el("span", { className: "journey-part-state" }));
            list.append(row);
          }
          row.dataset.part = String(item.number);
          row.dataset.status = item.status;
          row.classList.toggle("current", item.current);
          row.classList.toggle("ahead", item.number > position.part && item.status === "ready");
          if (item.current) row.setAttribute("aria-current", "step");
          else row.removeAttribute("aria-current");
          const button = row.firstElementChild;
          button.textContent = `Part ${item.number}`;
          button.setAttribute("aria-label", `Part ${item.number}, ${item.word}${item.fallback ? ", told from its outline" : ""}: play from here`);
          row.lastElementChild.textContent = item.word + (item.fallback ? " (from its outline)" : "");
        });
        if (shown < total()) {
          const more = total() - shown;
          list.append(el("li", { className: "journey-parts-more" }, `and ${more} more part${more === 1 ? "" : "s"}, written as you listen`));
        }
        q("#journey-ahead").textContent = journey.status === "complete" && !ended ? "· every part is ready"
          : `· ${readyAhead} part${readyAhead === 1 ? "" : "s"} ready ahead`;
        q("#journey-ahead").dataset.ahead = String(readyAhead);
      }

      function renderText() {
        const part = partOf(position.part);
        const sentences = part?.sentences ?? [];
        q("#journey-text-title").textContent = `Part ${position.part} of ${total()}`;
        if (shownPart !== position.part || shownCount !== sentences.length) {
          shownPart = position.part;
          shownCount = sentences.length;
          const text = q("#journey-text");
          if (!sentences.length) {
            text.replaceChildren(el("span", { className: "hint" }, part?.status === "writing" ? "This part is being written…" : "This part has not been begun yet."));
          } else {
            const nodes = [];
            sentences.forEach((sentence, index) => {
              // The journey's spoken title stands apart from the story, on a line of its own.
              if (index) nodes.push(sentences[index - 1].announcement ? el("br") : " ");
              nodes.push(el("span", { className: sentence.announcement ? "sentence announcement" : "sentence", dataset: { index: String(index) } }, sentence.text));
            });
            if (part.status === "writing") nodes.push(" ", el("span", { className: "hint more" }, "…"));
            text.replaceChildren(...nodes);
          }
          text.dataset.part = String(position.part);
        }
        for (const span of q("#journey-text").querySelectorAll(".sentence")) {
          const speaking = Number(span.dataset.index) === position.sentence && audio.dataset.key === key(position.part, position.sentence) && !waiting;
          span.classList.toggle("speaking", speaking);
          if (speaking) span.setAttribute("aria-current", "true");
          else span.removeAttribute("aria-current");
        }
      }

      /** How far along the route the story is: (part − 1 + fraction of the part) / parts. */
      function progress() {
        if (ended) return 1;
        const part = partOf(position.part);
        const sentences = part?.sentences ?? [];
        let before = 0;
        for (let index = 0; index < Math.min(position.sentence, sentences.length); index += 1) before += secondsOf(sentences[index]);
        const playingThis = audio.dataset.key === key(position.part, position.sentence);
        const within = before + (playingThis && Number.isFinite(audio.currentTime) ? audio.currentTime : 0);
        const known = sentences.reduce((sum, sentence) => sum + secondsOf(sentence), 0);
        const length = part?.status === "ready" ? (part.duration_s > 0 ? part.duration_s : known) : Math.max(60, known);
        const fraction = length > 0 ? Math.min(1, within / length) : 0;
        return (position.part - 1 + fraction) / total();
      }
      const renderProgress = () => drawing.at(progress());

      function renderState() {
        const state = ended ? "ended" : waiting ? "waiting" : playing ? "playing" : audio.dataset.key ? "paused" : "idle";
        const player = q("#journey-player");
        player.dataset.state = state;
        player.dataset.part = String(position.part);
        player.dataset.sentence = String(position.sentence);
        const button = q("#journey-play");
        button.textContent = playing ? (waiting ? "Pause (preparing…)" : "Pause") : "Play";
        button.classList.toggle("preparing", playing && waiting);
        q("#journey-where").textContent = ended ? "The end" : `Part ${position.part} of ${total()}`;
        q("#journey-previous").disabled = position.part <= 1 && position.sentence === 0;
        q("#journey-next").disabled = position.part >= total();
        mediaSession(state);
      }

      function say(text, { error = false } = {}) {
        const status = q("#journey-status");
        if (status.textContent !== text) status.textContent = text;
        status.classList.toggle("error", error);
      }

      function render() {
        renderHeader();
        renderParts();
        renderText();
        renderState();
        renderProgress();
      }

      // --- The media session: lock screen, headset buttons -------------------------------
      const session = "mediaSession" in navigator ? navigator.mediaSession : null;
      function mediaSession(state) {
        if (!session || disposed) return;
        try {
          if (typeof MediaMetadata !== "undefined") {
            const album = `Part ${position.part} of ${total()}`;
            const current = session.metadata;
            if (!current || current.title !== name() || current.album !== album) {
              session.metadata = new MediaMetadata({ title: name(), artist: "StoryVoice", album });
            }
          }
          session.playbackState = state === "playing" || state === "waiting" ? "playing" : state === "idle" ? "none" : "paused";
        } catch {
          // A browser without some of it: the page's own controls still work.
        }
      }
      if (session) {
        const handlers = { play: () => play(), pause: () => pause(), nexttrack: () => next(), previoustrack: () => previous() };
        for (const [action, handler] of Object.entries(handlers)) {
          try { session.setActionHandler(action, handler); } catch { /* not supported here */ }
        }
      }

      // --- The server: the playhead, and the journey read again while it is told -----------
      function sendPlayhead() {
        const wanted = key(position.part, position.sentence);
        if (wanted === lastSent || disposed) return;
        lastSent = wanted;
        send(`/api/journeys/${journey.id}/playhead`, { method: "PUT", json: { part: position.part, sentence: position.sentence }, signal })
          .then((reply) => { if (reply?.id === journey.id) apply(reply); })
          .catch((error) => {
            if (isAbort(error) || error.code === "session_ended") return;
            if (lastSent === wanted) lastSent = null; // sent again with the next move
            console.warn("The playhead was not saved:", error.message);
          });
      }

      function schedulePoll() {
        clearTimeout(pollTimer);
        pollTimer = null;
        if (disposed || journey.status !== "telling") return;
        pollTimer = setTimeout(poll, pollEvery);
      }

      async function poll() {
        pollTimer = null;
        if (disposed) return;
        try {
          apply(await api(`/api/journeys/${journey.id}`, { signal }));
        } catch (error) {
          if (isAbort(error) || error.code === "session_ended" || disposed) return;
          if (error.status === 404) {
            stopAll();
            return context.showProblem("Journey not found", "This journey was deleted.", [["/journeys", "Go to your journeys"]]);
          }
          // A dropped connection: try again on the next beat.
        }
        schedulePoll();
      }

      /** A fresh copy of the journey from the server: draw it, and go on if we were waiting. */
      function apply(fresh) {
        if (disposed) return;
        const wasTelling = journey.status === "telling";
        journey = fresh;
        // A part written again has fewer sentences than before, other audio under the same
        // numbers: forget what was fetched of it (but the sentence sounding now).
        for (const part of journey.parts) {
          if (part.sentences.length < (counts.get(part.number) ?? 0)) {
            for (const wanted of clips.keys()) {
              if (wanted.startsWith(`${part.number}:`) && wanted !== audio.dataset.key) clips.forget(wanted);
            }
          }
          counts.set(part.number, part.sentences.length);
        }
        render();
        if (playing && waiting) play(true);
        else if (playing) prefetchNext();
        if (!pollTimer && journey.status === "telling") schedulePoll();
        if (wasTelling && journey.status !== "telling") clearTimeout(pollTimer);
        if (journey.status === "failed" && waiting) say(journey.error ?? "This story could not go on.", { error: true });
      }

      // --- Audio: each sentence's WAV (js/shared/clips.js) ----------------------------------
      function clip(number, index) {
        return clips.fetch(key(number, index), sentenceAt(number, index).audio_url).promise;
      }

      /** The position after this one, if the journey has it yet (null: not yet; "end": the end). */
      function following(from) {
        const part = partOf(from.part);
        if (part && from.sentence + 1 < part.sentences.length) return { part: from.part, sentence: from.sentence + 1 };
        if (part?.status === "ready") {
          if (from.part >= total()) return "end";
          return sentenceAt(from.part + 1, 0) ? { part: from.part + 1, sentence: 0 } : null;
        }
        return null;
      }

      function prefetchNext() {
        const after = following(position);
        const keep = [key(position.part, position.sentence)];
        if (after && after !== "end") {
          keep.push(key(after.part, after.sentence));
          clip(after.part, after.sentence).catch(() => {});
        }
        clips.keepOnly(keep);
      }

      /** Moves past a finished part to the next one; answers "play", "wait" or "end". */
      function settle() {
        for (;;) {
          const part = partOf(position.part);
          if (sentenceAt(position.part, position.sentence)) return "play";
          // Past the end of a part being written (it was started again): wait at its end.
          if (part?.status === "writing" && position.sentence > part.sentences.length) {
            position = { part: position.part, sentence: part.sentences.length };
            return "wait";
          }
          if (part?.status === "ready" && position.sentence >= part.sentences.length) {
            if (position.part >= total()) return "end";
            position = { part: position.part + 1, sentence: 0 };
            continue;
          }
          return "wait";
        }
      }

      function setWaiting(now) {
        if (waiting === now) return;
        waiting = now;
        if (now) performance.mark("storyvoice:journey-waiting", { detail: { ...position } });
      }

      /** Plays from the position (or resumes the sentence paused there). */
      async function play(fromPoll = false) {
        if (disposed) return;
        if (!fromPoll) unlock();
        const resuming = !fromPoll && !waiting && audio.dataset.key === key(position.part, position.sentence)
          && audio.paused && audio.currentTime > 0 && !audio.ended;
        if (ended) {
          // Play after the end: the story from its beginning.
          position = { part: 1, sentence: 0 };
          ended = false;
        }
        playing = true;
        if (resuming) return sound(generation);
        const current = ++generation;
        const next = settle();
        if (next === "end") return finish();
        sendPlayhead();
        if (next === "wait") {
          setWaiting(true);
          say(journey.status === "failed" ? (journey.error ?? "This story could not go on.") : "Preparing the next part…", { error: journey.status === "failed" });
          render();
          schedulePoll();
          return;
        }
        let url;
        try {
          url = await clip(position.part, position.sentence);
        } catch (error) {
          if (current !== generation || isAbort(error) || disposed) return;
          if ((error.status === 404 || error.code === "not_ready") && journey.status === "telling") {
            // Listed but not written to disk yet: wait for the next look at the journey.
            setWaiting(true);
            say("Preparing the next part…");
            render();
            schedulePoll();
            return;
          }
          pause();
          say(`Part ${position.part} could not be played: ${error.message}`, { error: true });
          return;
        }
        if (current !== generation || !playing || disposed) return;
        setWaiting(false);
        audio.dataset.key = key(position.part, position.sentence);
        audio.src = url;
        audio.preservesPitch = true;
        audio.playbackRate = speed;
        return sound(current);
      }

      /** Starts the audio element on what it holds; a refusal (autoplay) asks for Play. */
      async function sound(current) {
        say(`Playing part ${position.part} of ${total()}`);
        render();
        try {
          await audio.play();
        } catch (error) {
          if (current === generation) refused(error);
        }
      }

      /**
       * Plays a moment of silence in the element while the listener's press is still the
       * current gesture: browsers that allow sound only from a gesture (Safari) then let the
       * element play the sentences that arrive later, when no press is going on.
       */
      function unlock() {
        if (unlocked || audio.dataset.key) return;
        unlocked = true;
        audio.src = silentWav();
        audio.play().catch(() => { unlocked = false; });
      }

      function refused(error) {
        if (error?.name === "AbortError") return;
        playing = false;
        setWaiting(false);
        say(error?.name === "NotAllowedError" ? "Press Play to start listening." : `The browser would not play: ${error?.message ?? "unknown error"}`,
          { error: error?.name !== "NotAllowedError" });
        render();
      }

      function pause() {
        playing = false;
        generation += 1;
        audio.pause();
        setWaiting(false);
        if (!ended) say("Paused");
        render();
      }

      function finish() {
        playing = false;
        setWaiting(false);
        ended = true;
        audio.pause();
        say("The end: the whole story has been told.");
        render();
      }

      /** Goes to a part and sentence: plays from there if playing, else waits there. */
      function moveTo(where) {
        generation += 1;
        audio.pause();
        audio.removeAttribute("src");
        delete audio.dataset.key;
        ended = false;
        position = { part: Math.max(1, Math.min(total(), where.part)), sentence: Math.max(0, where.sentence) };
        setWaiting(false);
        if (playing) {
          play();
        } else {
          sendPlayhead(); // the server makes this part first
          say(`Part ${position.part} of ${total()}: press Play to listen.`);
          render();
        }
      }
      const next = () => { if (position.part < total()) moveTo({ part: position.part + 1, sentence: 0 }); };
      // Back a part, or to the start of the first part.
      const previous = () => moveTo({ part: Math.max(1, position.part - 1), sentence: 0 });

      audio.addEventListener("playing", () => {
        if (!audio.dataset.key) return; // the silence that unlocks the element
        unlocked = true;
        performance.mark("storyvoice:journey-sentence-playing", { detail: { ...position } });
        prefetchNext();
        renderState();
      }, { signal });
      audio.addEventListener("timeupdate", renderProgress, { signal });
      audio.addEventListener("ended", () => {
        if (!audio.dataset.key || audio.dataset.key !== key(position.part, position.sentence)) return;
        performance.mark("storyvoice:journey-sentence-ended", { detail: { ...position } });
        const after = following(position);
        if (after === "end") return finish();
        position = after ?? { part: position.part, sentence: position.sentence + 1 };
        if (playing) play();
      }, { signal });
      audio.addEventListener("error", () => {
        if (!audio.dataset.key || !playing) return;
        pause();
        say(`Part ${position.part} could not be played: the browser could not read its audio.`, { error: true });
      }, { signal });

      // --- Controls --------------------------------------------------------------------------
      q("#journey-play").addEventListener("click", () => (playing ? pause() : play()), { signal });
      q("#journey-next").addEventListener("click", next, { signal });
      q("#journey-previous").addEventListener("click", previous, { signal });
      const speedSelect = q("#journey-speed");
      speedSelect.append(...speeds.map((value) => el("option", { value: String(value), selected: value === speed }, `${value}×`)));
      speedSelect.addEventListener("change", () => {
        speed = Number(speedSelect.value);
        localStorage.setItem(speedKey, String(speed));
        audio.preservesPitch = true;
        audio.playbackRate = speed;
      }, { signal });
      document.addEventListener("keydown", (event) => {
        if (event.code !== "Space" || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
        if (event.target.closest?.("input, select, textarea, button, a, [contenteditable], dialog")) return;
        event.preventDefault();
        if (playing) pause();
        else play();
      }, { signal });

      // --- Download ------------------------------------------------------------------------
      q("#journey-export-start").addEventListener("click", async () => {
        const button = q("#journey-export-start");
        const bar = q("#journey-export-bar");
        const status = q("#journey-export-status");
        const sayExport = (text, error = false) => { status.textContent = text; status.classList.toggle("error", error); };
        button.disabled = true;
        q("#journey-export-link").replaceChildren();
        sayExport("Starting the export…");
        try {
          const { job } = await send(`/api/journeys/${journey.id}/export`, { signal });
          bar.hidden = false;
          bar.value = job.progress ?? 0;
          const done = await followJob(job.id, (snapshot) => {
            bar.value = snapshot.progress ?? 0;
            sayExport(snapshot.status === "queued" ? "Waiting for a worker…"
              : `${snapshot.message ?? "Making the audiobook…"} ${Math.round((snapshot.progress ?? 0) * 100)}%`);
          }, { signal });
          bar.hidden = true;
          if (done.status === "succeeded") {
            sayExport("The audiobook is ready.");
            q("#journey-export-link").replaceChildren(downloadLink(`/api/journeys/${journey.id}/audio`, {
              signal, id: "journey-export-download", className: "button", onError: (message) => sayExport(message, true) },
            "Download the M4B"));
          } else {
            sayExport(`The audiobook was not made: ${done.error ?? done.status}.`, true);
          }
        } catch (error) {
          if (isAbort(error)) return;
          bar.hidden = true;
          sayExport(error.message, true);
        } finally {
          if (!signal.aborted) button.disabled = false;
        }
      }, { signal });

      // --- Stopping with the screen ----------------------------------------------------------
      function stopAll() {
        disposed = true;
        clearTimeout(pollTimer);
        pollTimer = null;
        generation += 1;
        audio.pause();
        audio.removeAttribute("src");
        audio.load();
        clips.dispose();
        if (session) {
          for (const action of ["play", "pause", "nexttrack", "previoustrack"]) {
            try { session.setActionHandler(action, null); } catch { /* not supported here */ }
          }
          session.metadata = null;
          session.playbackState = "none";
        }
      }
      stop = stopAll;
      signal.addEventListener("abort", stopAll, { once: true });

      // --- Start -----------------------------------------------------------------------------
      for (const part of journey.parts) counts.set(part.number, part.sentences.length);
      settle();
      render();
      schedulePoll();
      if (sessionStorage.getItem(autoplayKey) === journey.id) {
        sessionStorage.removeItem(autoplayKey);
        play();
      } else if (journey.status === "failed" && !journey.parts.length) {
        say(journey.error ?? "This story could not go on.", { error: true });
      } else {
        const begun = position.part > 1 || position.sentence > 0;
        say(begun ? `Press Play to go on from part ${position.part}.` : "Press Play to listen.");
      }
    },
    unmount() {
      stop();
    },
  };
}
