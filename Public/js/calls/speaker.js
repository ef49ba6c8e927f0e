// The agent's voice in an in-browser call: μ-law frames from the media stream played back to
// back through an AudioContext, the stream's marks reported once the audio sent before them has
// played (that is how the server knows what the caller heard), `clear` cutting everything at
// once, and a level for the meter.
import { decode } from "./mulaw.js";
import { LINE_RATE, FRAME_SAMPLES } from "./downsample.js";

const LEAD = 0.08; // seconds of slack before a reply starts: network jitter, not heard as delay
const MAX_PENDING = 50; // frames held before they are scheduled (1 s): a burst becomes one buffer

export class Speaker {
  /** `onMarkPlayed(name)`: the audio before the mark has played; echo it to the server. */
  constructor(context, { onMarkPlayed }) {
    this.context = context;
    this.onMarkPlayed = onMarkPlayed;
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 512;
    this.analyser.connect(context.destination);
    this.levelSamples = new Float32Array(this.analyser.fftSize);
    this.nextTime = 0; // when the audio scheduled so far ends (context time)
    this.pending = []; // frames received, not yet scheduled
    this.flushTimer = null;
    this.segments = []; // scheduled buffers: {source, start, end, frames}
    this.marks = []; // {name, at}: echo once the context's time reaches `at`
    this.framesReceived = 0;
    this.framesPlayed = 0;
  }

  /** A `media` payload: μ-law bytes (160 a frame). Frames arriving together play as one buffer
   *  (joining 20 ms buffers one by one can click at their edges). */
  play(bytes) {
    this.framesReceived += Math.ceil(bytes.length / FRAME_SAMPLES);
    this.pending.push(bytes);
    if (this.pending.length >= MAX_PENDING) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), 0);
  }

  /** A `mark`: echoed once everything received before it has been heard. */
  mark(name) {
    this.flush();
    this.marks.push({ name, at: Math.max(this.nextTime, this.context.currentTime) });
  }

  /** A `clear`: silence now, drop what is queued, and forget the marks (they are never echoed). */
  clear() {
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending = [];
    const now = this.context.currentTime;
    for (const segment of this.segments) {
      // Count what was heard of a buffer cut mid-way.
      if (segment.start < now) this.framesPlayed += Math.min(segment.frames, Math.floor((now - segment.start) * LINE_RATE / FRAME_SAMPLES));
      try {
        segment.source.stop();
      } catch {
        // never started: nothing to stop
      }
      segment.source.disconnect();
    }
    this.segments = [];
    this.marks = [];
    this.nextTime = now;
  }

  flush() {
    clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.pending.length) return;
    const length = this.pending.reduce((sum, bytes) => sum + bytes.length, 0);
    const samples = new Float32Array(length);
    let offset = 0;
    for (const bytes of this.pending) {
      samples.set(decode(bytes), offset);
      offset += bytes.length;
    }
    this.pending = [];
    // An AudioBuffer at the line's own rate: the context resamples it.
    const buffer = this.context.createBuffer(1, length, LINE_RATE);
    buffer.copyToChannel(samples, 0);
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.analyser);
    const start = Math.max(this.nextTime, this.context.currentTime + LEAD);
    source.start(start);
    this.nextTime = start + buffer.duration;
    this.segments.push({ source, start, end: this.nextTime, frames: Math.ceil(length / FRAME_SAMPLES) });
  }

  /** Called often (every 20–50 ms): counts what has played and echoes the marks now due. */
  tick() {
    const now = this.context.currentTime;
    while (this.segments.length && this.segments[0].end <= now) {
      const segment = this.segments.shift();
      this.framesPlayed += segment.frames;
      segment.source.disconnect();
    }
    while (this.marks.length && this.marks[0].at <= now) this.onMarkPlayed(this.marks.shift().name);
  }

  /** True while the agent's audio is playing or queued. */
  get speaking() {
    return this.pending.length > 0 || this.nextTime > this.context.currentTime;
  }

  /** The loudness of what is playing now, 0…1 (for the meter). */
  level() {
    this.analyser.getFloatTimeDomainData(this.levelSamples);
    let sum = 0;
    for (const sample of this.levelSamples) sum += sample * sample;
    return Math.min(1, Math.sqrt(sum / this.levelSamples.length) * 4);
  }

  close() {
    this.clear();
    this.analyser.disconnect();
  }
}
