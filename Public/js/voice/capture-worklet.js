// Runs on the audio thread: hands each block of microphone samples (mono, the context's rate)
// to the page, which sends them to the server while the person is still speaking.
class CaptureProcessor extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel) this.port.postMessage(channel.slice(0));
    return true;
  }
}
registerProcessor("storyvoice-capture", CaptureProcessor);
