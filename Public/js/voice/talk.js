// Voice chat: hold the button (or the space bar) and speak; the words appear as you speak,
// the answer is written as it comes and spoken sentence by sentence. Each stage that fails can be
// retried alone: the transcript is sent again without recording, a reply is spoken again without
// asking again. Speaking over the answer stops it, and the conversation keeps only what was said.
// The server keeps each conversation (`conversation_id`), so it is listed and can be reopened.
import { api, apiBlob, isAbort, postEvents } from "../shared/api.js";
import { AudioQueue } from "../shared/audio-queue.js";
import { $, el, markup } from "../shared/dom.js";
import { icon } from "../shared/icons.js";
import { modelOptions } from "../shared/models.js";

const html = `
<section id="talk" aria-labelledby="talk-title">
  <div class="talk-head">
    <h2 id="talk-title">Talk</h2>
    <div class="talk-conversations">
      <label><span class="visually-hidden">Conversation</span> <select id="talk-conversation"><option value="">New conversation</option></select></label>
      <button type="button" id="talk-delete" class="secondary" disabled>Delete</button>
    </div>
  </div>
  <div class="talk-window">
    <ol class="messages" id="talk-messages" aria-live="polite" aria-label="Conversation"></ol>
    <p class="talk-empty">Hold the button and ask anything, or type below. Your words appear as you speak; the answer is written and spoken as it comes.</p>
    <p class="heard" id="talk-heard" aria-live="polite"></p>
    <p class="talk-status"><span class="state" id="talk-state" role="status" data-state="idle">idle</span>
      <meter id="talk-level" min="0" max="1" value="0" aria-label="Input level"></meter></p>
    <div class="talk-composer">
      <form id="talk-form">
        <label class="talk-type"><span class="visually-hidden">Or type</span><input id="talk-text" type="text" autocomplete="off" maxlength="4000" placeholder="Type a message"></label>
        <button type="submit">Send</button>
      </form>
      <div class="actions">
        <button type="button" id="hold" aria-pressed="false" aria-keyshortcuts="Space">Hold to talk</button>
        <button type="button" id="talk-stop" class="secondary" disabled>Stop speaking</button>
      </div>
    </div>
  </div>
  <p class="status" role="alert" id="talk-error"></p>
  <details class="talk-settings">
    <summary>Model, voice and hearing</summary>
    <p class="hint" id="talk-model-hint">Answers come from the model on this machine (free; the first answer waits a few seconds for it to load), or from your own model with a key in Settings.</p>
    <div class="row">
      <label>Model
        <select id="talk-model"></select>
      </label>
      <label>Voice <select id="talk-voice"><option value="">The best installed</option></select></label>
      <label>Hearing
        <select id="talk-transcriber">
          <option value="">This machine (faster-whisper, private)</option>
          <option value="openai">OpenAI (your key)</option>
        </select>
      </label>
    </div>
  </details>
</section>`;

/** An object URL for a base64 WAV from the turn's events. */
/** Float32 blocks at `from` Hz to 16-bit samples at `to` Hz (linear interpolation). */
function downsampler(from, to) {
  const step = from / to;
  let position = 0; // where the next output sample falls, in samples from this block's start
  return (block) => {
    const out = new Int16Array(Math.max(0, Math.ceil((block.length - position) / step)));
    let count = 0;
    for (; position < block.length && count < out.length; position += step) {
      const index = Math.floor(position);
      const after = index + 1 < block.length ? block[index + 1] : block[index];
      const value = block[index] + (after - block[index]) * (position - index);
      out[count++] = Math.max(-32768, Math.min(32767, Math.round(value * 32767)));
    }
    position = Math.max(0, position - block.length);
    return out.subarray(0, count);
  };
}

function wavURL(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: "audio/wav" }));
}

