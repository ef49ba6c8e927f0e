// The library: import (upload, paste or a StoryVoice bundle), list, rename, export, delete.
import { api, upload } from "./api.js";
import { $, el, confirmDialog, formatDuration } from "./dom.js";

const states = { not_analyzed: "not analysed", analyzing: "analysing…", analyzed: "analysed", failed: "analysis failed" };

export async function showLibrary() {
  const { stories } = await api("/api/stories");
  const list = $("#story-list");
  list.replaceChildren(...stories.map(storyCard));
  $("#library-empty").hidden = stories.length > 0;
}

function storyCard(story) {
  const title = el("a", { href: `#/stories/${story.id}`, className: "title" }, story.title);
  const imported = `imported ${new Date(story.imported_at).toLocaleDateString(undefined, { dateStyle: "medium" })}`;
  const details = [story.author, imported, states[story.analysis_state], story.duration_seconds ? formatDuration(story.duration_seconds) : null,
    `${story.character_count.toLocaleString()} characters of text`].filter(Boolean).join(" · ");
  const card = el("li", { className: "card", dataset: { id: story.id } },
    el("h3", {}, title), el("p", { className: "hint" }, details));
  const rename = el("button", { type: "button", className: "secondary", "aria-label": `Rename ${story.title}`, onclick: () => startRename(card, story) }, "Rename");
  const remove = el("button", { type: "button", className: "danger", "aria-label": `Delete ${story.title}`, onclick: async () => {
    if (!await confirmDialog(`Delete “${story.title}”? Its analysis, voices and exports go too.`)) return;
    await api(`/api/stories/${story.id}`, { method: "DELETE" });
    await showLibrary();
    $("#import-status").textContent = `Deleted “${story.title}”.`;
  } }, "Delete");
  const bundle = el("a", { className: "button export", href: `/api/stories/${story.id}/bundle`, download: "",
    "aria-label": `Export ${story.title} with its analysis and voices` }, "Export");
  card.append(el("div", { className: "actions" }, rename, bundle, remove));
  return card;
}

function startRename(card, story) {
  const input = el("input", { type: "text", name: "title", value: story.title, required: true, maxLength: 300 });
  const form = el("form", { className: "rename", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api(`/api/stories/${story.id}`, { method: "PATCH", json: { title: input.value } });
      await showLibrary();
    } catch (error) {
      $("#import-status").textContent = error.message;
    }
  } }, el("label", {}, "New title ", input), el("div", { className: "actions" },
    el("button", { type: "submit" }, "Save"),
    el("button", { type: "button", className: "secondary", onclick: () => showLibrary() }, "Cancel")));
  card.replaceChildren(form);
  input.focus();
  input.select();
}

$("#upload-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = $("#import-status");
  status.textContent = "Uploading…";
  try {
    const story = await upload("/api/stories", new FormData(event.target));
    event.target.reset();
    status.textContent = "";
    location.hash = `#/stories/${story.id}`;
  } catch (error) {
    status.textContent = error.message;
  }
});

$("#paste-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const status = $("#import-status");
  try {
    const json = { text: form.elements.text.value };
    if (form.elements.title.value.trim()) json.title = form.elements.title.value;
    const story = await api("/api/stories", { method: "POST", json });
    form.reset();
    status.textContent = "";
    location.hash = `#/stories/${story.id}`;
  } catch (error) {
    status.textContent = error.message;
  }
});
