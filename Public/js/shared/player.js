// Plays a list of lines, each with an `audio_url` (for a story, /api/stories/:id/segments/:n/audio).
// Each line renders on the server on first request, so playback starts as soon as the first
// line exists; the next few lines are fetched ahead while one plays. Audio is fetched through
// the API helper, so an expired access cookie is refreshed instead of stopping playback.
import { apiBlob } from "./api.js";

const prefetchAhead = 3;

export class Player {
  /**
   * @param {Array} lines  each with `audio_url` and optionally `pause_before` (seconds)
   * @param {{positionKey: string, onLine: (index: number|null) => void, onState: (state: string) => void, onError: (message: string) => void}} options
   *   positionKey: the localStorage key that remembers the position
   */
  constructor(lines, { positionKey, ...hooks }) {
    this.lines = lines;
    this.positionKey = positionKey;
    this.hooks = hooks;
    this.audio = new Audio();
    this.audio.preload = "auto";
    this.blobs = new Map(); // index -> Promise<object URL>
    this.fetches = new AbortController(); // aborts every audio request on dispose
    this.timer = null; // the pause between two lines
    this.index = this.savedPosition();
    this.speed = 1;
    this.playing = false;
    this.generation = 0; // bumps on every jump/stop so stale callbacks do nothing
    this.onEnded = () => this.advance();
    // User Timing marks: how long from pressing play to hearing audio, and which line it was
    // (read by the browser test).
    this.onPlaying = () => performance.mark("storyvoice:audio-playing", { detail: { line: this.index } });
    this.audio.addEventListener("ended", this.onEnded);
    this.audio.addEventListener("playing", this.onPlaying);
  }

  savedPosition() {
    const saved = Number(localStorage.getItem(this.positionKey));
    return Number.isInteger(saved) && saved >= 0 && saved < this.lines.length ? saved : 0;
  }

  /** Starts fetching the line at the current position so pressing play is immediate. */
  warmUp() {
    if (this.lines.length) this.fetchLine(this.index).catch(() => {});
  }

  fetchLine(index) {
    if (!this.blobs.has(index)) {
      const promise = apiBlob(this.lines[index].audio_url, { signal: this.fetches.signal })
        .catch((error) => {
          // An answer without an error body of its own gets the line's number in its message.
          throw error.generic ? new Error(`Line ${index + 1} could not be rendered (${error.status}).`) : error;
        })
        .then((blob) => URL.createObjectURL(blob));
      promise.catch(() => this.blobs.delete(index));
      this.blobs.set(index, promise);
    }
    return this.blobs.get(index);
  }

  async play() {
    if (!this.lines.length) return;
    performance.mark("storyvoice:play-pressed");
    this.playing = true;
    this.hooks.onState("playing");
    if (this.audio.src && this.audio.paused && this.audio.currentTime > 0 && !this.audio.ended) {
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
    this.hooks.onState("paused");
  }

  stop() {
    this.pause();
    this.audio.removeAttribute("src");
    this.audio.load();
    this.index = 0;
    localStorage.removeItem(this.positionKey);
    this.hooks.onLine(null);
    this.hooks.onState("stopped");
  }

  setSpeed(speed) {
    this.speed = speed;
    this.audio.playbackRate = speed;
  }

  /** Moves to a line; keeps playing if playing. */
  async jump(index) {
    this.generation += 1;
    clearTimeout(this.timer);
    this.audio.pause();
    this.audio.removeAttribute("src");
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    if (this.playing) await this.playLine(index);
  }

  remember() { localStorage.setItem(this.positionKey, String(this.index)); }

  async playLine(index) {
    const generation = ++this.generation;
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    for (let ahead = 1; ahead <= prefetchAhead && index + ahead < this.lines.length; ahead += 1) {
      this.fetchLine(index + ahead).catch(() => {});
    }
    let url;
    try {
      url = await this.fetchLine(index);
    } catch (error) {
      if (generation !== this.generation || error.name === "AbortError") return;
      this.pause();
      this.hooks.onError(error.message);
      return;
    }
    if (generation !== this.generation || !this.playing) return;
    this.audio.src = url;
    this.audio.playbackRate = this.speed;
    try {
      await this.audio.play();
    } catch (error) {
      if (generation === this.generation) { this.pause(); this.hooks.onError(`The browser would not play: ${error.message}`); }
    }
  }

  advance() {
    const next = this.index + 1;
    if (next >= this.lines.length) {
      this.stop();
      this.hooks.onState("finished");
      return;
    }
    const generation = this.generation;
    const pause = (this.lines[next].pause_before ?? 0) / this.speed;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (generation === this.generation && this.playing) this.playLine(next);
    }, pause * 1000);
  }

  /** Stops for good: no sound, no timers, no requests, no callbacks, no object URLs left. */
  dispose() {
    const none = () => {};
    this.hooks = { onLine: none, onState: none, onError: none };
    this.pause();
    this.fetches.abort();
    this.audio.removeEventListener("ended", this.onEnded);
    this.audio.removeEventListener("playing", this.onPlaying);
    this.audio.removeAttribute("src");
    this.audio.load();
    for (const promise of this.blobs.values()) promise.then((url) => URL.revokeObjectURL(url)).catch(() => {});
    this.blobs.clear();
    this.lines = [];
  }
}
