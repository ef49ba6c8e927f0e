// Plays a story line by line from /api/stories/:id/segments/:n/audio. Each line renders on the
// server on first request, so playback starts as soon as the first line exists; the next few
// lines are fetched ahead while one plays.

const prefetchAhead = 3;

export class Player {
  /**
   * @param {string} storyId
   * @param {Array} lines  the segments list from the API
   * @param {{onLine: (index: number|null) => void, onState: (state: string) => void, onError: (message: string) => void}} hooks
   */
  constructor(storyId, lines, hooks) {
    this.storyId = storyId;
    this.lines = lines;
    this.hooks = hooks;
    this.audio = new Audio();
    this.audio.preload = "auto";
    this.blobs = new Map(); // index -> Promise<object URL>
    this.index = this.savedPosition();
    this.speed = 1;
    this.playing = false;
    this.generation = 0; // bumps on every jump/stop so stale callbacks do nothing
    this.audio.addEventListener("ended", () => this.advance());
    // User Timing marks: how long from pressing play to hearing audio, and which line it was
    // (read by the browser test).
    this.audio.addEventListener("playing", () => performance.mark("storyvoice:audio-playing", { detail: { line: this.index } }));
  }

  get storageKey() { return `storyvoice:position:${this.storyId}`; }

  savedPosition() {
    const saved = Number(localStorage.getItem(this.storageKey));
    return Number.isInteger(saved) && saved >= 0 && saved < this.lines.length ? saved : 0;
  }

  /** Starts fetching the line at the current position so pressing play is immediate. */
  warmUp() {
    if (this.lines.length) this.fetchLine(this.index).catch(() => {});
  }

  fetchLine(index) {
    if (!this.blobs.has(index)) {
      const promise = fetch(this.lines[index].audio_url, { credentials: "same-origin" }).then(async (response) => {
        if (!response.ok) {
          const body = await response.json().catch(() => null);
          throw new Error(body?.error?.message ?? `Line ${index + 1} could not be rendered (${response.status}).`);
        }
        return URL.createObjectURL(await response.blob());
      });
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
      await this.audio.play();
      return;
    }
    await this.playLine(this.index);
  }

  pause() {
    this.playing = false;
    this.generation += 1;
    this.audio.pause();
    this.hooks.onState("paused");
  }

  stop() {
    this.pause();
    this.audio.removeAttribute("src");
    this.audio.load();
    this.index = 0;
    localStorage.removeItem(this.storageKey);
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
    this.audio.pause();
    this.audio.removeAttribute("src");
    this.index = index;
    this.remember();
    this.hooks.onLine(index);
    if (this.playing) await this.playLine(index);
  }

  remember() { localStorage.setItem(this.storageKey, String(this.index)); }

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

  async advance() {
    const next = this.index + 1;
    if (next >= this.lines.length) {
      this.stop();
      this.hooks.onState("finished");
      return;
    }
    const generation = this.generation;
    const pause = (this.lines[next].pause_before ?? 0) / this.speed;
    await new Promise((resolve) => setTimeout(resolve, pause * 1000));
    if (generation === this.generation && this.playing) await this.playLine(next);
  }

  dispose() {
    this.pause();
    for (const promise of this.blobs.values()) promise.then((url) => URL.revokeObjectURL(url)).catch(() => {});
    this.blobs.clear();
  }
}
