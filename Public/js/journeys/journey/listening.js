// Listening: the story is told while it plays. Each sentence's WAV is played after the one before,
// across parts, through the shared AudioQueue (js/shared/audio-queue.js); the sentences are
// fetched by AudioClips, the one playing and the next. When the next sentence does not exist yet
// the player says "Preparing the next part…" and goes on by itself once the journey, read again
// while it is told (updates.js), has it. Play, pause, the parts before and after, the speed and
// the space bar.
//
// User Timing marks (read by the browser test): "storyvoice:journey-sentence-playing" and
// "storyvoice:journey-sentence-ended" (detail {part, sentence}), "storyvoice:journey-waiting";
// the <audio> element's data-key is the "part:sentence" it holds (none for the unlocking silence).
import { isAbort } from "../../shared/api.js";
import { AudioQueue } from "../../shared/audio-queue.js";
import { AudioClips } from "../../shared/clips.js";
import { el } from "../../shared/dom.js";

const speedKey = "storyvoice:journey-speed";
const speeds = [0.75, 1, 1.25, 1.5];

export function listeningPart(view) {
  const { $, signal } = view;
  const clips = new AudioClips({ signal }); // "part:sentence" -> its WAV
  const counts = new Map(); // part -> sentences it had when last read
  for (const part of view.journey.parts) counts.set(part.number, part.sentences.length);
  const sentenceAt = (number, index) => view.partOf(number)?.sentences?.[index] ?? null;
  const key = view.key;

  function clip(number, index) {
    return clips.fetch(key(number, index), sentenceAt(number, index).audio_url).promise;
  }

  /** The position after `from`, if the journey has it yet (null: not yet; "end": the end). */
  function following(from) {
    const part = view.partOf(from.part);
    if (part && from.sentence + 1 < part.sentences.length) return { part: from.part, sentence: from.sentence + 1 };
    if (part?.status === "ready") {
      if (from.part >= view.total()) return "end";
      return sentenceAt(from.part + 1, 0) ? { part: from.part + 1, sentence: 0 } : null;
    }
    return null;
  }

  function prefetchNext() {
    const after = following(view.position);
    const keep = [key(view.position.part, view.position.sentence)];
    if (after && after !== "end") {
      keep.push(key(after.part, after.sentence));
      clip(after.part, after.sentence).catch(() => {});
    }
    clips.keepOnly(keep);
  }

  /** Moves past a finished part to the next one; answers "play", "wait" or "end". */
  function settle() {
    for (;;) {
      const position = view.position;
      const part = view.partOf(position.part);
      if (sentenceAt(position.part, position.sentence)) return "play";
      // Past the end of a part being written (it was started again): wait at its end.
      if (part?.status === "writing" && position.sentence > part.sentences.length) {
        view.position = { part: position.part, sentence: part.sentences.length };
        return "wait";
      }
      if (part?.status === "ready" && position.sentence >= part.sentences.length) {
        if (position.part >= view.total()) return "end";
        view.position = { part: position.part + 1, sentence: 0 };
        continue;
      }
      return "wait";
    }
  }

  /** What the queue plays next: the sentence at the position, once it is written and fetched. */
  async function next() {
    const step = settle();
    if (step === "end") return "end";
    view.sendPlayhead();
    if (step === "wait") return "wait";
    try {
      return { key: key(view.position.part, view.position.sentence), url: await clip(view.position.part, view.position.sentence) };
    } catch (error) {
      // Listed but not written to disk yet: wait for the next look at the journey.
      if ((error.status === 404 || error.code === "not_ready") && view.journey.status === "telling") return "wait";
      throw error;
    }
  }

  const queue = new AudioQueue({
    audio: $("#journey-audio"),
    signal,
    next,
    on: {
      sounding: () => {
        view.say(`Playing part ${view.position.part} of ${view.total()}`);
        view.render();
      },
      playing: () => {
        performance.mark("storyvoice:journey-sentence-playing", { detail: { ...view.position } });
        prefetchNext();
        view.renderState();
      },
      ended: (ended) => {
        const position = view.position;
        if (ended !== key(position.part, position.sentence)) return false;
        performance.mark("storyvoice:journey-sentence-ended", { detail: { ...position } });
        // Past the last sentence of a finished part: `settle` goes on to the next part, or ends.
        const after = following(position);
        view.position = after && after !== "end" ? after : { part: position.part, sentence: position.sentence + 1 };
        return true;
      },
      waiting: (now) => {
        if (!now) return;
        performance.mark("storyvoice:journey-waiting", { detail: { ...view.position } });
        const failed = view.journey.status === "failed";
        view.say(failed ? (view.journey.error ?? "This story could not go on.") : "Preparing the next part…", { error: failed });
        view.render();
        view.schedulePoll();
      },
      end: finish,
      refused: (error) => {
        view.say(error?.name === "NotAllowedError" ? "Press Play to start listening." : `The browser would not play: ${error?.message ?? "unknown error"}`,
          { error: error?.name !== "NotAllowedError" });
        view.render();
      },
      failed: (error) => {
        if (isAbort(error) || view.disposed) return;
        pause();
        view.say(`Part ${view.position.part} could not be played: ${error.message}`, { error: true });
      },
      error: () => {
        pause();
        view.say(`Part ${view.position.part} could not be played: the browser could not read its audio.`, { error: true });
      },
      time: () => view.renderProgress(),
    },
  });
  view.queue = queue;

  /** Plays from the position (or resumes the sentence paused there). */
  function play() {
    if (view.disposed) return;
    queue.unlock();
    if (view.ended) {
      // Play after the end: the story from its beginning.
      view.position = { part: 1, sentence: 0 };
      view.ended = false;
    }
    queue.play();
    view.render();
  }

  function pause() {
    queue.pause();
    if (!view.ended) view.say("Paused");
    view.render();
  }

  function finish() {
    view.ended = true;
    view.say("The end: the whole story has been told.");
    view.render();
  }

  /** Goes to a part and sentence: plays from there if playing, else waits there. */
  function moveTo(where) {
    queue.clear();
    view.ended = false;
    view.position = { part: Math.max(1, Math.min(view.total(), where.part)), sentence: Math.max(0, where.sentence) };
    if (queue.wanted) {
      play();
    } else {
      view.sendPlayhead(); // the server makes this part first
      view.say(`Part ${view.position.part} of ${view.total()}: press Play to listen.`);
      view.render();
    }
  }
  const nextPart = () => { if (view.position.part < view.total()) moveTo({ part: view.position.part + 1, sentence: 0 }); };
  // Back a part, or to the start of the first part.
  const previousPart = () => moveTo({ part: Math.max(1, view.position.part - 1), sentence: 0 });

  /** The journey was read again: a part written again has fewer sentences than before, other
   *  audio under the same numbers, so what was fetched of it is forgotten (but the sentence
   *  sounding now); then playing goes on if it was waiting. */
  view.heard = () => {
    for (const part of view.journey.parts) {
      if (part.sentences.length < (counts.get(part.number) ?? 0)) {
        for (const wanted of clips.keys()) {
          if (wanted.startsWith(`${part.number}:`) && wanted !== queue.key) clips.forget(wanted);
        }
      }
      counts.set(part.number, part.sentences.length);
    }
  };
  view.goOn = () => {
    if (queue.wanted && queue.waiting) queue.wake();
    else if (queue.wanted) prefetchNext();
  };
  Object.assign(view, { play, pause, moveTo, nextPart, previousPart, settle });

  // --- Controls ------------------------------------------------------------------------------
  $("#journey-play").addEventListener("click", () => (queue.wanted ? pause() : play()), { signal });
  $("#journey-next").addEventListener("click", nextPart, { signal });
  $("#journey-previous").addEventListener("click", previousPart, { signal });
  let speed = Number(localStorage.getItem(speedKey));
  if (!speeds.includes(speed)) speed = 1;
  queue.setSpeed(speed);
  const speedSelect = $("#journey-speed");
  speedSelect.append(...speeds.map((value) => el("option", { value: String(value), selected: value === speed }, `${value}×`)));
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    localStorage.setItem(speedKey, String(speed));
    queue.setSpeed(speed);
  }, { signal });
  document.addEventListener("keydown", (event) => {
    if (event.code !== "Space" || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, button, a, [contenteditable], dialog")) return;
    event.preventDefault();
    if (queue.wanted) pause();
    else play();
  }, { signal });

  return { dispose: () => { queue.dispose(); clips.dispose(); } };
}
