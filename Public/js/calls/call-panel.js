// "Try it in the browser": a call to the chosen scenario with the microphone, over the same
// Media Streams protocol Twilio speaks for a phone call (media-stream.js). The panel has one big
// Call / Hang up button, a timer against the plan's limit, a status line (aria-live) and a
// level meter of the agent's voice.
//
// Marks for tests and tools, on #calls-call: data-state (idle, preparing, connecting, ringing,
// listening, speaking, ended, failed), data-frames-played / -received / -sent (20 ms frames),
// data-marks-echoed, data-end-reason (hangup, limit, agent, refused, failed, unreachable, left).
// User Timing: storyvoice:call-connected, storyvoice:call-first-audio, storyvoice:call-ended.
//
// The call's time counts from the agent's first words, as the server counts it (its limit runs
// from the first audio it sends): the timer shows 0:00 while the agent has not spoken.
import { isAbort } from "../shared/api.js";
import { el, markup, formatDuration } from "../shared/dom.js";
import { upgradeList, upgradeWhere } from "./common.js";
import { checkPermission, startBrowserCall } from "./api.js";
import { MicrophoneError, captureFrames, openMicrophone } from "./microphone.js";
import { MediaStreamClient, streamURL } from "./media-stream.js";
import { Speaker } from "./speaker.js";
import { encode } from "./mulaw.js";

const TICK_MS = 25; // marks are echoed, the timer and the meter drawn, this often
const CONNECT_SECONDS = 30; // a socket not open by then is given up (a proxy that holds it, a blocked address)
// The server's wait for the agent's first words (MediaStreamSession.firstAudioWait); it ends a
// call whose agent stays silent that long, and gives it back.
const FIRST_WORDS_SECONDS = 180;
const SILENT_AGENT = "The agent never spoke, so the call was ended and not counted. Try again in a moment.";

const html = `
<section id="calls-browser" class="card calls-browser" aria-labelledby="calls-browser-title">
  <h3 id="calls-browser-title">Try it in the browser</h3>
  <p class="hint">Talk to <strong class="calls-chosen-name">the scenario</strong> with your microphone, no phone needed. It counts as one call of your plan.</p>
  <div id="calls-call" class="calls-call" data-state="idle" data-frames-played="0" data-frames-received="0" data-frames-sent="0" data-marks-echoed="0">
    <button type="button" id="calls-call-button" class="calls-call-button" aria-describedby="calls-call-status">
      <span class="calls-call-glyph" aria-hidden="true">📞</span><span class="calls-call-label">Call</span>
    </button>
    <div class="calls-call-info">
      <p id="calls-call-status" class="calls-call-status" role="status" aria-live="polite">Ready when you are.</p>
      <p class="calls-call-time"><span id="calls-call-timer" aria-label="Time in the call">0:00</span>
        <span class="hint">of <span id="calls-call-limit">1:00</span></span></p>
      <div class="calls-call-progress" aria-hidden="true"><span id="calls-call-progress"></span></div>
      <div class="calls-call-meter" aria-hidden="true" title="The agent's voice"><span id="calls-call-meter"></span></div>
    </div>
  </div>
  <div id="calls-call-error" class="calls-call-error" role="alert"></div>
</section>`;

