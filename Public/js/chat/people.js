// The people of a conversation: name, colour, avatar emoji, and who is "me" (the sender, on
// the right). Two at least; free accounts export conversations between two people, which the
// server says when it refuses an export, and the entitlement says here beforehand.
import { el, confirmDialog } from "../shared/dom.js";
import { graphemes, newID } from "./text.js";

const maxPeople = 8; // the server's limit for any plan
const colours = ["#FF9500", "#AF52DE", "#FF2D55", "#5AC8FA", "#FFCC00", "#8E8E93", "#A2845E", "#30B0C7"];

export function peoplePart(view) {
  const { $, signal } = view;
  const list = $("#chat-people-list");

  function render() {
    const people = view.conversation.characters;
    list.replaceChildren(...people.map((person, index) => row(person, index, people.length)));
    $("#chat-add-person").disabled = people.length >= maxPeople;
    hint();
  }

  /** What the plan allows, said before the export is refused. */
  function hint() {
    const count = view.conversation.characters.length;
    const limit = view.entitlement?.max_characters;
    $("#chat-people-hint").textContent = limit && count > limit
      ? `Free accounts export conversations between ${limit} people; this one has ${count}. Remove ${count - limit} before exporting, or go premium.`
      : "";
  }

  function row(person, index, count) {
    const name = el("input", { type: "text", value: person.name, maxLength: 60, required: true, className: "person-name",
      "aria-label": `Name of person ${index + 1}`, oninput: () => {
        person.name = name.value;
        group.setAttribute("aria-label", name.value || `Person ${index + 1}`);
        view.changed({ people: true });
      } });
    const colour = el("input", { type: "color", value: person.color.toLowerCase(), className: "person-colour",
      "aria-label": `Colour of ${person.name}`, oninput: () => {
        person.color = colour.value.toUpperCase();
        view.changed({ people: true });
      } });
    const emoji = el("input", { type: "text", value: person.avatar_emoji ?? "", className: "person-emoji", size: 3, placeholder: "none",
      "aria-label": `Avatar emoji of ${person.name}`, autocomplete: "off", oninput: () => {
        const value = emoji.value.trim();
        person.avatar_emoji = value || null;
        emoji.setCustomValidity(graphemes(value).length > 1 ? "One emoji only." : "");
        emoji.reportValidity();
        view.changed({ people: true });
      } });
    const me = el("input", { type: "radio", name: "chat-me", checked: person.is_me, className: "person-me", onchange: () => {
      for (const other of view.conversation.characters) other.is_me = other.id === person.id;
      view.changed({ people: true });
      render();
    } });
    const remove = el("button", { type: "button", className: "danger small", disabled: count <= 2,
      title: count <= 2 ? "A conversation needs two people." : "", "aria-label": `Remove ${person.name}`, onclick: async () => {
        const theirs = view.conversation.messages.filter((message) => message.character_id === person.id).length;
        if (theirs && !await confirmDialog(`Remove ${person.name} and their ${theirs} message${theirs === 1 ? "" : "s"}?`, "Remove")) return;
        const people = view.conversation.characters.filter((other) => other.id !== person.id);
        if (person.is_me) people[0].is_me = true;
        view.conversation.characters = people;
        view.conversation.messages = view.conversation.messages.filter((message) => message.character_id !== person.id);
        if (view.active === person.id) view.active = people[0].id;
        view.changed({ people: true, messages: true });
        view.renderMessages();
        render();
        list.querySelector(".person-name")?.focus();
      } }, "Remove");
    const group = el("div", { className: "person", role: "group", "aria-label": person.name || `Person ${index + 1}`, dataset: { id: person.id } },
      el("label", { className: "grow" }, "Name ", name),
      el("label", {}, "Colour ", colour),
      el("label", {}, "Avatar ", emoji),
      el("label", { className: "me" }, me, " Me (right side)"),
      remove,
      el("p", { className: "person-error error", role: "alert", hidden: true }));
    return group;
  }

  $("#chat-add-person").addEventListener("click", () => {
    const people = view.conversation.characters;
    const used = new Set(people.map((person) => person.color.toUpperCase()));
    const person = { id: newID(), name: `Person ${people.length + 1}`, color: colours.find((colour) => !used.has(colour)) ?? "#8E8E93", is_me: false, avatar_emoji: null };
    people.push(person);
    view.changed({ people: true });
    view.renderMessages(); // a new sender in each message's list
    render();
    const added = list.querySelector(`[data-id="${person.id}"] .person-name`);
    added?.focus();
    added?.select();
  }, { signal });

  /**
   * The server names people by their id ("The avatar of \"7f3e…\" must be a single emoji"): the
   * message with each id put as the person's name, and the person's row marked with it.
   */
  function explain(message) {
    let said = message ?? "";
    let marked = null;
    view.conversation.characters.forEach((person, index) => {
      const quoted = `"${person.id}"`;
      if (!said.includes(quoted)) return;
      said = said.replaceAll(quoted, person.name.trim() ? `“${person.name.trim()}”` : `#${index + 1}`);
      marked ??= person.id;
    });
    for (const row of list.children) {
      const line = row.querySelector(".person-error");
      line.textContent = row.dataset.id === marked ? said : "";
      line.hidden = row.dataset.id !== marked;
    }
    return said;
  }

  return { render, hint, explain };
}
