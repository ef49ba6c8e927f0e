// #/chat — the user's chat stories: create (blank, or written from a prompt by a language
// model: premium), rename, duplicate, delete, open.
//
// A story written from a prompt is shown as the model writes it: each message appears in the
// phone beside the form once complete. "Cancel" hangs up, which stops the model at once and
// keeps nothing; "Keep what is written" stops it too and keeps the messages shown so far as a
// chat story of their own (opened in the editor). When the model finishes, the kept story opens.
import { api, isAbort, postEvents } from "../shared/api.js";
import { createPhone } from "./phone.js";
import { $, el, markup, confirmDialog } from "../shared/dom.js";
import { href } from "../shared/router.js";
import { when } from "./text.js";
import { premiumCard } from "./premium.js";
import { modelOptions } from "../shared/models.js";

const html = `
<section id="chat-list" aria-labelledby="chat-list-title">
  <h2 id="chat-list-title">Chat stories</h2>
  <p class="hint">Fake text conversations, typed out as videos for TikTok, Reels and Shorts. Write one, see it as it will look, play it, export it.</p>
  <div class="actions">
    <button type="button" id="chat-new">New chat story</button>
  </div>
  <p id="chat-list-status" role="status"></p>
  <div id="chat-premium"></div>
  <details id="chat-generate">
    <summary>Write one from a prompt <span class="badge">Premium</span></summary>
    <form id="chat-generate-form">
      <label class="block">What is it about? <textarea name="prompt" rows="3" maxlength="1000" required placeholder="Two friends find out they have been texting the same stranger"></textarea></label>
      <div class="settings">
        <label>Genre <select name="genre">
          <option value="drama">Drama</option><option value="comedy">Comedy</option><option value="romance">Romance</option>
          <option value="horror">Horror</option><option value="mystery">Mystery</option></select></label>
        <label>Mood <select name="mood">
          <option value="funny">Funny</option><option value="dramatic" selected>Dramatic</option>
          <option value="scary">Scary</option><option value="romantic">Romantic</option></select></label>
        <label>Length <select name="length">
          <option value="short">Short (5–10 messages)</option><option value="medium">Medium (10–20)</option><option value="long">Long (20–30)</option></select></label>
        <label>People <input name="characters" type="number" min="2" max="6" value="2"></label>
        <label>Model <select name="model"></select></label>
      </div>
      <div class="actions"><button type="submit" id="chat-generate-start">Write it</button>
        <button type="button" id="chat-generate-cancel" class="secondary" hidden>Cancel</button>
        <button type="button" id="chat-generate-keep" class="secondary" hidden>Keep what is written</button></div>
      <p id="chat-generate-status" role="status"></p>
      <div id="chat-generate-phone" class="generate-phone" hidden></div>
    </form>
  </details>
  <ul id="chat-conversations" class="cards" aria-label="Chat stories"></ul>
  <p id="chat-list-empty" class="hint" hidden>No chat stories yet: start a new one.</p>
</section>`;