export default function talkScreen() {
  let recorder = null;
  let stream = null;
  let audioContext = null;
  let captureModule = null; // the capture worklet, loaded once
  let turn = null; // { controller, reply, spoken[] } of the answer in progress
  let conversation = null; // the id of the conversation the server keeps, once it has one
  const queue = []; // audio waiting to play: {key, url, text, message, turn}
  let speaker = null; // the AudioQueue that plays them, one after another
  let chunks = 0; // keys for the queue

  return {
    async mount(container, _params, { signal, setTitle }) {
      container.replaceChildren(markup(html));
      $("#hold", container).prepend(icon("voice"));
      $("#talk-model", container).append(...modelOptions());
      setTitle("Talk");
      const q = (selector) => $(selector, container);
      // Each waiting state says what it waits for, and can be cancelled.
      const stateText = { listening: "listening…", transcribing: "hearing your last words…", thinking: "writing the answer…" };
      const setState = (state) => {
        q("#talk-state").textContent = stateText[state] ?? state;
        q("#talk-state").dataset.state = state;
        const stop = q("#talk-stop");
        stop.disabled = !["transcribing", "thinking", "speaking"].includes(state);
        stop.textContent = state === "speaking" ? "Stop speaking" : "Cancel";
      };
      const showError = (text, retry) => {
        q("#talk-error").replaceChildren(text, retry ? el("button", { type: "button", className: "secondary", id: "talk-retry", onclick: retry }, "Retry") : "");
      };

      api("/api/voices", { signal }).then(({ voices }) => {
        q("#talk-voice").append(...voices.map((voice) => el("option", { value: voice.id }, `${voice.name} (${voice.engine})`)));
      }).catch(() => {});

      // Conversations are kept by the server; the list is the user's, most recent first.
      // Coming back to Talk opens the latest, as a messaging app does (`openLatest`).
      async function listConversations({ openLatest = false } = {}) {
        try {
          const { conversations } = await api("/api/voice/conversations", { signal });
          q("#talk-conversation").replaceChildren(el("option", { value: "" }, "New conversation"),
            ...conversations.map((item) => el("option", { value: item.id }, item.title)));
          if (openLatest && !conversation && conversations.length) await openConversation(conversations[0].id);
          q("#talk-conversation").value = conversation ?? "";
          q("#talk-delete").disabled = !conversation;
        } catch (error) {
          if (!isAbort(error)) showError(`The conversations could not be listed: ${error.message}`);
        }
      }

      async function openConversation(id) {
        interrupt();
        showError("");
        conversation = id || null;
        q("#talk-messages").replaceChildren();
        q("#talk-delete").disabled = !conversation;
        if (!conversation) return;
        try {
          const { messages } = await api(`/api/voice/conversations/${conversation}`, { signal });
          for (const message of messages) addMessage(message.role, message.interrupted ? `${message.text} …` : message.text);
        } catch (error) {
          if (!isAbort(error)) showError(`The conversation could not be opened: ${error.message}`);
        }
      }
      listConversations({ openLatest: true });

      function addMessage(role, text) {
        const item = el("li", { className: `message ${role}` }, text);
        q("#talk-messages").append(item);
        item.scrollIntoView({ block: "nearest" });
        return item;
      }

      // Playback: chunks in order through the shared AudioQueue, the message highlighted while
      // its sentences play. A chunk that cannot be played counts as said and the next goes on.
      let sounding = null; // the chunk in the element
      const said = (chunk) => {
        URL.revokeObjectURL(chunk.url);
        chunk.message.classList.remove("speaking");
        chunk.turn.spoken.push(chunk.text);
        chunk.message.dataset.spoken = String(chunk.turn.spoken.length);
        if (sounding === chunk) sounding = null;
      };
      speaker = new AudioQueue({
        signal,
        next: () => {
          sounding = queue.shift() ?? null;
          return sounding ? { key: sounding.key, url: sounding.url } : "end";
        },
        on: {
          sounding: () => {
            sounding.message.classList.add("speaking");
            setState("speaking");
            q("#talk-stop").disabled = false;
          },
          ended: () => { if (sounding) said(sounding); },
          end: quiet,
          // Not allowed to play (autoplay): skipped as said, as a failed line is.
          refused: () => {
            if (sounding) said(sounding);
            if (queue.length) speaker.play();
            else quiet();
          },
          error: () => { if (sounding) said(sounding); speaker.advance(); },
        },
      });

      /** Nothing left to say. */
      function quiet() {
        q("#talk-stop").disabled = true;
        if (q("#talk-state").dataset.state === "speaking") setState("idle");
      }

      function playNext() {
        if (!speaker.wanted && queue.length) speaker.play();
      }

      /** Stops the answer: the fetch, the queue, the voice; history keeps what was said. */
      function interrupt() {
        if (!turn) return;
        const current = turn;
        turn = null;
        current.controller.abort();
        for (const chunk of queue.splice(0)) URL.revokeObjectURL(chunk.url);
        if (sounding) { sounding.message.classList.remove("speaking"); URL.revokeObjectURL(sounding.url); sounding = null; }
        speaker.stop();
        q("#talk-stop").disabled = true;
        if (current.reply && current.spoken.length < current.sentences) {
          const said = current.spoken.join(" ");
          current.message.textContent = said ? `${said} …` : "(interrupted)";
          // The conversation remembers only what was heard.
          if (current.conversation) {
            api(`/api/voice/conversations/${current.conversation}/heard`, { method: "POST", json: { text: said } })
              .catch((error) => showError(`What you heard could not be saved: ${error.message}`));
          }
        }
      }

      /** One turn: a recording, or the text of a question; shows and speaks the events. */
      async function send({ listening, text }) {
        interrupt();
        speaker.unlock(); // from the press that sent it: the answer may play when it comes (Safari)
        showError("");
        const controller = new AbortController();
        const current = { controller, reply: "", spoken: [], sentences: 0, texts: [], message: null, conversation };
        turn = current;
        const model = q("#talk-model").value || null;
        const voice = q("#talk-voice").value || null;
        let question = text ?? null;
        let questionItem = text ? addMessage("user", text) : null;
        let failed = null;
        let body;
        let json;
        if (listening) {
          json = { listening_id: listening, conversation_id: conversation ?? "new", model, voice };
          setState("transcribing");
        } else {
          json = { text, conversation_id: conversation ?? "new", model, voice };
          setState("thinking");
        }
        try {
          await postEvents("/api/voice/turn", { body, json, signal: controller.signal }, (name, data) => {
            if (turn !== current) return;
            if (name === "conversation") {
              current.conversation = data.id;
              conversation = data.id;
            } else if (name === "stt-end") {
              question = data.text;
              questionItem = addMessage("user", data.text);
              setState("thinking");
            } else if (name === "llm-delta") {
              current.reply += data.text;
              current.message ??= addMessage("assistant", "");
              current.message.textContent = current.reply;
            } else if (name === "llm-end") {
              current.reply = data.text;
              current.message ??= addMessage("assistant", "");
              current.message.textContent = data.text;
            } else if (name === "tts-start") {
              current.sentences += 1;
              current.texts[data.index] = data.text;
            } else if (name === "tts-audio") {
              const url = wavURL(data.audio);
              queue.push({ key: String(++chunks), url, text: current.texts[data.index] ?? "", message: current.message, turn: current });
              playNext();
            } else if (name === "error") {
              failed = data;
              // The failure said aloud, for a user who listens rather than looks.
              if (data.audio) {
                const url = wavURL(data.audio);
                const audio = new Audio(url);
                audio.addEventListener("ended", () => URL.revokeObjectURL(url), { once: true });
                audio.play().catch(() => URL.revokeObjectURL(url));
              }
            }
          });
        } catch (error) {
          if (isAbort(error)) return;
          failed = { stage: listening && !question ? "stt" : "llm", message: error.message, retryable: error.status !== 422 };
        }
        if (turn === current && !queue.length && !speaker.wanted) setState("idle");
        if (current.conversation) listConversations(); // its title is the first question, once heard
        if (failed) report(failed, current, question, questionItem);
      }

      /** Says what failed and offers to retry that stage alone. */
      function report(failure, current, question, questionItem) {
        setState("idle");
        if (failure.stage === "stt") return showError(`${failure.message} Record again.`);
        if (failure.stage === "llm") {
          current.message?.classList.add("failed");
          questionItem?.remove();
          current.message?.remove();
          return showError(failure.message, failure.retryable && question ? () => send({ text: question }) : null);
        }
        showError(failure.message, async () => {
          try {
            const voice = q("#talk-voice").value || null;
            const wav = await apiBlob("/api/voice/speak", { method: "POST", json: { text: current.reply.slice(0, 300), voice }, signal });
            queue.push({ key: String(++chunks), url: URL.createObjectURL(wav), text: current.reply, message: current.message, turn: current });
            showError("");
            playNext();
          } catch (error) {
            if (!isAbort(error)) showError(error.message);
          }
        });
      }

      // Recording: hold to talk, with a live level. The speech goes to the server while it is
      // spoken (a listening session, a piece every quarter second), so that when the button is
      // let go only the last piece is left to transcribe; what was heard so far is shown.
      async function startRecording() {
        if (recorder) return;
        interrupt();
        showError("");
        try {
          stream ??= await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
        } catch (error) {
          const message = error.name === "NotAllowedError"
            ? "The microphone is blocked: allow it for this site in the browser, or type instead."
            : "No microphone was found: connect one, or type instead.";
          return showError(message);
        }
        audioContext ??= new AudioContext();
        if (audioContext.state === "suspended") await audioContext.resume();
        const session = { stopped: false, pieces: Promise.resolve(), pending: [], id: null, failed: null, startedAt: performance.now() };
        recorder = session;
        q("#hold").setAttribute("aria-pressed", "true");
        setState("listening");
        const transcriber = q("#talk-transcriber").value || null;
        const model = q("#talk-model").value || null;
        session.opened = api("/api/voice/listen", { method: "POST", json: { sample_rate: 16000, transcriber, model, conversation_id: conversation ?? "new" }, signal })
          .then(({ id }) => { session.id = id; })
          .catch((error) => { session.failed = error; });
        await (captureModule ??= audioContext.audioWorklet.addModule(new URL("./capture-worklet.js", import.meta.url)));
        if (recorder !== session) return;
        const source = audioContext.createMediaStreamSource(stream);
        const capture = new AudioWorkletNode(audioContext, "storyvoice-capture");
        const analyser = audioContext.createAnalyser();
        source.connect(analyser);
        source.connect(capture);
        const toServer = downsampler(audioContext.sampleRate, 16000);
        capture.port.onmessage = ({ data }) => { if (!session.stopped) session.pending.push(toServer(data)); };
        session.disconnect = () => { source.disconnect(); capture.port.onmessage = null; capture.disconnect(); };
        session.timer = setInterval(() => sendPiece(session), 250);
        const samples = new Uint8Array(analyser.fftSize);
        const meter = () => {
          if (recorder !== session) return;
          analyser.getByteTimeDomainData(samples);
          let peak = 0;
          for (const sample of samples) peak = Math.max(peak, Math.abs(sample - 128) / 128);
          q("#talk-level").value = peak;
          requestAnimationFrame(meter);
        };
        meter();
      }

      /** Sends what was captured since the last piece, after the pieces before it. */
      function sendPiece(session) {
        const pieces = session.pending.splice(0);
        if (!pieces.length) return session.pieces;
        const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
        const body = new Int16Array(length);
        let offset = 0;
        for (const piece of pieces) { body.set(piece, offset); offset += piece.length; }
        session.pieces = session.pieces.then(async () => {
          await session.opened;
          if (!session.id || session.failed) return;
          try {
            const heard = await api(`/api/voice/listen/${session.id}`, { method: "POST", body: body.buffer, signal });
            if (recorder === session && heard.text) q("#talk-heard").textContent = heard.text;
          } catch (error) {
            if (!isAbort(error)) session.failed = error;
          }
        });
        return session.pieces;
      }

      async function stopRecording() {
        const session = recorder;
        if (!session || session.stopped) return;
        session.stopped = true;
        recorder = null;
        clearInterval(session.timer);
        session.disconnect?.();
        q("#talk-level").value = 0;
        q("#hold").setAttribute("aria-pressed", "false");
        const seconds = (performance.now() - session.startedAt) / 1000;
        await sendPiece(session);
        q("#talk-heard").textContent = "";
        if (seconds < 0.4) {
          if (session.id) api(`/api/voice/listen/${session.id}`, { method: "DELETE" }).catch(() => {});
          setState("idle");
          return showError("That was too short: hold the button while you speak.");
        }
        if (session.failed || !session.id) {
          setState("idle");
          return showError(`Your speech could not be sent: ${(session.failed ?? {}).message ?? "the server did not answer"}. Try again, or type instead.`);
        }
        send({ listening: session.id });
      }

      const hold = q("#hold");
      hold.addEventListener("pointerdown", (event) => { hold.setPointerCapture?.(event.pointerId); startRecording(); }, { signal });
      hold.addEventListener("pointerup", stopRecording, { signal });
      hold.addEventListener("pointercancel", stopRecording, { signal });
      document.addEventListener("keydown", (event) => {
        if (event.code !== "Space" || event.repeat || event.target.closest("input, select, textarea")) return;
        event.preventDefault();
        startRecording();
      }, { signal });
      document.addEventListener("keyup", (event) => {
        if (event.code === "Space" && !event.target.closest("input, select, textarea")) stopRecording();
      }, { signal });
      q("#talk-stop").addEventListener("click", () => { interrupt(); setState("idle"); }, { signal });
      q("#talk-conversation").addEventListener("change", (event) => openConversation(event.target.value), { signal });
      q("#talk-delete").addEventListener("click", async () => {
        if (!conversation || !confirm("Delete this conversation?")) return;
        try {
          await api(`/api/voice/conversations/${conversation}`, { method: "DELETE", signal });
          await openConversation("");
          listConversations();
        } catch (error) {
          if (!isAbort(error)) showError(`The conversation could not be deleted: ${error.message}`);
        }
      }, { signal });
      q("#talk-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const text = q("#talk-text").value.trim();
        if (!text) return;
        q("#talk-text").value = "";
        send({ text });
      }, { signal });
    },
    unmount() {
      turn?.controller.abort();
      if (recorder?.state === "recording") recorder.stop();
      stream?.getTracks().forEach((track) => track.stop());
      audioContext?.close();
      for (const chunk of queue.splice(0)) URL.revokeObjectURL(chunk.url);
      speaker?.dispose();
    },
  };
}
