// The messages: written by choosing who writes (buttons) and pressing Enter or Send; edited in
// place, deleted (with Undo), moved by drag and drop or with the ↑/↓ buttons beside each. The
// phone shows the message being written as a faint bubble while it is typed.
import { el } from "../shared/dom.js";
import { graphemes, inkOn, newID } from "./text.js";

const maxLength = 2000; // the server's limit, in grapheme clusters

export function messagesPart(view) {
  const { $, signal } = view;
  const list = $("#chat-messages");
  const text = $("#chat-text");
  let dragged = null;
  let undo = null; // { message, index } of the last deleted message

  const person = (id) => view.conversation.characters.find((character) => character.id === id);

  function status(...content) {
    $("#chat-messages-status").replaceChildren(...content);
  }

  /** The buttons that choose who writes the next message. */
  function renderSwitcher() {
    const people = view.conversation.characters;
    if (!people.some((character) => character.id === view.active)) view.active = (people.find((character) => !character.is_me) ?? people[0]).id;
    $("#chat-switcher").replaceChildren(...people.map((character) => el("button", {
      type: "button", className: "person-button", dataset: { id: character.id, name: character.name }, "aria-pressed": String(character.id === view.active),
      style: `--person: ${character.color}; --person-ink: ${inkOn(character.color)}`, onclick: () => {
        view.active = character.id;
        renderSwitcher();
        view.draftChanged();
        text.focus();
      } }, el("span", { className: "swatch", "aria-hidden": "true" }, character.avatar_emoji ?? ""), character.name || "(no name)",
      character.is_me && character.name.trim().toLowerCase() !== "me" ? el("span", { className: "hint" }, " (me)") : "")));
    $("#chat-text-label").textContent = `Message from ${person(view.active)?.name ?? ""}`;
  }

  /** People renamed or recoloured: the buttons, and each message's sender and colour, in place. */
  function refreshPeople() {
    renderSwitcher();
    for (const item of list.children) {
      const message = view.conversation.messages[Number(item.dataset.index)];
      item.style.setProperty("--person", person(message?.character_id)?.color ?? "#8E8E93");
      for (const option of item.querySelector(".message-from").options) option.textContent = person(option.value)?.name ?? "";
    }
  }

  function render() {
    const messages = view.conversation.messages;
    list.replaceChildren(...messages.map(row));
    $("#chat-messages-empty").hidden = messages.length > 0;
    renderSwitcher();
  }

  function row(message, index) {
    const count = view.conversation.messages.length;
    const label = `Message ${index + 1}`;
    const from = el("select", { className: "message-from", "aria-label": `${label}: from`, onchange: () => {
      message.character_id = from.value;
      view.changed({ messages: true });
      render();
    } }, ...view.conversation.characters.map((character) => el("option", { value: character.id, selected: character.id === message.character_id }, character.name)));
    const area = el("textarea", { className: "message-text", rows: 1, value: message.text, "aria-label": label, oninput: () => {
      message.text = area.value;
      grow(area);
      counter(area, item);
      view.textChanged(index, area.value);
    } });
    const move = (by) => {
      const to = index + by;
      const messages = view.conversation.messages;
      [messages[index], messages[to]] = [messages[to], messages[index]];
      view.changed({ messages: true });
      render();
      status(`Moved message ${index + 1} to place ${to + 1}.`);
      // The row is new after the render: focus the same button on it, or the other if it is gone.
      const moved = list.children[to];
      (moved?.querySelector(by < 0 ? ".move-up:not(:disabled)" : ".move-down:not(:disabled)") ?? moved?.querySelector(".message-text"))?.focus();
    };
    const item = el("li", { className: "message-row", dataset: { index: String(index), id: message.id }, style: `--person: ${person(message.character_id)?.color ?? "#8E8E93"}` },
      // Only the handle drags (text in the row stays selectable); the buttons move by keyboard.
      el("span", { className: "handle", title: "Drag to move", "aria-hidden": "true", onpointerdown: () => { item.draggable = true; }, onpointerup: () => { item.draggable = false; } }, "⠿"),
      from, area,
      el("span", { className: "message-buttons" },
        el("button", { type: "button", className: "icon secondary move-up", disabled: index === 0, "aria-label": `Move message ${index + 1} up`, onclick: () => move(-1) }, "↑"),
        el("button", { type: "button", className: "icon secondary move-down", disabled: index === count - 1, "aria-label": `Move message ${index + 1} down`, onclick: () => move(1) }, "↓"),
        el("button", { type: "button", className: "icon danger delete", "aria-label": `Delete message ${index + 1}`, onclick: () => {
          view.conversation.messages.splice(index, 1);
          undo = { message, index };
          view.changed({ messages: true });
          render();
          status(`Deleted message ${index + 1}. `, el("button", { type: "button", className: "link", id: "chat-undo", onclick: () => {
            if (!undo) return;
            view.conversation.messages.splice(Math.min(undo.index, view.conversation.messages.length), 0, undo.message);
            undo = null;
            view.changed({ messages: true });
            render();
            status("Message restored.");
          } }, "Undo"));
          (list.children[Math.min(index, list.children.length - 1)]?.querySelector(".message-text") ?? text).focus();
        } }, "✕")),
      el("p", { className: "message-error error", hidden: true }));
    requestAnimationFrame(() => grow(area));
    counter(area, item);
    return item;
  }

  /** A textarea as tall as its text. */
  function grow(area) {
    area.style.height = "auto";
    area.style.height = `${area.scrollHeight + 2}px`;
  }

  /** Says when a message is longer than the server keeps (it is kept here until shortened). */
  function counter(area, item) {
    const length = graphemes(area.value).length;
    if (length > maxLength) showError(item, `${length.toLocaleString()} characters; a message can be at most ${maxLength.toLocaleString()}. Split it.`);
    else if (item.dataset.tooLong) showError(item, "");
    item.dataset.tooLong = length > maxLength ? "1" : "";
  }

  function showError(item, message) {
    const line = item.querySelector(".message-error");
    line.textContent = message;
    line.hidden = !message;
    item.querySelector(".message-text").setAttribute("aria-invalid", message ? "true" : "false");
  }

  /** Marks message `index` with the server's words about it (and clears the others). */
  function markError(index, message) {
    [...list.children].forEach((item, at) => {
      if (at === index) showError(item, message);
      else if (!item.dataset.tooLong) showError(item, "");
    });
    if (index !== null && list.children[index]) list.children[index].scrollIntoView({ block: "nearest" });
  }

  // Drag and drop: the row dropped on takes the dragged message's place.
  list.addEventListener("dragstart", (event) => {
    const item = event.target.closest?.(".message-row");
    if (!item || event.target.matches("textarea, select, button")) return;
    dragged = Number(item.dataset.index);
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", item.dataset.id);
    item.classList.add("dragging");
  }, { signal });
  list.addEventListener("dragover", (event) => {
    if (dragged === null) return;
    event.preventDefault();
    const item = event.target.closest?.(".message-row");
    for (const other of list.children) other.classList.toggle("drop-target", other === item);
  }, { signal });
  list.addEventListener("dragend", () => {
    dragged = null;
    for (const other of list.children) {
      other.classList.remove("dragging", "drop-target");
      other.draggable = false;
    }
  }, { signal });
  list.addEventListener("drop", (event) => {
    const item = event.target.closest?.(".message-row");
    if (dragged === null || !item) return;
    event.preventDefault();
    const to = Number(item.dataset.index);
    const from = dragged;
    dragged = null;
    if (to === from) return render();
    const messages = view.conversation.messages;
    const [message] = messages.splice(from, 1);
    messages.splice(to, 0, message);
    view.changed({ messages: true });
    render();
    status(`Moved message ${from + 1} to place ${to + 1}.`);
  }, { signal });

  // Writing: Enter sends, Shift+Enter is a new line; the phone shows the text as it is typed.
  function send() {
    const value = text.value;
    if (!value.trim()) {
      status("Write something first.");
      return;
    }
    view.conversation.messages.push({ id: newID(), character_id: view.active, text: value, timestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z") });
    text.value = "";
    status("");
    view.changed({ messages: true });
    render();
    view.draftChanged();
    list.lastElementChild?.scrollIntoView({ block: "nearest" });
    text.focus();
  }
  $("#chat-compose").addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  }, { signal });
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
  }, { signal });
  text.addEventListener("input", () => view.draftChanged(), { signal });

  return { render, refreshPeople, markError, draft: () => ({ character_id: view.active, text: text.value }) };
}
