// #/chat/:id — one chat story: its people, its messages and how it looks, with the phone
// preview beside them (live as you type), the animated preview and the export.
//
// Every change is saved by sending the whole conversation (PUT), a moment after the last one;
// one save at a time, and the next as soon as it returns if more changed meanwhile. A refused or
// failed save keeps everything in the page: the status says why (and a message the server names
// is marked), "Try again" sends it again, and the next change does too. Leaving the page with
// changes not saved sends them one last time.
//
// Each save names the version this page last read or wrote (If-Match): when another tab or a
// phone changed the story meanwhile, the server refuses (412) rather than this page silently
// overwriting their change; the user then reloads it, or keeps this page's version.
import { api, apiTagged, isAbort } from "../shared/api.js";
import { $ as find, el, markup } from "../shared/dom.js";
import { createPhone } from "./phone.js";
import { createPreview } from "./preview.js";
import { peoplePart } from "./people.js";
import { messagesPart } from "./messages.js";
import { exportPart } from "./export.js";
import { formats, speeds, messageIndexIn } from "./text.js";

const html = `
<section id="chat-editor" aria-labelledby="chat-heading">
  <p class="back"><a href="#/chat">← All chat stories</a></p>
  <h2 id="chat-heading"></h2>
  <div class="chat-layout">
    <div class="chat-edit">
      <div class="title-row">
        <label class="grow">Title <input id="chat-title" type="text" maxlength="200" autocomplete="off"></label>
        <p id="chat-save" class="save-status" role="status" aria-live="polite"></p>
      </div>
      <details id="chat-people" open>
        <summary>People</summary>
        <div id="chat-people-list" class="people"></div>
        <div class="actions"><button type="button" id="chat-add-person" class="secondary">Add a person</button></div>
        <p id="chat-people-hint" class="hint"></p>
      </details>
      <section class="chat-messages" aria-labelledby="chat-messages-title">
        <h3 id="chat-messages-title">Messages</h3>
        <ol id="chat-messages" class="message-list"></ol>
        <p id="chat-messages-empty" class="hint">No messages yet: choose who writes, type, and press Enter.</p>
        <p id="chat-messages-status" class="hint" role="status"></p>
        <form id="chat-compose" class="compose">
          <div id="chat-switcher" class="switcher" role="group" aria-label="Who writes the next message"></div>
          <label class="block"><span id="chat-text-label">Message</span>
            <textarea id="chat-text" rows="2" autocomplete="off"></textarea></label>
          <div class="actions"><button type="submit" id="chat-send">Send</button>
            <span class="hint">Enter sends; Shift+Enter starts a new line.</span></div>
        </form>
      </section>
    </div>
    <aside class="chat-side" aria-label="Preview">
      <div class="look">
        <label>Look <select id="chat-theme"></select></label>
        <label><input type="checkbox" id="chat-dark"> Dark</label>
      </div>
      <p id="chat-theme-note" class="hint"></p>
      <figure class="phone-frame">
        <div id="chat-phone-slot"></div>
        <figcaption class="visually-hidden">How the video shows the conversation</figcaption>
      </figure>
      <div class="actions">
        <button type="button" id="chat-play" aria-pressed="false">Play preview</button>
        <button type="button" id="chat-stop" class="secondary" disabled>Stop</button>
      </div>
      <p id="chat-preview-status" class="hint" role="status"></p>
    </aside>
  </div>
  <section id="chat-export" class="chat-export" aria-labelledby="chat-export-title">
    <h3 id="chat-export-title">Export a video</h3>
    <p id="chat-plan" class="hint"></p>
    <details id="chat-premium-more" hidden><summary>What premium brings</summary><div id="chat-premium"></div></details>
    <form id="chat-export-form">
      <div class="settings">
        <label>Format <select id="chat-format" name="format"></select></label>
        <label>Typing speed <select id="chat-speed" name="typing_speed"></select></label>
        <label>Frame rate <select id="chat-fps" name="fps"><option value="30">30 fps</option><option value="60">60 fps</option></select></label>
        <label><input type="checkbox" id="chat-keyboard" name="keyboard" checked> Keyboard</label>
        <label><input type="checkbox" id="chat-indicator" name="typing_indicator" checked> Typing indicator</label>
        <label><input type="checkbox" id="chat-sounds" name="sounds" checked> Sounds</label>
      </div>
      <p class="hint">The look and dark mode are the preview's.</p>
      <div class="actions">
        <button type="submit" id="chat-export-start">Export video</button>
        <progress id="chat-export-bar" max="1" value="0" hidden aria-label="Export progress"></progress>
        <button type="button" id="chat-export-cancel" class="secondary" hidden>Cancel</button>
      </div>
      <p id="chat-export-status" role="status"></p>
    </form>
    <div id="chat-export-result" hidden>
      <div class="actions">
        <a id="chat-export-download" class="button">Download</a>
        <button type="button" id="chat-export-share" class="secondary">Share link</button>
      </div>
      <p id="chat-share" hidden>
        <label class="grow">Public link <input id="chat-share-url" type="text" readonly></label>
        <a id="chat-share-open" target="_blank" rel="noopener">Open</a>
        <button type="button" id="chat-share-copy" class="secondary">Copy</button>
        <button type="button" id="chat-share-stop" class="danger">Stop sharing</button>
      </p>
      <video id="chat-export-video" controls playsinline preload="metadata" aria-label="The exported video"></video>
    </div>
  </section>
</section>`;

