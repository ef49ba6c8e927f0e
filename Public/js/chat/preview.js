// The animated preview: plays the conversation in the phone from the timeline the video is
// made from (GET /api/chat/conversations/{id}/timeline with the export settings), so the page
// shows what the video does: the "…" indicator, the sender's text typing out in the input bar
// with the keyboard, bubbles appearing, the chat following the newest one, and (optionally) the
// message sounds, synthesised with WebAudio. The phone's data-mode is "play" while it plays;
// its data-sent counts the bubbles shown. Marks `storyvoice:chat-preview-ended` (User Timing).
import { api } from "../shared/api.js";
import { graphemes, settingsQuery } from "./text.js";

/** Short synthesised blips (no sound files): a key click, a rising "sent", a two-note "received". */
function sounds() {
  let context = null;
  function tone(frequency, start, length, { to = frequency, gain = 0.15, type = "sine" } = {}) {
    const oscillator = context.createOscillator();
    const volume = context.createGain();
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(frequency, start);
    oscillator.frequency.exponentialRampToValueAtTime(to, start + length);
    volume.gain.setValueAtTime(0.0001, start);
    volume.gain.exponentialRampToValueAtTime(gain, start + 0.008);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + length);
    oscillator.connect(volume).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + length + 0.02);
  }
  return {
    /** Made in the click that starts playing (browsers allow sound after a gesture). */
    open() {
      context ??= new AudioContext();
      return context.resume().catch(() => {});
    },
    play(sound) {
      if (!context) return;
      const now = context.currentTime;
      if (sound === "key") tone(1800, now, 0.025, { gain: 0.05, type: "triangle", to: 1200 });
      else if (sound === "sent") tone(520, now, 0.16, { to: 1240, gain: 0.12 });
      else if (sound === "received") { tone(880, now, 0.12, { gain: 0.12 }); tone(1320, now + 0.1, 0.18, { gain: 0.12 }); }
    },
    close() {
      context?.close().catch(() => {});
      context = null;
    },
  };
}

/**
 * `phone` from phone.js; `prepare()` saves what is pending and answers {id, conversation,
 * palette, format, watermark} or null; `settings()` the export settings; `onState(state, text)`
 * hears "loading", "playing", "ended", "stopped" and "failed".
 */
export function createPreview({ phone, prepare, settings, onState, signal }) {
  const audio = sounds();
  let run = 0; // bumps on every play and stop: a frame of an older run does nothing
  let frame = null;

  function stop(state = "stopped") {
    run += 1;
    if (frame) cancelAnimationFrame(frame);
    frame = null;
    audio.close();
    onState(state);
  }

  async function play() {
    const mine = ++run;
    const chosen = settings();
    if (chosen.sounds) audio.open();
    onState("loading", "Preparing the preview…");
    let shown;
    let timeline;
    try {
      shown = await prepare();
      if (mine !== run) return;
      if (!shown) {
        run += 1;
        audio.close();
        onState("failed", "The preview plays the saved conversation: fix what could not be saved first (see above).");
        return;
      }
      timeline = await api(`/api/chat/conversations/${shown.id}/timeline?${settingsQuery(chosen)}`, { signal });
    } catch (error) {
      if (mine === run && !signal.aborted) {
        run += 1;
        audio.close();
        onState("failed", `The preview could not start: ${error.message}`);
      }
      return;
    }
    if (mine !== run) return;
    const texts = shown.conversation.messages.map((message) => graphemes(message.text));
    phone.show(shown);
    phone.setMode("play");
    const scene = { sent: 0, typing: "", indicator: null, keyboard: false };
    phone.scene(scene);
    phone.scrollToEnd();
    onState("playing", "Playing…");
    const events = timeline.events;
    let next = 0;
    const started = performance.now();
    const tick = () => {
      if (mine !== run) return;
      const at = performance.now() - started;
      let changed = false;
      let scroll = false;
      while (next < events.length && events[next].at_ms <= at) {
        const event = events[next++];
        changed = true;
        switch (event.type) {
          case "indicator-shown": scene.indicator = event.character; scroll = true; break;
          case "indicator-hidden": scene.indicator = null; break;
          case "keyboard-shown": scene.keyboard = true; scroll = true; break;
          case "keyboard-hidden": scene.keyboard = false; break;
          case "typed": {
            const letters = texts[event.message] ?? [];
            scene.typing = letters.slice(0, event.count).join("");
            phone.press(letters[event.count - 1]);
            break;
          }
          case "sent":
            scene.sent = Math.max(scene.sent, event.message + 1);
            scene.typing = "";
            phone.press(null);
            break;
          case "sound":
            if (chosen.sounds) audio.play(event.sound);
            break;
          case "scroll": scroll = true; break;
        }
      }
      if (changed) phone.scene(scene);
      if (scroll) phone.scrollToEnd(true);
      if (at >= timeline.duration_ms && next >= events.length) {
        frame = null;
        performance.mark("storyvoice:chat-preview-ended", { detail: { sent: scene.sent } });
        audio.close();
        run += 1;
        onState("ended", "Played to the end.");
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
  }

  signal.addEventListener("abort", () => stop(), { once: true });
  return { play, stop, get playing() { return frame !== null; } };
}
