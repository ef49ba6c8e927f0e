// The in-browser call's WebSocket: the page plays Twilio's part of Twilio's Media Streams
// protocol, exactly as Twilio would speak it to the server, so a browser call and a phone call
// reach the voice agent the same way. Messages (JSON text frames; counters are strings):
//   out: connected, start (the call's token in customParameters), media (20 ms of μ-law, base64),
//        mark (echoed once what came before it has played), stop
//   in:  media (the agent's audio), mark (echo it when played), clear (drop queued audio and
//        its marks)
// https://www.twilio.com/docs/voice/media-streams/websocket-messages
import { toBase64, fromBase64 } from "./mulaw.js";

/** "MZ" and 32 hex digits, as Twilio's stream ids look. */
function streamSid() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `MZ${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** The socket's address on this page's host (ws: or wss: as the page is http: or https:). */
export function streamURL(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

export class MediaStreamClient {
  /**
   * Handlers: onOpen() once `start` has been sent, onMedia(bytes), onMark(name), onClear(),
   * onClose({code, reason, byUs}) once, however the socket ends.
   */
  constructor(url, token, handlers) {
    this.handlers = handlers;
    this.sid = streamSid();
    this.sequence = 0;
    this.chunk = 0;
    this.startedAt = 0;
    this.hungUp = false;
    this.closed = false;
    this.framesSent = 0;
    this.framesDropped = 0;
    this.socket = new WebSocket(url);
    this.socket.onopen = () => {
      this.send({ event: "connected", protocol: "Call", version: "1.0.0" });
      this.startedAt = performance.now();
      this.send({ event: "start", sequenceNumber: this.next(), start: {
        streamSid: this.sid, accountSid: "", callSid: "", tracks: ["inbound"], customParameters: { call_token: token },
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 } }, streamSid: this.sid });
      handlers.onOpen?.();
    };
    this.socket.onmessage = (event) => this.receive(event.data);
    this.socket.onclose = (event) => this.finish(event.code, event.reason);
    // An error is always followed by close, which reports it.
    this.socket.onerror = () => {};
  }

  next() {
    this.sequence += 1;
    return String(this.sequence);
  }

  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // not ours to understand; Twilio ignores what it does not know, and so do we
    }
    switch (message.event) {
      case "media":
        if (message.media?.payload) this.handlers.onMedia?.(fromBase64(message.media.payload));
        break;
      case "mark":
        if (message.mark?.name !== undefined) this.handlers.onMark?.(message.mark.name);
        break;
      case "clear":
        this.handlers.onClear?.();
        break;
      default:
        break;
    }
  }

  /** 20 ms of the caller's voice, as 160 μ-law bytes. */
  sendAudio(bytes) {
    if (this.socket.readyState !== WebSocket.OPEN || this.hungUp) return;
    // A stalled connection: drop the frame rather than queue seconds of stale speech.
    if (this.socket.bufferedAmount > 64 * 1024) {
      this.framesDropped += 1;
      return;
    }
    this.chunk += 1;
    this.framesSent += 1;
    this.send({ event: "media", sequenceNumber: this.next(), media: {
      track: "inbound", chunk: String(this.chunk), timestamp: String(Math.round(performance.now() - this.startedAt)),
      payload: toBase64(bytes) }, streamSid: this.sid });
  }

  /** Tells the server the audio before mark `name` has played. */
  markPlayed(name) {
    if (this.hungUp) return;
    this.send({ event: "mark", sequenceNumber: this.next(), streamSid: this.sid, mark: { name } });
  }

  /** Ends the call from this side: `stop`, then close. */
  hangUp() {
    if (this.hungUp || this.closed) return;
    this.hungUp = true;
    this.send({ event: "stop", sequenceNumber: this.next(), stop: { accountSid: "", callSid: "" }, streamSid: this.sid });
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.onopen = () => this.socket.close(1000, "hang up");
    else this.socket.close(1000, "hang up");
  }

  finish(code, reason) {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClose?.({ code, reason, byUs: this.hungUp });
  }
}
