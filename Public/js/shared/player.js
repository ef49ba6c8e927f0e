// Plays a story's lines one after another, each from its own audio URL (for a story,
// /api/stories/:id/segments/:n/audio, rendered on the server on first request).
//
// It buffers by time, not by lines: it keeps about `bufferSeconds` of listening ahead of the
// line playing (durations read from the WAV header, or from the media metadata of other
// formats, divided by the speed), with at most `maxFetches` requests in flight. A jump fetches
// its line first, alone: other fetches are cancelled, and nothing else is asked for until it is
// in. While the line to play is not ready the player says so (`onWaiting(true)`), rather than
// pretending to play. The audio is kept in `AudioClips` (js/shared/clips.js), by line, and
// played through the shared `AudioQueue` (js/shared/audio-queue.js) with its spare element: the
// next line is loaded and decoded there while this one plays.
import { AudioQueue } from "./audio-queue.js";
import { AudioClips } from "./clips.js";

const bufferSeconds = 30;
const maxFetches = 2;
const keepBehind = 2; // lines kept behind the playhead (a quick "previous line")
const lookAhead = 120; // never fetch further ahead than this many lines

/** Seconds of audio in a WAV blob, from its header; null when the blob is not a plain WAV. */
async function wavDuration(blob) {
  const head = new DataView(await blob.slice(0, Math.min(blob.size, 4096)).arrayBuffer());
  const tag = (at) => String.fromCharCode(...[0, 1, 2, 3].map((i) => head.getUint8(at + i)));
  if (head.byteLength < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let byteRate = 0;
  for (let at = 12; at + 8 <= head.byteLength;) {
    const id = tag(at);
    const size = head.getUint32(at + 4, true);
    if (id === "fmt " && at + 20 <= head.byteLength) byteRate = head.getUint32(at + 16, true);
    if (id === "data") {
      const available = blob.size - (at + 8);
      const bytes = size === 0 || size === 0xFFFFFFFF || size > available ? available : size;
      return byteRate ? bytes / byteRate : null;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** Seconds of audio in any blob the browser can play (reads its metadata only). */
function mediaDuration(url) {
  return new Promise((resolve) => {
    const probe = new Audio();
    probe.preload = "metadata";
    const done = (value) => { probe.removeAttribute("src"); resolve(value); };
    probe.addEventListener("loadedmetadata", () => done(Number.isFinite(probe.duration) ? probe.duration : null), { once: true });
    probe.addEventListener("error", () => done(null), { once: true });
    probe.src = url;
  });
}

/** Lines given as an array get the same interface as a story's line store. */
function sourceOf(lines) {
  if (!Array.isArray(lines)) return lines;
  return { get length() { return lines.length; }, get: (index) => lines[index], line: async (index) => lines[index],
    audioUrl: (index) => lines[index].audio_url };
}

export class Player {
  /**
   * @param lines  an array of lines (each with `audio_url` and optionally `pause_before`, in
   *   seconds), or a source: {length, get(index), line(index) -> Promise<line>, audioUrl(index)}
   * @param {{positionKey: string, onLine: (index: number|null) => void, onState: (state: string) => void,
   *   onError: (message: string) => void, onWaiting?: (waiting: boolean) => void,
   *   onDuration?: (index: number, seconds: number) => void}} options
   *   positionKey: the localStorage key that remembers the position; onDuration: a line's
   *   audio was fetched and lasts `seconds` (at 1×)
   */
  constructor(lines, { positionKey, ...hooks }) {
    this.source = sourceOf(lines);
    this.positionKey = positionKey;
    this.hooks = { onWaiting: () => {}, onDuration: () => {}, onTime: () => {}, ...hooks };
    this.clips = new AudioClips(); // line index -> {promise, url, duration, controller, done}
    this.inFlight = new Set(); // entries being fetched (at most maxFetches)
    this.disposed = false;
    this.index = this.savedPosition();
    this.cursor = this.index; // the line the queue is given next
    this.afterLine = false; // ...after the line before it ended (so after its pause)
    this.speed = 1;
    this.playing = false;
    this.waiting = false;
    // User Timing marks (read by the browser test): each line's audio starting and ending, with
    // its line; also "storyvoice:play-pressed", "storyvoice:jump" and "storyvoice:waiting".
    this.queue = new AudioQueue({
      spare: true,
      next: () => this.nextLine(),
      on: {
        playing: (key) => {
          performance.mark("storyvoice:audio-playing", { detail: { line: Number(key) } });
          this.preloadNext();
        },
        ended: (key) => {
          performance.mark("storyvoice:audio-ended", { detail: { line: Number(key) } });
          this.cursor = Number(key) + 1;
          this.afterLine = true;
        },
        end: () => {
          this.stop();
          this.hooks.onState("finished");
        },
        refused: (error) => this.fail(`The browser would not play: ${error.message}`),
        // A fetch cancelled by a move elsewhere is not a failure.
        failed: (error) => { if (error.name !== "AbortError") this.fail(error.message); },
        time: () => this.hooks.onTime(),
      },
    });
  }

  get length() { return this.source.length; }

  savedPosition() {
    const saved = Number(localStorage.getItem(this.positionKey));
    return Number.isInteger(saved) && saved >= 0 && saved < this.length ? saved : 0;
  }

  /** Starts fetching around the current position so pressing play is immediate. */
  warmUp() {
    if (this.length) this.schedule();
  }

  /** Seconds a line is expected to last before its audio is in (from its text, if known). */
  guess(index) {
    const text = this.source.get(index)?.text;
    return text ? Math.max(1, text.length / 15) : 3;
  }

  /** Starts the fetch of line `index` (once); answers its entry. */
  start(index) {
    const existing = this.clips.get(index);
    if (existing) return existing;
    const entry = this.clips.fetch(index, this.source.audioUrl(index), {
      prepare: async (entry, blob) => {
        entry.duration = await wavDuration(blob).catch(() => null) ?? await mediaDuration(entry.url);
      },
      ready: (entry) => {
        if (entry.duration) this.hooks.onDuration(index, entry.duration);
        if (index === this.index + 1 && this.playing) this.preloadNext();
      },
      // An answer without an error body of its own gets the line's number in its message.
      failure: (error) => error.generic ? new Error(`Line ${index + 1} could not be rendered (${error.status}).`) : error,
      settled: (entry) => {
        this.inFlight.delete(entry);
        if (!this.disposed) this.schedule();
      },
    });
    this.inFlight.add(entry);
    return entry;
  }

  /** Loads the next line into the queue's spare element, once its audio is in. */
  preloadNext() {
    const entry = this.clips.get(this.index + 1);
    if (!this.disposed && entry?.done) this.queue.preload({ key: String(this.index + 1), url: entry.url });
  }

  /** Forgets a line's audio (cancelling its fetch): it is fetched again when needed. */
  drop(index) {
    const entry = this.clips.get(index);
    if (!entry) return;
    if (String(index) === this.queue.spareKey) this.queue.dropSpare();
    this.inFlight.delete(entry);
    this.clips.forget(index);
  }

  /** Forgets line `index`'s audio (it changed on the server). */
  invalidate(index) { this.drop(index); this.schedule(); }

  /**
   * Keeps ~bufferSeconds of listening (at the current speed) fetched ahead of the playhead,
   * nearest first, with at most maxFetches requests at once; lets go of what is far behind or
   * far ahead.
   */
  schedule() {
    if (this.disposed || !this.length) return;
    const from = this.index;
    for (const index of this.clips.keys()) {
      if (index < from - keepBehind || index > from + lookAhead) this.drop(index);
    }
    // The line to play comes first, even if that means cancelling a fetch further ahead; until
    // it is in, nothing else is asked for (it may be rendering, and has the server to itself).
    const limit = this.clips.get(from)?.done ? maxFetches : 1;
    while (!this.clips.get(from) && this.inFlight.size >= limit) {
      const furthest = [...this.inFlight].sort((a, b) => b.key - a.key)[0];
      this.drop(furthest.key);
    }
    let ahead = 0;
    for (let index = from; index < this.length && index <= from + lookAhead && ahead < bufferSeconds; index += 1) {
      let entry = this.clips.get(index);
      if (!entry) {
        if (this.inFlight.size >= limit) break;
        entry = this.start(index);
      }
      if (index > from) ahead += ((this.source.get(index)?.pause_before ?? 0) + (entry.duration ?? this.guess(index))) / this.speed;
    }
  }

  /** Seconds of fetched audio ready after the line playing (the buffer). */
  buffered() {
    let ahead = 0;
    for (let index = this.index + 1; this.clips.get(index)?.done; index += 1) ahead += this.clips.get(index).duration ?? 0;
    return ahead;
  }

  setWaiting(waiting) {
    if (this.waiting === waiting) return;
    this.waiting = waiting;
    if (waiting) performance.mark("storyvoice:waiting", { detail: { line: this.index } });
    this.hooks.onWaiting(waiting);
  }

  async play() {
    if (!this.length) return;
    performance.mark("storyvoice:play-pressed");
    this.playing = true;
    const audio = this.queue.audio;
    const resume = this.queue.key && audio.paused && audio.currentTime > 0 && !audio.ended;
    // A line not fetched yet: "preparing" from the start, never a "Pause" with nothing playing.
    if (!resume) {
      this.cursor = this.index;
      this.afterLine = false;
      if (!this.clips.get(this.index)?.done) this.setWaiting(true);
    }
    this.hooks.onState("playing");
    await this.queue.play();
  }

  /** What the queue plays next: the line at the cursor, after its pause, once its audio is in. */
  async nextLine() {
    const generation = this.queue.generation;
    const index = this.cursor;
    if (index >= this.length) return "end";
    if (this.afterLine) {
      const pause = (this.source.get(index)?.pause_before ?? 0) / this.speed;
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause * 1000));
      if (generation !== this.queue.generation) return "wait"; // moved or paused meanwhile: not heard
    }
    this.afterLine = false;
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    this.schedule();
    const entry = this.start(index);
    if (!entry.done) this.setWaiting(true);
    const url = await entry.promise;
    if (generation === this.queue.generation) this.setWaiting(false);
    return { key: String(index), url };
  }

  fail(message) {
    this.pause();
    this.hooks.onError(message);
  }

  pause() {
    this.playing = false;
    this.queue.pause();
    this.setWaiting(false);
    this.hooks.onState("paused");
  }

  stop() {
    this.pause();
    this.queue.clear();
    this.queue.dropSpare();
    this.index = 0;
    this.cursor = 0;
    this.afterLine = false;
    localStorage.removeItem(this.positionKey);
    this.hooks.onLine(null);
    this.hooks.onState("stopped");
  }

  /** Plays faster or slower (the planned pauses between lines too). */
  setSpeed(speed) {
    this.speed = speed;
    this.queue.setSpeed(speed);
    this.schedule();
  }

  /** Seconds into the current line's audio (0 before it plays). */
  get lineTime() {
    return this.queue.audio.ended ? 0 : this.queue.currentTime;
  }

  /** Moves to a line; keeps playing if playing. Its audio is fetched before anything else. */
  async jump(index) {
    if (!this.length) return;
    index = Math.max(0, Math.min(this.length - 1, index));
    performance.mark("storyvoice:jump", { detail: { line: index } });
    this.queue.clear();
    if (this.queue.spareKey !== String(index)) this.queue.dropSpare();
    this.index = index;
    this.cursor = index;
    this.afterLine = false;
    this.remember();
    this.hooks.onLine(index);
    this.schedule();
    if (this.playing) await this.queue.play();
  }

  remember() { localStorage.setItem(this.positionKey, String(this.index)); }

  /** Stops for good: no sound, no timers, no requests, no callbacks, no object URLs left. */
  dispose() {
    const none = () => {};
    this.hooks = { onLine: none, onState: none, onError: none, onWaiting: none, onDuration: none, onTime: none };
    this.pause();
    this.disposed = true;
    this.queue.dispose();
    this.inFlight.clear();
    this.clips.dispose();
    this.source = sourceOf([]);
  }
}
