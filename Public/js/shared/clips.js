// Audio clips fetched by key as object URLs: the stories player keeps its lines here, the
// journeys player its sentences. Each key is fetched once, through the API helper (so an
// expired access cookie is refreshed rather than stopping playback); forgetting a key cancels
// its fetch and revokes its URL, and a fetch that lands after its key was forgotten lets its
// URL go at once, so nothing outlives the screen.
import { apiBlob } from "./api.js";

export class AudioClips {
  /** @param {{signal?: AbortSignal}} options  signal: aborts every fetch (the screen's). */
  constructor({ signal } = {}) {
    this.signal = signal;
    this.entries = new Map(); // key -> {key, controller, url, done, promise}
    this.disposed = false;
  }

  get(key) { return this.entries.get(key); }

  keys() { return [...this.entries.keys()]; }

  /**
   * Fetches `url` under `key` unless it is already fetched or on its way; answers the entry,
   * whose `promise` resolves to the object URL.
   * @param {{prepare?: (entry, blob) => Promise<void>, ready?: (entry) => void,
   *   failure?: (error) => Error, settled?: (entry) => void}} hooks
   *   prepare: reads what it needs of the audio before the entry is done (its duration);
   *   ready: the entry is done; failure: the error the promise rejects with; settled: after
   *   either, before anyone awaiting the promise goes on.
   */
  fetch(key, url, { prepare, ready, failure = (error) => error, settled } = {}) {
    const existing = this.entries.get(key);
    if (existing) return existing;
    const controller = new AbortController();
    const signal = this.signal && AbortSignal.any ? AbortSignal.any([this.signal, controller.signal]) : controller.signal;
    const entry = { key, controller, url: null, done: false };
    entry.promise = (async () => {
      try {
        const blob = await apiBlob(url, { signal });
        entry.url = URL.createObjectURL(blob);
        if (prepare) await prepare(entry, blob);
        if (this.disposed || this.entries.get(key) !== entry) URL.revokeObjectURL(entry.url);
        entry.done = true;
        ready?.(entry);
        return entry.url;
      } catch (error) {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw failure(error);
      } finally {
        settled?.(entry);
      }
    })();
    entry.promise.catch(() => {});
    this.entries.set(key, entry);
    return entry;
  }

  /** Lets go of a key's audio: its fetch is cancelled, its URL revoked. */
  forget(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (!entry.done) entry.controller.abort();
    if (entry.url) URL.revokeObjectURL(entry.url);
  }

  /** Forgets every key but those in `keep`. */
  keepOnly(keep) {
    for (const key of this.keys()) if (!keep.includes(key)) this.forget(key);
  }

  /** Forgets everything; a fetch still landing lets its URL go. */
  dispose() {
    this.disposed = true;
    for (const key of this.keys()) this.forget(key);
  }
}
