// The story's lines, fetched by range: what is on screen (or about to play) first, the rest in
// the background, so a novel's page opens as fast as the sample's. Lines not fetched yet are
// holes in `lines`; `total` is known from the first reply. A server that ignores `from`/`count`
// (no `total` in its reply) sends every line at once: that reply is simply complete.
import { api } from "../../shared/api.js";

const chunk = 200; // lines per request

export class LineStore {
  constructor(storyId, signal) {
    this.id = storyId;
    this.signal = signal;
    this.total = null; // known after the first reply
    this.lines = []; // sparse: index -> line
    this.loaded = new Set(); // chunk numbers fetched
    this.pending = new Map(); // chunk number -> Promise
    this.listeners = new Set();
    this.backgroundStarted = false;
    this.stopped = false;
  }

  get complete() { return this.total !== null && this.loaded.size * chunk >= this.total; }

  /** Calls `listener(from, to)` whenever lines [from, to) arrive. */
  onChange(listener) { this.listeners.add(listener); }

  get(index) { return this.lines[index]; }

  /** Fetches the chunk holding `index` (once); resolves when it is in. */
  loadChunk(number) {
    if (this.loaded.has(number)) return Promise.resolve();
    if (!this.pending.has(number)) {
      const from = number * chunk;
      const promise = api(`/api/stories/${encodeURIComponent(this.id)}/segments?from=${from}&count=${chunk}`, { signal: this.signal })
        .then((reply) => this.take(reply, from))
        .finally(() => this.pending.delete(number));
      this.pending.set(number, promise);
    }
    return this.pending.get(number);
  }

  take(reply, from) {
    if (this.stopped) return;
    const segments = reply.segments ?? [];
    if (reply.total === undefined) {
      // An older server: every line, in one reply.
      this.total = segments.length;
      segments.forEach((line, index) => { this.lines[index] = line; });
      for (let number = 0; number * chunk < this.total; number += 1) this.loaded.add(number);
      for (const listener of this.listeners) listener(0, this.total);
      return;
    }
    this.total = reply.total;
    const start = reply.from ?? from;
    segments.forEach((line, offset) => { this.lines[line.index ?? start + offset] = line; });
    this.loaded.add(Math.floor(start / chunk));
    for (const listener of this.listeners) listener(start, start + segments.length);
  }

  /** Makes sure lines [from, to) are (being) fetched; resolves when they are in. */
  ensure(from, to = from + 1) {
    const last = this.total === null ? to - 1 : Math.min(to, this.total) - 1;
    const waits = [];
    for (let number = Math.floor(Math.max(0, from) / chunk); number <= Math.floor(Math.max(0, last) / chunk); number += 1) {
      waits.push(this.loadChunk(number));
    }
    return Promise.all(waits);
  }

  /** Resolves with line `index`, fetching its range if needed. */
  async line(index) {
    if (!this.lines[index]) await this.ensure(index);
    return this.lines[index];
  }

  /** Fetches every remaining range, one after another, so on-demand ranges never queue long. */
  loadAll() {
    if (!this.allLoaded) {
      this.allLoaded = (async () => {
        if (this.total === null) await this.ensure(0);
        for (let number = 0; number * chunk < this.total && !this.stopped; number += 1) await this.loadChunk(number);
      })();
      this.allLoaded.catch(() => { this.allLoaded = null; });
    }
    return this.allLoaded;
  }

  /** Fetches lines [from, to) again (after an edit) and tells the listeners. */
  async reload(from, to) {
    for (let number = Math.floor(from / chunk); number * chunk < to; number += 1) {
      this.loaded.delete(number);
      await this.loadChunk(number);
    }
  }

  /** Every line fetched so far (holes skipped). */
  loadedLines() { return this.lines.filter(Boolean); }

  stop() { this.stopped = true; this.listeners.clear(); }
}
