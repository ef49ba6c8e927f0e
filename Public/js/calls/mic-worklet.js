// The microphone's AudioWorklet: downsamples to 8 kHz off the main thread and posts each 20 ms
// frame (160 float samples) to the page, which encodes and sends it (microphone.js).
import { Downsampler } from "./downsample.js";

class MicrophoneFrames extends AudioWorkletProcessor {
  constructor() {
    super();
    // `sampleRate` is the AudioWorkletGlobalScope's: the context's rate.
    this.downsampler = new Downsampler(sampleRate, (frame) => this.port.postMessage(frame, [frame.buffer]));
  }

  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel) this.downsampler.push(channel);
    return true; // keep running while the call lasts; the page disconnects the node to stop
  }
}

registerProcessor("storyvoice-microphone-frames", MicrophoneFrames);