/** `scenario()` is the chosen scenario; `onEnded()` after a call (the plan and history change). */
export function browserCall({ signal, scenario, onEnded }) {
  const element = markup(html).firstElementChild;
  const q = (selector) => element.querySelector(selector);
  const panel = q("#calls-call");
  const button = q("#calls-call-button");
  let call = null; // the call in progress: its parts, so any end can take them all down

  function setState(state, words) {
    const status = q("#calls-call-status");
    // Called on every tick: only a change touches the page (and the live region speaks once).
    if (panel.dataset.state === state && (words === undefined || status.textContent === words)) return;
    panel.dataset.state = state;
    if (words !== undefined && status.textContent !== words) status.textContent = words;
    labelButton();
  }

  function labelButton() {
    const active = !["idle", "ended", "failed"].includes(panel.dataset.state);
    button.classList.toggle("hang-up", active);
    q(".calls-call-label").textContent = active ? "Hang up" : "Call";
    button.setAttribute("aria-label", active ? "Hang up" : `Call ${scenario()?.name ?? "the scenario"} in the browser`);
  }

  function showError(...parts) {
    q("#calls-call-error").replaceChildren(...parts.filter(Boolean));
  }

  button.addEventListener("click", () => (call ? hangUp() : start()), { signal });
  // Closing or leaving the page hangs up properly (stop, then close), as a phone would.
  window.addEventListener("pagehide", () => call && end("left"), { signal });

  async function start() {
    const chosen = scenario();
    if (!chosen) return;
    showError();
    // startedAt: the socket opened; heardAt: the agent's first words came, and the limit's clock started.
    const current = { ended: false, stream: null, context: null, speaker: null, client: null, stopCapture: null, timer: null,
      startedAt: 0, heardAt: 0, limit: 60, heardAgent: false, marksEchoed: 0, scenario: chosen };
    call = current;
    Object.assign(panel.dataset, { framesPlayed: "0", framesReceived: "0", framesSent: "0", marksEchoed: "0" });
    delete panel.dataset.endReason;
    // The sound is set up now, in the click itself: some browsers (Safari) only let audio
    // start from a user's gesture, and the awaits below would leave it.
    current.context = new AudioContext();
    current.context.resume().catch(() => {});
    setState("preparing", "Checking your plan…");
    // The plan first (no microphone prompt for a call that would be refused), then the
    // microphone: if the browser refuses it, no call is counted.
    try {
      const permission = await checkPermission(signal);
      if (current.ended) return;
      if (!permission.can_make_call) {
        return fail(current, permission.details?.message ?? "No call is left on your plan.", "refused",
          upgradeList(permission.details?.upgrade_options), el("p", { className: "hint" }, upgradeWhere));
      }
    } catch (error) {
      if (isAbort(error)) return cleanUp(current);
      // The call's own request will say what is wrong, if anything is.
    }
    if (current.ended) return cleanUp(current);
    setState("preparing", "Asking for the microphone…");
    try {
      current.stream = await openMicrophone();
    } catch (error) {
      return fail(current, error instanceof MicrophoneError ? error.message : String(error?.message ?? error), "microphone");
    }
    if (current.ended) return cleanUp(current);
    setState("connecting", `Connecting to ${chosen.name}…`);
    let ticket;
    try {
      ticket = await startBrowserCall(chosen.id, signal);
    } catch (error) {
      if (isAbort(error)) return cleanUp(current);
      if (error.status === 402) {
        return fail(current, error.message, "refused", upgradeList(error.upgradeOptions), el("p", { className: "hint" }, upgradeWhere));
      }
      return fail(current, `The call could not start: ${error.message}`, "failed");
    }
    if (current.ended) return cleanUp(current);
    current.limit = ticket.duration_limit ?? 60;
    q("#calls-call-limit").textContent = formatDuration(current.limit);
    current.speaker = new Speaker(current.context, { onMarkPlayed: (name) => {
      current.client?.markPlayed(name);
      current.marksEchoed += 1;
    } });
    current.connectTimer = setTimeout(() => {
      if (call === current && !current.startedAt) end("unreachable", "The call service did not answer. Try again in a moment.");
    }, CONNECT_SECONDS * 1000);
    current.client = new MediaStreamClient(streamURL(ticket.media_stream_path ?? "/media-stream"), ticket.token, {
      onOpen: () => connected(current),
      onMedia: (bytes) => {
        current.speaker.play(bytes);
        if (!current.heardAgent) {
          current.heardAgent = true;
          current.heardAt = performance.now();
          performance.mark("storyvoice:call-first-audio");
        }
      },
      onMark: (name) => current.speaker.mark(name),
      onClear: () => current.speaker.clear(),
      onClose: ({ code, reason }) => closed(current, code, reason),
    });
  }

  async function connected(current) {
    if (current.ended) return;
    current.startedAt = performance.now();
    performance.mark("storyvoice:call-connected");
    setState("ringing", `Ringing ${current.scenario.name}… the agent speaks first.`);
    current.timer = setInterval(() => tick(current), TICK_MS);
    try {
      current.stopCapture = await captureFrames(current.context, current.stream, (frame) => current.client.sendAudio(encode(frame)));
    } catch (error) {
      end("failed", `The microphone could not be read: ${error.message}`);
    }
  }

  function tick(current) {
    if (current.ended) return;
    const { speaker, client } = current;
    speaker.tick();
    const elapsed = secondsInCall(current);
    q("#calls-call-timer").textContent = formatDuration(Math.min(elapsed, current.limit));
    q("#calls-call-progress").style.inlineSize = `${Math.min(100, (elapsed / current.limit) * 100)}%`;
    q("#calls-call-meter").style.inlineSize = `${Math.round(speaker.level() * 100)}%`;
    Object.assign(panel.dataset, { framesPlayed: String(speaker.framesPlayed), framesReceived: String(speaker.framesReceived),
      framesSent: String(client.framesSent), marksEchoed: String(current.marksEchoed) });
    if (speaker.speaking) setState("speaking", `${current.scenario.name} is speaking…`);
    else if (current.heardAgent) setState("listening", "Your turn: talk, the agent is listening.");
    // The server ends the call at the limit, and one whose agent never speaks; these only
    // catch a server that never does.
    if (elapsed > current.limit + 10) end("limit");
    if (!current.heardAt && (performance.now() - current.startedAt) / 1000 > FIRST_WORDS_SECONDS + 10) end("failed", SILENT_AGENT);
  }

  /** Seconds of the call's limit used: from the agent's first words, as the server counts. */
  function secondsInCall(current) {
    return current.heardAt ? (performance.now() - current.heardAt) / 1000 : 0;
  }

  /** The socket closed: by us (a hang-up, already handled) or by the server. */
  function closed(current, code, reason) {
    if (current.ended || call !== current) return;
    if (!current.startedAt) {
      return end("unreachable", `The call service could not be reached (the connection closed with code ${code}). Try again in a moment.`);
    }
    if (code === 1000 && current.heardAt && secondsInCall(current) >= current.limit - 3) return end("limit");
    if ((code === 1000 || code === 1001) && !current.heardAgent) {
      return end("failed", SILENT_AGENT);
    }
    switch (code) {
      case 1000: return end("agent");
      case 1001: return end("agent");
      case 1008: return end("refused", "The server did not accept this call's ticket. Press Call to try again.");
      case 1011: return end("failed", `The voice agent could not start${reason ? ` (${reason})` : ""}. Try again in a moment.`);
      default: return end("failed", `The connection was lost (code ${code}).`);
    }
  }

  function hangUp() {
    if (!call) return;
    end("hangup");
  }

  /** Ends the call in progress however it ended, and says so. */
  function end(reason, problem) {
    const current = call;
    if (!current || current.ended) return;
    const words = !current.startedAt && reason === "hangup" ? "Cancelled: no call was made." : { hangup: "Call ended.", limit: "Call ended (time limit).", agent: "The agent ended the call.", left: "Call ended." }[reason]
      ?? { unreachable: "Could not connect.", refused: "The call was refused.", failed: "The call failed." }[reason] ?? "The call ended.";
    if (current.speaker) {
      current.speaker.tick(); // count what played up to now
      panel.dataset.framesPlayed = String(current.speaker.framesPlayed);
    }
    current.client?.hangUp(); // stop, then close (nothing is sent once the server has closed)
    cleanUp(current);
    panel.dataset.endReason = reason;
    performance.mark("storyvoice:call-ended", { detail: { reason } });
    setState(problem ? "failed" : "ended", words);
    if (problem) showError(el("p", { className: "error" }, problem));
    onEnded();
  }

  /** A call that never connected: nothing to hang up. */
  function fail(current, message, reason, ...more) {
    cleanUp(current);
    panel.dataset.endReason = reason;
    setState("failed", "No call was made.");
    showError(el("p", { className: "error", id: "calls-call-problem" }, message), ...more);
    if (reason !== "microphone") onEnded();
  }

  function cleanUp(current) {
    current.ended = true;
    clearInterval(current.timer);
    clearTimeout(current.connectTimer);
    current.stopCapture?.();
    for (const track of current.stream?.getTracks() ?? []) track.stop();
    current.speaker?.close();
    current.context?.close().catch(() => {});
    q("#calls-call-meter").style.inlineSize = "0%";
    if (call === current) call = null;
  }

  /** Shows the chosen scenario (and its limit stays until a call says otherwise). */
  function show(chosen) {
    q(".calls-chosen-name").textContent = chosen ? `${chosen.icon ?? ""} ${chosen.name}`.trim() : "the scenario";
    labelButton();
    button.disabled = !chosen;
  }

  /** Takes the caller to the panel (from the phone section's "Try it in the browser"). */
  function focus() {
    element.scrollIntoView({ block: "center", behavior: "smooth" });
    button.focus({ preventScroll: true });
  }

  /** The plan's limit, shown before a call (a call's own ticket says it again). */
  function setLimit(seconds) {
    if (!call && seconds) q("#calls-call-limit").textContent = formatDuration(seconds);
  }

  return { element, show, focus, setLimit, dispose: () => { if (call) end("left"); } };
}
