// The caller's microphone for an in-browser call: asks for it (with what to do when the browser
// refuses), then delivers 20 ms frames at 8 kHz through an AudioWorklet, or a ScriptProcessor
// where AudioWorklet is missing (an old browser, or a page not served from a secure origin).
import { Downsampler } from "./downsample.js";

/** A refusal of the microphone, with words for the caller. */
export class MicrophoneError extends Error {}

/** The microphone's stream; rejects with a MicrophoneError that says what to do. */
export async function openMicrophone() {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new MicrophoneError(window.isSecureContext
      ? "This browser cannot use a microphone."
      : "The browser allows the microphone only on a secure page: open StoryVoice over https (or on localhost).");
  }
  try {
    // Echo cancellation keeps the agent's own voice, played through the speakers, from being
    // heard as the caller talking over it.
    return await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 } });
  } catch (error) {
    switch (error?.name) {
      case "NotAllowedError": case "SecurityError":
        throw new MicrophoneError("The microphone is blocked for this site. Allow it (the lock or camera icon by the address), then press Call again. No call was counted.");
      case "NotFoundError": case "OverconstrainedError":
        throw new MicrophoneError("No microphone was found. Connect one, then press Call again. No call was counted.");
      case "NotReadableError": case "AbortError":
        throw new MicrophoneError("The microphone is in use by another application or could not be started. Close it there, then press Call again. No call was counted.");
      default:
        throw new MicrophoneError(`The microphone could not be opened (${error?.message ?? error}). No call was counted.`);
    }
  }
}

/**
 * Sends the stream's audio through `context` and calls `onFrame(Float32Array of 160)` every 20 ms.
 * Resolves with a function that stops the capture (the stream's tracks are the caller's to stop).
 */
export async function captureFrames(context, stream, onFrame) {
  const source = context.createMediaStreamSource(stream);
  // A node is only pulled when it reaches the destination: through a silent gain.
  const sink = context.createGain();
  sink.gain.value = 0;
  sink.connect(context.destination);
  let node;
  if (context.audioWorklet) {
    await context.audioWorklet.addModule(new URL("./mic-worklet.js", import.meta.url));
    node = new AudioWorkletNode(context, "storyvoice-microphone-frames", { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1, channelCountMode: "explicit" });
    node.port.onmessage = (event) => onFrame(event.data);
  } else {
    const downsampler = new Downsampler(context.sampleRate, (frame) => onFrame(frame));
    node = context.createScriptProcessor(2048, 1, 1);
    node.onaudioprocess = (event) => downsampler.push(event.inputBuffer.getChannelData(0));
  }
  source.connect(node);
  node.connect(sink);
  return () => {
    source.disconnect();
    node.disconnect();
    sink.disconnect();
    if (node.port) node.port.onmessage = null;
    else node.onaudioprocess = null;
  };
}