export default function editorScreen() {
  let view = null;

  return {
    async mount(container, params, context) {
      const { signal } = context;
      const $ = (selector) => find(selector, container);
      let conversation;
      let themes;
      let etag; // the version this page holds, for If-Match
      try {
        let loaded;
        [loaded, { themes }] = await Promise.all([
          apiTagged(`/api/chat/conversations/${encodeURIComponent(params.id)}`, { signal }),
          api("/api/chat/themes", { signal }),
        ]);
        ({ value: conversation, etag } = loaded);
      } catch (error) {
        if (isAbort(error)) return;
        if (error.status === 404 || error.status === 400) {
          return context.showProblem("Chat story not found", "There is no chat story at this address (it may have been deleted).", [["/chat", "Your chat stories"]]);
        }
        throw error;
      }
      container.replaceChildren(markup(html));
      context.setTitle(conversation.title);
      $("#chat-heading").textContent = conversation.title;
      $("#chat-title").value = conversation.title;
      $("#chat-format").append(...formats.map((format) => el("option", { value: format.id }, format.name)));
      $("#chat-speed").append(...speeds.map((speed) => el("option", { value: speed.id, selected: speed.id === "normal" }, speed.name)));

      const phone = createPhone();
      $("#chat-phone-slot").replaceWith(phone.root);

      // Saving: the whole conversation, one PUT at a time.
      let dirty = false;
      let inFlight = null;
      let timer = null;
      let failure = null;

      function saveStatus(text, { error = false, retry = false, stale = false } = {}) {
        const line = $("#chat-save");
        line.classList.toggle("error", error);
        line.replaceChildren(text, retry ? el("button", { type: "button", className: "link", id: "chat-save-retry", onclick: () => save() }, "Try again") : "");
        if (stale) {
          line.append(
            el("button", { type: "button", className: "link", id: "chat-save-reload", onclick: () => location.reload() }, "Reload it"), " or ",
            el("button", { type: "button", className: "link", id: "chat-save-overwrite", onclick: () => { etag = null; dirty = true; save(); } }, "keep this page's version"));
        }
      }
      const ifMatch = () => (etag ? { "If-Match": etag } : {});

      const body = () => ({ title: view.conversation.title, theme: view.conversation.theme,
        characters: view.conversation.characters, messages: view.conversation.messages });

      /** Sends the conversation once; resolves true when the server kept it. */
      function save() {
        clearTimeout(timer);
        if (inFlight) return inFlight;
        if (!dirty) return Promise.resolve(!failure);
        dirty = false;
        saveStatus("Saving…");
        inFlight = (async () => {
          let ok = false;
          try {
            const kept = await apiTagged(`/api/chat/conversations/${view.id}`, { method: "PUT", json: body(), signal, headers: ifMatch() });
            failure = null;
            etag = kept.etag;
            view.conversation.updated_at = kept.value.updated_at;
            ok = true;
          } catch (error) {
            dirty = true; // what the page holds is still to be saved
            if (isAbort(error)) return false;
            failure = error;
          } finally {
            inFlight = null;
          }
          if (signal.aborted) return ok;
          if (ok && dirty) {
            queueMicrotask(save); // more changed meanwhile
          } else if (ok) {
            saveStatus("Saved");
            messages.markError(null, "");
            people.explain("");
          } else if (failure.code === "stale_version") {
            saveStatus("Not saved: this chat story was changed in another tab or window since this page read it. ", { error: true, stale: true });
          } else {
            const reason = failure.status ? people.explain(failure.message) : "the server could not be reached.";
            const generic = failure.generic || !failure.status || failure.status >= 500;
            saveStatus(`Not saved: ${reason}${generic ? " Your changes are kept in this page." : ""} `, { error: true, retry: true });
            const index = messageIndexIn(failure.message);
            messages.markError(index, index === null ? "" : failure.message);
          }
          return ok;
        })();
        return inFlight;
      }

      /** Saves now what is pending; true once the server has all of it. */
      async function flush() {
        clearTimeout(timer);
        for (;;) {
          if (inFlight) {
            await inFlight;
            continue;
          }
          if (!dirty) return !failure;
          if (!await save()) return false;
        }
      }

      function schedule() {
        dirty = true;
        clearTimeout(timer);
        if (!failure) saveStatus("Changes not saved yet…"); // a refusal stays in view until a save succeeds
        timer = setTimeout(save, 700);
      }

      const paletteOf = () => {
        const theme = themes.find((entry) => entry.id === view.conversation.theme) ?? themes[0];
        return $("#chat-dark").checked ? theme.dark : theme.light;
      };

      /** The phone in the editor: every bubble, and the one being written. */
      function showStill() {
        if (phonePlaying) return;
        phone.setMode("edit");
        phone.show({ conversation: view.conversation, palette: paletteOf(), format: exports.settings().format, watermark: view.entitlement?.watermark_forced });
        phone.scene({ draft: messages.draft() });
        phone.scrollToEnd();
      }

      let phonePlaying = false;
      view = {
        id: conversation.id, conversation, entitlement: null, active: null, $, signal, flush,
        /** Something changed: the phone follows, and a save is scheduled. */
        changed({ people = false, messages: order = false } = {}) {
          stopPreview();
          if (people) messages.refreshPeople();
          if (people || order) showStill();
          schedule();
        },
        /** One message's text changed in place. */
        textChanged(index, text) {
          stopPreview();
          phone.setText(index, text);
          schedule();
        },
        draftChanged() {
          stopPreview();
          phone.scene({ draft: messages.draft() });
          phone.scrollToEnd();
        },
        settingsChanged() { stopPreview(); showStill(); },
        planChanged() { themeNote(); people.hint(); showStill(); },
        markMessage(index, text) { messages.markError(index, text); },
        renderMessages() { messages.render(); },
      };

      const people = peoplePart(view);
      const messages = messagesPart(view);
      const exports = exportPart(view);

      // The look.
      function themeNote() {
        const theme = themes.find((entry) => entry.id === view.conversation.theme);
        const allowed = view.entitlement?.themes;
        $("#chat-theme-note").textContent = theme?.premium && allowed && !allowed.includes(theme.id)
          ? `“${theme.name}” comes with premium: you can try it here, but free accounts export in “${themes.find((entry) => !entry.premium)?.name}”.` : "";
        for (const option of $("#chat-theme").options) {
          const entry = themes.find((item) => item.id === option.value);
          const locked = entry.premium && allowed && !allowed.includes(entry.id);
          option.textContent = `${entry.name}${entry.premium ? (locked ? " (premium, locked)" : " (premium)") : ""}`;
        }
      }
      $("#chat-theme").append(...themes.map((theme) => el("option", { value: theme.id, selected: theme.id === conversation.theme }, theme.name)));
      themeNote();
      $("#chat-theme").addEventListener("change", () => {
        view.conversation.theme = $("#chat-theme").value;
        themeNote();
        view.changed({ people: true });
      }, { signal });
      $("#chat-dark").addEventListener("change", () => {
        const saved = JSON.parse(localStorage.getItem("storyvoice:chat-export") ?? "{}");
        localStorage.setItem("storyvoice:chat-export", JSON.stringify({ ...saved, dark: $("#chat-dark").checked }));
        stopPreview();
        showStill();
      }, { signal });
      try {
        $("#chat-dark").checked = Boolean(JSON.parse(localStorage.getItem("storyvoice:chat-export") ?? "{}").dark);
      } catch {
        // the default: light
      }

      // The title: renames as it is typed (saved with the rest).
      $("#chat-title").addEventListener("input", () => {
        view.conversation.title = $("#chat-title").value;
        $("#chat-heading").textContent = view.conversation.title || "Untitled chat";
        context.setTitle(view.conversation.title || "Untitled chat");
        schedule();
      }, { signal });

      // The animated preview.
      const preview = createPreview({
        phone, signal, settings: exports.settings,
        async prepare() {
          if (!await flush()) return null;
          return { id: view.id, conversation: structuredClone(view.conversation), palette: paletteOf(),
            format: exports.settings().format, watermark: view.entitlement?.watermark_forced };
        },
        onState(state, text = "") {
          phonePlaying = state === "loading" || state === "playing";
          $("#chat-play").setAttribute("aria-pressed", String(phonePlaying));
          $("#chat-play").textContent = state === "ended" ? "Play again" : "Play preview";
          $("#chat-stop").disabled = !phonePlaying;
          const line = $("#chat-preview-status");
          line.textContent = state === "stopped" ? "" : text;
          line.dataset.state = state;
          line.classList.toggle("error", state === "failed");
          if (state === "stopped" || state === "failed") showStill();
        },
      });
      function stopPreview() {
        if (phonePlaying || phone.root.dataset.mode === "play") {
          phonePlaying = false;
          preview.stop();
        }
      }
      $("#chat-play").addEventListener("click", () => {
        if (!view.conversation.messages.length) {
          $("#chat-preview-status").textContent = "Write a message first: there is nothing to play.";
          return;
        }
        preview.play();
      }, { signal });
      $("#chat-stop").addEventListener("click", () => stopPreview(), { signal });

      // Leaving with changes not saved: one last save, outside the screen's signal; and the
      // browser asks before closing the tab.
      addEventListener("beforeunload", (event) => {
        if (dirty || inFlight) event.preventDefault();
      }, { signal });
      view.leave = () => {
        clearTimeout(timer);
        // A save in flight is aborted with the screen: send the conversation again.
        if (dirty || inFlight) api(`/api/chat/conversations/${view.id}`, { method: "PUT", json: body(), headers: ifMatch() }).catch(() => {});
      };

      people.render();
      messages.render();
      showStill();
      saveStatus(`Saved ${new Date(conversation.updated_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`);
      exports.refreshPlan();
      exports.latest();
    },
    unmount() {
      view?.leave?.();
    },
  };
}
