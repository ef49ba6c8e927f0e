// The library: import (upload, paste or a StoryVoice bundle), list, rename, export, delete.
import { api, upload } from "../shared/api.js";
import { $, el, markup, confirmDialog, formatDuration } from "../shared/dom.js";
import { href } from "../shared/router.js";
import { downloadLink } from "../shared/download.js";
import { cover } from "../shared/cover.js";

const states = { not_analyzed: "not analysed", analyzing: "analysing…", analyzed: "analysed", failed: "analysis failed" };

const html = `
<section id="library" aria-labelledby="library-title">
  <h2 id="library-title">Your stories</h2>
  <details id="import" open>
    <summary>Add a story</summary>
    <form id="upload-form">
      <label>File (.txt, .md, .html, .epub, or a .storyvoice.zip exported from StoryVoice) <input name="file" type="file" accept=".txt,.md,.markdown,.html,.htm,.epub,.zip" required></label>
      <div class="actions"><button type="submit">Upload</button></div>
    </form>
    <form id="paste-form">
      <label>Title <input name="title" type="text" placeholder="From the first line if empty"></label>
      <label class="block">Text <textarea name="text" rows="6" required></textarea></label>
      <div class="actions"><button type="submit">Add pasted story</button></div>
    </form>
    <p class="status" role="status" id="import-status"></p>
  </details>
  <ul id="story-list" class="cards" aria-label="Stories"></ul>
  <p id="library-empty" hidden>No stories yet: upload a file or paste some text.</p>
</section>`;

export default function libraryScreen() {
  let signal = null;
  let container = null;
  const status = () => $("#import-status", container);

  async function list() {
    const { stories } = await api("/api/stories", { signal });
    $("#story-list", container).replaceChildren(...stories.map(storyCard));
    $("#library-empty", container).hidden = stories.length > 0;
  }

  function storyCard(story) {
    const title = el("a", { href: href(`/stories/${story.id}`), className: "title" }, story.title);
    const imported = `imported ${new Date(story.imported_at).toLocaleDateString(undefined, { dateStyle: "medium" })}`;
    const details = [story.author, imported, states[story.analysis_state], story.duration_seconds ? formatDuration(story.duration_seconds) : null,
      `${story.character_count.toLocaleString()} characters of text`].filter(Boolean).join(" · ");
    const card = el("li", { className: "card story-card", dataset: { id: story.id } },
      cover(story.title), el("h3", {}, title), el("p", { className: "hint" }, details));
    const rename = el("button", { type: "button", className: "secondary", "aria-label": `Rename ${story.title}`, onclick: () => startRename(card, story) }, "Rename");
    const remove = el("button", { type: "button", className: "danger", "aria-label": `Delete ${story.title}`, onclick: async () => {
      if (!await confirmDialog(`Delete “${story.title}”? Its analysis, voices and exports go too.`)) return;
      try {
        await api(`/api/stories/${story.id}`, { method: "DELETE", signal });
        await list();
        status().textContent = `Deleted “${story.title}”.`;
      } catch (error) {
        if (!signal.aborted) status().textContent = error.message;
      }
    } }, "Delete");
    const bundle = downloadLink(`/api/stories/${story.id}/bundle`, { signal, className: "button export",
      "aria-label": `Export ${story.title} with its analysis and voices`, onError: (message) => { status().textContent = message; } }, "Export");
    card.append(el("div", { className: "actions" }, rename, bundle, remove));
    return card;
  }

  function startRename(card, story) {
    const input = el("input", { type: "text", name: "title", value: story.title, required: true, maxLength: 300 });
    const form = el("form", { className: "rename", onsubmit: async (event) => {
      event.preventDefault();
      try {
        await api(`/api/stories/${story.id}`, { method: "PATCH", json: { title: input.value }, signal });
        await list();
      } catch (error) {
        if (!signal.aborted) status().textContent = error.message;
      }
    } }, el("label", {}, "New title ", input), el("div", { className: "actions" },
      el("button", { type: "submit" }, "Save"),
      el("button", { type: "button", className: "secondary", onclick: () => list().catch(() => {}) }, "Cancel")));
    card.replaceChildren(form);
    input.focus();
    input.select();
  }

  return {
    async mount(root, _params, context) {
      container = root;
      signal = context.signal;
      container.replaceChildren(markup(html));
      context.setTitle("Your stories");

      $("#upload-form", container).addEventListener("submit", async (event) => {
        event.preventDefault();
        status().textContent = "Uploading…";
        try {
          const story = await upload("/api/stories", new FormData(event.target), { signal });
          event.target.reset();
          status().textContent = "";
          await startAnalysis(story, signal);
          location.hash = href(`/stories/${story.id}`);
        } catch (error) {
          if (!signal.aborted) status().textContent = error.message;
        }
      }, { signal });

      $("#paste-form", container).addEventListener("submit", async (event) => {
        event.preventDefault();
        const form = event.target;
        try {
          const json = { text: form.elements.text.value };
          if (form.elements.title.value.trim()) json.title = form.elements.title.value;
          const story = await api("/api/stories", { method: "POST", json, signal });
          form.reset();
          status().textContent = "";
          await startAnalysis(story, signal);
          location.hash = href(`/stories/${story.id}`);
        } catch (error) {
          if (!signal.aborted) status().textContent = error.message;
        }
      }, { signal });

      await list();
    },
    unmount() {
      // Everything registered in mount stops with the shell's signal; the screen keeps nothing else.
    },
  };
}

/** A new story is analysed at once (offline, free): its page opens on the analysis' progress.
 * A bundle that brought its analysis, or a refusal, leaves the page's Analyse button to it. */
async function startAnalysis(story, signal) {
  if (story.analysis_state !== "not_analyzed") return;
  try {
    await api(`/api/stories/${story.id}/analyze`, { method: "POST", json: {}, signal });
  } catch (error) {
    if (signal.aborted) throw error;
  }
}