export default function chatListScreen() {
  return {
    async mount(container, _params, context) {
      const { signal } = context;
      const q = (selector) => $(selector, container);
      container.replaceChildren(markup(html));
      q("#chat-generate-form").elements.model.append(...modelOptions("This machine (free, private; a minute or two)"));
      context.setTitle("Chat stories");
      const status = (text, error = false) => {
        q("#chat-list-status").textContent = text;
        q("#chat-list-status").classList.toggle("error", error);
      };

      async function list() {
        const { conversations } = await api("/api/chat/conversations", { signal });
        q("#chat-conversations").replaceChildren(...conversations.map(card));
        q("#chat-list-empty").hidden = conversations.length > 0;
      }

      function card(conversation) {
        const item = el("li", { className: "card chat-card", dataset: { id: conversation.id } });
        const failed = (action) => (error) => { if (!isAbort(error)) status(`${action}: ${error.message}`, true); };
        const rename = el("button", { type: "button", className: "secondary", "aria-label": `Rename ${conversation.title}`, onclick: () => {
          const input = el("input", { type: "text", name: "title", value: conversation.title, maxLength: 200, "aria-label": "New title" });
          item.replaceChildren(el("form", { className: "rename", onsubmit: async (event) => {
            event.preventDefault();
            try {
              await api(`/api/chat/conversations/${conversation.id}`, { method: "PUT", json: { title: input.value }, signal });
              status(`Renamed to “${input.value.trim() || "Untitled chat"}”.`);
              await list();
            } catch (error) {
              failed("Not renamed")(error);
            }
          } }, el("label", {}, "New title ", input), el("div", { className: "actions" },
            el("button", { type: "submit" }, "Save"),
            el("button", { type: "button", className: "secondary", onclick: () => list().catch(failed("Not listed")) }, "Cancel"))));
          input.focus();
          input.select();
        } }, "Rename");
        const duplicate = el("button", { type: "button", className: "secondary", "aria-label": `Duplicate ${conversation.title}`, onclick: async () => {
          try {
            const copy = await api(`/api/chat/conversations/${conversation.id}/duplicate`, { method: "POST", signal });
            status(`Made “${copy.title}”.`);
            await list();
          } catch (error) {
            failed("Not duplicated")(error);
          }
        } }, "Duplicate");
        const remove = el("button", { type: "button", className: "danger", "aria-label": `Delete ${conversation.title}`, onclick: async () => {
          if (!await confirmDialog(`Delete “${conversation.title}”? Its videos and their share links go too.`)) return;
          try {
            await api(`/api/chat/conversations/${conversation.id}`, { method: "DELETE", signal });
            status(`Deleted “${conversation.title}”.`);
            await list();
          } catch (error) {
            failed("Not deleted")(error);
          }
        } }, "Delete");
        const count = `${conversation.message_count} message${conversation.message_count === 1 ? "" : "s"}`;
        item.append(
          el("h3", {}, el("a", { href: href(`/chat/${conversation.id}`), className: "title" }, conversation.title)),
          el("p", { className: "hint" }, `${count} · edited ${when(conversation.updated_at)}`),
          el("div", { className: "actions" }, rename, duplicate, remove));
        return item;
      }

      q("#chat-new").addEventListener("click", async () => {
        q("#chat-new").disabled = true;
        try {
          const created = await api("/api/chat/conversations", { method: "POST", json: {}, signal });
          location.hash = href(`/chat/${created.id}`);
        } catch (error) {
          if (!isAbort(error)) status(`No chat story was made: ${error.message}`, true);
          q("#chat-new").disabled = false;
        }
      }, { signal });

      // Written by a language model: premium (the server refuses free accounts and says why).
      const plan = api("/api/chat/entitlement", { signal }).then((entitlement) => {
        if (!entitlement.generator) {
          q("#chat-generate-status").textContent = "Premium: free accounts write their stories by hand.";
        }
        q("#chat-generate-form").elements.characters.max = entitlement.premium ? 6 : 2;
        return premiumCard({ signal, entitlement }).then((card) => q("#chat-premium").replaceChildren(card ?? ""));
      }).catch(() => {});
      // The writing: followed as server-sent events; `stop` ends it (hangs up).
      let writing = null; // { stop: AbortController, draft: the conversation so far }
      let phone = null;
      let palette = null;
      const generateLine = (text, error = false) => {
        q("#chat-generate-status").textContent = text;
        q("#chat-generate-status").classList.toggle("error", error);
      };
      function writingControls(on) {
        q("#chat-generate-start").disabled = on;
        q("#chat-generate-cancel").hidden = !on;
        q("#chat-generate-keep").hidden = !on;
        q("#chat-generate-keep").disabled = true;
      }
      async function showDraft(draft) {
        if (!palette) palette = (await api("/api/chat/themes", { signal })).themes.find((theme) => theme.id === "imessage").light;
        if (!phone) {
          phone = createPhone();
          q("#chat-generate-phone").replaceChildren(phone.root);
        }
        q("#chat-generate-phone").hidden = false;
        phone.show({ conversation: draft, palette, format: "tiktok" });
        phone.scrollToEnd();
      }
      q("#chat-generate-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        if (writing) return;
        const form = event.target;
        const stop = new AbortController();
        writing = { stop, draft: null, ended: false };
        writingControls(true);
        q("#chat-generate-phone").hidden = true;
        generateLine(form.elements.model.value ? "Waiting for the model…" : "Waiting for the model on this machine (it answers people talking to it first)…");
        try {
          await postEvents("/api/chat/generate", { signal: AbortSignal.any([signal, stop.signal]), json: {
            prompt: form.elements.prompt.value, genre: form.elements.genre.value, mood: form.elements.mood.value,
            length: form.elements.length.value, characters: Number(form.elements.characters.value),
            model: form.elements.model.value || undefined } }, (name, data) => {
            if (name === "writing") {
              writing.draft = data;
              const count = data.messages.length;
              generateLine(count ? `Writing… ${count} message${count === 1 ? "" : "s"} so far.` : `Writing… “${data.title}”, with ${data.characters.map((person) => person.name).join(" and ")}.`);
              q("#chat-generate-keep").disabled = count === 0;
              showDraft(data).catch(() => {});
            } else if (name === "retrying") {
              writing.draft = null;
              q("#chat-generate-keep").disabled = true;
              generateLine(`The first answer could not be used (${data.problems.join("; ")}); asking the model again…`);
            } else if (name === "conversation") {
              writing.ended = true;
              location.hash = href(`/chat/${data.id}`);
            } else if (name === "error") {
              writing.ended = true;
              generateLine(data.message, true);
            }
          });
          if (!writing.ended) generateLine("The connection to the server ended before the story was finished; nothing was kept. Try again.", true);
        } catch (error) {
          if (signal.aborted) return;
          if (!isAbort(error)) generateLine(error.message, true);
          else if (!writing.kept) generateLine("Stopped: nothing was kept.");
        } finally {
          writing = null;
          if (!signal.aborted) writingControls(false);
        }
      }, { signal });
      q("#chat-generate-cancel").addEventListener("click", () => writing?.stop.abort(), { signal });
      // Stops the model and keeps the messages shown so far as a chat story of their own.
      q("#chat-generate-keep").addEventListener("click", async () => {
        const draft = writing?.draft;
        if (!draft?.messages.length) return;
        writing.kept = true;
        writing.stop.abort();
        try {
          const kept = await api("/api/chat/conversations", { method: "POST", signal, json: draft });
          location.hash = href(`/chat/${kept.id}`);
        } catch (error) {
          if (!isAbort(error)) generateLine(`Not kept: ${error.message}`, true);
        }
      }, { signal });

      await Promise.all([list(), plan]);
    },
    unmount() {},
  };
}
