// #/chat — the user's chat stories: create (blank, or written from a prompt by a language
// model: premium), rename, duplicate, delete, open.
import { api, isAbort } from "../shared/api.js";
import { $, el, markup, confirmDialog } from "../shared/dom.js";
import { href } from "../shared/router.js";
import { when } from "./text.js";

const html = `
<section id="chat-list" aria-labelledby="chat-list-title">
  <h2 id="chat-list-title">Chat stories</h2>
  <p class="hint">Fake text conversations, typed out as videos for TikTok, Reels and Shorts. Write one, see it as it will look, play it, export it.</p>
  <div class="actions">
    <button type="button" id="chat-new">New chat story</button>
  </div>
  <p id="chat-list-status" role="status"></p>
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
        <label>Model <select name="model">
          <option value="">This machine (free, private; a minute or two)</option>
          <option value="openai:gpt-4o-mini">OpenAI gpt-4o-mini (your key)</option>
          <option value="anthropic:claude-3-5-haiku-latest">Anthropic Claude Haiku (your key)</option>
          <option value="gemini:gemini-2.0-flash">Gemini 2.0 Flash (your key)</option></select></label>
      </div>
      <div class="actions"><button type="submit" id="chat-generate-start">Write it</button></div>
      <p id="chat-generate-status" role="status"></p>
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
      }).catch(() => {});
      q("#chat-generate-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        const form = event.target;
        const line = q("#chat-generate-status");
        const button = q("#chat-generate-start");
        button.disabled = true;
        line.classList.remove("error");
        line.textContent = "Writing… (a model can take a minute)";
        try {
          const reply = await api("/api/chat/generate", { method: "POST", signal, json: {
            prompt: form.elements.prompt.value, genre: form.elements.genre.value, mood: form.elements.mood.value,
            length: form.elements.length.value, characters: Number(form.elements.characters.value),
            model: form.elements.model.value || undefined } });
          // The conversation made (kept by the server), or one to keep.
          const made = reply.conversation ?? reply;
          const kept = made.created_at ? made : await api("/api/chat/conversations", { method: "POST", signal,
            json: { title: made.title, characters: made.characters, messages: made.messages } });
          location.hash = href(`/chat/${kept.id}`);
        } catch (error) {
          if (isAbort(error)) return;
          line.textContent = error.message;
          line.classList.add("error");
        } finally {
          if (!signal.aborted) button.disabled = false;
        }
      }, { signal });

      await Promise.all([list(), plan]);
    },
    unmount() {},
  };
}
