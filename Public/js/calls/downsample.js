// The microphone's rate (48 kHz, 44.1 kHz…) down to the phone line's 8 kHz, in 20 ms frames of
// 160 samples. Shared by the AudioWorklet (mic-worklet.js) and the ScriptProcessor fallback, so
// it imports nothing and touches no DOM.

export const LINE_RATE = 8000;
export const FRAME_SAMPLES = 160; // 20 ms at 8 kHz: one Media Streams `media` message

/**
 * Averages the input over each output sample's span (a box filter: crude, but it keeps most
 * of what lies above 4 kHz out of the line, and speech recognition does not mind), carrying
 * the fractional remainder so non-integer ratios (44.1 kHz) keep time exactly.
 */
export class Downsampler {
  constructor(inputRate, onFrame) {
    this.step = inputRate / LINE_RATE;
    this.onFrame = onFrame;
    this.sum = 0;
    this.count = 0;
    this.position = 0;
    this.frame = new Float32Array(FRAME_SAMPLES);
    this.filled = 0;
  }

  push(input) {
    for (let i = 0; i < input.length; i += 1) {
      this.sum += input[i];
      this.count += 1;
      this.position += 1;
      if (this.position < this.step) continue;
      this.position -= this.step;
      this.frame[this.filled] = this.sum / this.count;
      this.filled += 1;
      this.sum = 0;
      this.count = 0;
      if (this.filled === FRAME_SAMPLES) {
        this.onFrame(this.frame);
        this.frame = new Float32Array(FRAME_SAMPLES);
        this.filled = 0;
      }
    }
  }
}
