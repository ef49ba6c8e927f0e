// Clips played one after another, for every area that speaks in sequence: a story's lines
// (shared/player.js), a journey's sentences (journeys/journey/listening.js) and voice chat's
// answer (voice/talk.js). The area says what comes next; the queue plays it and asks again when
// it ends. With `spare: true` a second element holds the clip `preload()` was given, loaded and
// decoded, and the queue swaps to it when that clip comes next: a line follows the one before
// at once instead of after the browser opens new media (seconds, on a busy machine).
//
// `next()` (may be async) answers {key, url} to play, "wait" when the next clip is not there
// yet (the queue asks again on `wake()`), or "end". A move, a pause or a stop bumps a
// generation, so an answer that comes late does nothing. `unlock()`, called from a press, plays
// a moment of silence so that browsers that allow sound only from a gesture (Safari) let the
// element play the clips that arrive later, when no press is going on.
//
// What the area hears (all optional): on.sounding(key) as a clip is started, on.playing(key)
// once it sounds, on.ended(key) when it has ended (return false to stop there), on.waiting(now),
// on.end() after the last clip, on.refused(error) when the browser will not play (autoplay),
// on.failed(error) when `next()` throws, on.error(key) when the element cannot read a clip, and
// on.time(seconds) as it plays.

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

export class AudioQueue {
  constructor({ audio = new Audio(), spare = false, signal, next, on = {} }) {
    this.audio = audio;
    this.spare = spare ? new Audio() : null;
    this.next = next;
    this.on = on;
    this.wanted = false; // someone wants to hear it
    this.waiting = false; // ...and the next clip is not there yet
    this.generation = 0;
    this.unlocked = false;
    this.speed = 1;
    this.disposed = false;
    const elements = this.spare ? [audio, this.spare] : [audio];
    for (const element of elements) if (this.spare) element.preload = "auto";
    // Both elements are listened to; only the one playing (`this.audio`, swapped) is heard.
    const listen = (name, handler) => {
      for (const element of elements) {
        element.addEventListener(name, (event) => { if (event.target === this.audio) handler(); }, signal ? { signal } : undefined);
      }
    };
    listen("playing", () => {
      if (!this.key) return; // the silence that unlocks the element
      this.unlocked = true;
      this.on.playing?.(this.key);
    });
    listen("ended", () => {
      const key = this.key;
      if (!key) return;
      if (this.on.ended?.(key) === false) return;
      if (this.wanted && this.key === key) this.advance();
    });
    listen("error", () => {
      if (this.key && this.wanted) this.on.error?.(this.key);
    });
    listen("timeupdate", () => this.on.time?.(this.audio.currentTime));
    signal?.addEventListener("abort", () => this.dispose(), { once: true });
  }

  /** The clip the element holds; null for none (or the unlocking silence). */
  get key() {
    return this.audio.dataset.key ?? null;
  }

  /** Seconds into the clip the element holds. */
  get currentTime() {
    return this.key && Number.isFinite(this.audio.currentTime) ? this.audio.currentTime : 0;
  }

  /** Call from a press: later clips may then play without one (see above). */
  unlock() {
    if (this.unlocked || this.key || this.disposed) return;
    this.unlocked = true;
    this.audio.src = silentWav();
    this.audio.play().catch(() => { this.unlocked = false; });
  }

  /** Plays: resumes the clip paused in the element, or starts the next one. */
  play() {
    if (this.disposed) return;
    this.wanted = true;
    const audio = this.audio;
    if (this.key && !this.waiting && audio.paused && audio.currentTime > 0 && !audio.ended) return this.sound(this.generation);
    return this.advance();
  }

  /** Asks `next()` what comes next and plays it (or waits, or ends). */
  async advance() {
    const current = ++this.generation;
    let item;
    try {
      item = await this.next();
    } catch (error) {
      if (current !== this.generation || !this.wanted) return;
      this.wanted = false;
      this.setWaiting(false);
      this.on.failed?.(error);
      return;
    }
    if (current !== this.generation || !this.wanted || this.disposed) return;
    if (item === "end") {
      this.wanted = false;
      this.setWaiting(false);
      this.audio.pause();
      this.on.end?.();
      return;
    }
    if (!item || item === "wait") return this.setWaiting(true);
    this.setWaiting(false);
    if (this.spare && this.spareKey === item.key) {
      [this.audio, this.spare] = [this.spare, this.audio];
      delete this.spare.dataset.key;
    } else {
      this.audio.dataset.key = item.key;
      this.audio.src = item.url;
    }
    this.applySpeed();
    return this.sound(current);
  }

  async sound(current) {
    this.on.sounding?.(this.key);
    try {
      await this.audio.play();
    } catch (error) {
      // A pause or a move straight after play() interrupts it (AbortError): not a refusal.
      if (current !== this.generation || error?.name === "AbortError") return;
      this.wanted = false;
      this.setWaiting(false);
      this.on.refused?.(error);
    }
  }

  /** The clip the spare element holds (see `preload`); null for none. */
  get spareKey() {
    return this.spare?.dataset.key ?? null;
  }

  /** Loads {key, url} into the spare element, to play without a gap when it comes next. */
  preload(item) {
    if (!this.spare || this.disposed || this.spareKey === item.key) return;
    this.spare.dataset.key = item.key;
    this.spare.src = item.url;
    this.spare.playbackRate = this.speed;
    this.spare.load();
  }

  /** Empties the spare element (its clip will not come next). */
  dropSpare() {
    if (!this.spare) return;
    delete this.spare.dataset.key;
    this.spare.removeAttribute("src");
    this.spare.load();
  }

  /** What was waited for may be there now: asks again. */
  wake() {
    if (this.wanted && this.waiting) this.advance();
  }

  pause() {
    this.wanted = false;
    this.generation += 1;
    this.audio.pause();
    this.setWaiting(false);
  }

  /** Drops the clip the element holds (a move elsewhere); whether it plays on is unchanged. */
  clear() {
    this.generation += 1;
    this.audio.pause();
    this.audio.removeAttribute("src");
    delete this.audio.dataset.key;
    this.setWaiting(false);
  }

  /** Stops and drops what it holds. */
  stop() {
    this.wanted = false;
    this.clear();
  }

  setSpeed(speed) {
    this.speed = speed;
    this.applySpeed();
  }

  applySpeed() {
    for (const element of this.spare ? [this.audio, this.spare] : [this.audio]) {
      element.preservesPitch = true;
      element.playbackRate = this.speed;
    }
  }

  dispose() {
    if (this.disposed) return;
    this.stop();
    this.dropSpare();
    this.disposed = true;
    this.audio.load();
  }

  setWaiting(now) {
    if (this.waiting === now) return;
    this.waiting = now;
    this.on.waiting?.(now);
  }
}
