// Plays a story's lines one after another, each from its own audio URL (for a story,
// /api/stories/:id/segments/:n/audio, rendered on the server on first request).
//
// It buffers by time, not by lines: it keeps about `bufferSeconds` of listening ahead of the
// line playing (durations read from the WAV header, or from the media metadata of other
// formats, divided by the speed), with at most `maxFetches` requests in flight. A jump fetches
// its line first, alone: other fetches are cancelled, and nothing else is asked for until it is
// in. While the line to play is not ready the player says so (`onWaiting(true)`), rather than
// pretending to play. The audio is kept in `AudioClips` (js/shared/clips.js), by line.
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
    this.hooks = { onWaiting: () => {}, onDuration: () => {}, ...hooks };
    // Two elements: the line playing, and the next one loaded and decoded in the spare, so a
    // line follows the pause at once instead of after the browser opens new media (seconds,
    // on a busy machine).
    this.audio = new Audio();
    this.spare = new Audio();
    this.spareIndex = null;
    for (const element of [this.audio, this.spare]) element.preload = "auto";
    this.clips = new AudioClips(); // line index -> {promise, url, duration, controller, done}
    this.inFlight = new Set(); // entries being fetched (at most maxFetches)
    this.disposed = false;
    this.timer = null; // the pause between two lines
    this.index = this.savedPosition();
    this.speed = 1;
    this.playing = false;
    this.waiting = false;
    this.generation = 0; // bumps on every jump/stop so stale callbacks do nothing
    // User Timing marks (read by the browser test): each line's audio starting and ending, with
    // its line; also "storyvoice:play-pressed", "storyvoice:jump" and "storyvoice:waiting".
    this.onPlaying = (event) => {
      if (event.target !== this.audio) return;
      performance.mark("storyvoice:audio-playing", { detail: { line: this.index } });
      this.preloadNext();
    };
    this.onEnded = (event) => {
      if (event.target !== this.audio) return;
      performance.mark("storyvoice:audio-ended", { detail: { line: this.index } });
      this.advance();
    };
    for (const element of [this.audio, this.spare]) {
      element.addEventListener("ended", this.onEnded);
      element.addEventListener("playing", this.onPlaying);
    }
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

  /** Loads the next line into the spare element, once its audio is in. */
  preloadNext() {
    const next = this.index + 1;
    const entry = this.clips.get(next);
    if (this.disposed || !entry?.done || this.spareIndex === next) return;
    this.spare.src = entry.url;
    this.spare.playbackRate = this.speed;
    this.spare.load();
    this.spareIndex = next;
  }

  /** Empties the spare element (its line is no longer next). */
  clearSpare() {
    this.spareIndex = null;
    this.spare.removeAttribute("src");
    this.spare.load();
  }

  /** Forgets a line's audio (cancelling its fetch): it is fetched again when needed. */
  drop(index) {
    const entry = this.clips.get(index);
    if (!entry) return;
    if (index === this.spareIndex) this.clearSpare();
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
    const resume = this.audio.src && this.audio.paused && this.audio.currentTime > 0 && !this.audio.ended;
    // A line not fetched yet: "preparing" from the start, never a "Pause" with nothing playing.
    if (!resume && !this.clips.get(this.index)?.done) this.setWaiting(true);
    this.hooks.onState("playing");
    if (resume) {
      const generation = this.generation;
      try {
        await this.audio.play();
      } catch (error) {
        // A pause straight after pressing play interrupts play(); that is not a failure.
        if (generation === this.generation && error.name !== "AbortError") { this.pause(); this.hooks.onError(`The browser would not play: ${error.message}`); }
      }
      return;
    }
    await this.playLine(this.index);
  }

  pause() {
    this.playing = false;
    this.generation += 1;
    clearTimeout(this.timer);
    this.audio.pause();
    this.setWaiting(false);
    this.hooks.onState("paused");
  }

  stop() {
    this.pause();
    this.audio.removeAttribute("src");
    this.audio.load();
    this.clearSpare();
    this.index = 0;
    localStorage.removeItem(this.positionKey);
    this.hooks.onLine(null);
    this.hooks.onState("stopped");
  }

  /** Plays faster or slower (the planned pauses between lines too). */
  setSpeed(speed) {
    this.speed = speed;
    this.audio.playbackRate = speed;
    this.spare.playbackRate = speed;
    this.schedule();
  }

  /** Seconds into the current line's audio (0 before it plays). */
  get lineTime() {
    return this.audio.src && !this.audio.ended ? this.audio.currentTime : 0;
  }

  /** Moves to a line; keeps playing if playing. Its audio is fetched before anything else. */
  async jump(index) {
    if (!this.length) return;
    index = Math.max(0, Math.min(this.length - 1, index));
    performance.mark("storyvoice:jump", { detail: { line: index } });
    this.generation += 1;
    clearTimeout(this.timer);
    this.audio.pause();
    this.audio.removeAttribute("src");
    if (this.spareIndex !== index) this.clearSpare();
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    this.schedule();
    if (this.playing) await this.playLine(index);
  }

  remember() { localStorage.setItem(this.positionKey, String(this.index)); }

  async playLine(index) {
    const generation = ++this.generation;
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    this.schedule();
    const entry = this.start(index);
    if (!entry.done) this.setWaiting(true);
    let url;
    try {
      url = await entry.promise;
    } catch (error) {
      if (generation !== this.generation || error.name === "AbortError") return;
      this.pause();
      this.hooks.onError(error.message);
      return;
    }
    if (generation !== this.generation || !this.playing) return;
    this.setWaiting(false);
    if (this.spareIndex === index) {
      [this.audio, this.spare] = [this.spare, this.audio];
      this.spareIndex = null;
    } else {
      this.audio.src = url;
    }
    this.audio.playbackRate = this.speed;
    try {
      await this.audio.play();
    } catch (error) {
      if (generation === this.generation && error.name !== "AbortError") { this.pause(); this.hooks.onError(`The browser would not play: ${error.message}`); }
    }
  }

  advance() {
    const next = this.index + 1;
    if (next >= this.length) {
      this.stop();
      this.hooks.onState("finished");
      return;
    }
    const generation = this.generation;
    const pause = (this.source.get(next)?.pause_before ?? 0) / this.speed;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (generation === this.generation && this.playing) this.playLine(next);
    }, pause * 1000);
  }

  /** Stops for good: no sound, no timers, no requests, no callbacks, no object URLs left. */
  dispose() {
    const none = () => {};
    this.hooks = { onLine: none, onState: none, onError: none, onWaiting: none, onDuration: none };
    this.pause();
    this.disposed = true;
    this.inFlight.clear();
    this.clips.dispose();
    for (const element of [this.audio, this.spare]) {
      element.removeEventListener("ended", this.onEnded);
      element.removeEventListener("playing", this.onPlaying);
      element.removeAttribute("src");
      element.load();
    }
    this.spareIndex = null;
    this.source = sourceOf([]);
  }
}
