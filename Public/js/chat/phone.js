// The phone-shaped preview: the conversation's bubbles in the chosen look, light or dark, laid
// out as the video draws them (ChatVideo's ChatFrameRenderer): "me" on the right, the others on
// the left with their avatar (their colour, their emoji or initial) beside the last bubble of a
// run, names above bubbles in a group chat, the header with the other person, the input bar, and
// the keyboard while "me" types. The editor shows every bubble and the message being written;
// the animated preview (preview.js) sets the scene moment by moment from the timeline.
import { el } from "../shared/dom.js";

/** Pixels of the page for one pixel of the video, per format (the chat is a 1,080-pixel column). */
const scales = { tiktok: 0.3, instagram: 0.32, youtube: 0.25 };
const sizes = { tiktok: [1080, 1920], instagram: [1080, 1080], youtube: [1920, 1080] };
const keyRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

function avatar(character) {
  const emoji = character?.avatar_emoji || "";
  const label = emoji || (character?.name.trim()[0] ?? "?").toUpperCase();
  return el("span", { className: `avatar${emoji ? " emoji" : ""}`, style: `--person: ${character?.color ?? "#8E8E93"}`, "aria-hidden": "true" }, label);
}

export function createPhone() {
  const title = el("span", { className: "phone-title" });
  const headerAvatar = el("span", { className: "phone-header-avatar" });
  const list = el("ol", { className: "phone-messages", "aria-label": "Bubbles" });
  const indicator = el("div", { className: "msg theirs phone-indicator", hidden: true });
  const draft = el("div", { className: "msg phone-draft", hidden: true });
  const chat = el("div", { className: "phone-chat" }, list, draft, indicator);
  const typed = el("span", { className: "phone-typed" });
  const placeholder = el("span", { className: "phone-placeholder" }, "Message");
  const send = el("span", { className: "phone-send", "aria-hidden": "true" }, "↑");
  const input = el("div", { className: "phone-input" }, el("div", { className: "phone-field" }, placeholder, typed), send);
  const keys = new Map();
  const keyboard = el("div", { className: "phone-keyboard", hidden: true, "aria-hidden": "true" },
    ...keyRows.map((row) => el("div", { className: "keys" }, ...Array.from(row, (letter) => {
      const key = el("span", { className: "key" }, letter.toUpperCase());
      keys.set(letter, key);
      return key;
    }))),
    el("div", { className: "keys" }, (() => { const key = el("span", { className: "key space" }, "space"); keys.set(" ", key); return key; })()));
  const watermark = el("div", { className: "phone-watermark", hidden: true }, "Made with StoryVoice");
  const screen = el("div", { className: "phone-screen" },
    el("div", { className: "phone-header" }, headerAvatar, title), watermark, chat, input, keyboard);
  const root = el("div", { className: "phone", id: "chat-phone", dataset: { mode: "edit" } }, screen);

  let conversation = null;
  let items = []; // the <li> of each message, by index
  let pressed = null;

  function characterOf(id) {
    return conversation.characters.find((person) => person.id === id);
  }

  /** Lays out every message of `conversation` in `palette` for `format`. */
  function show({ conversation: shown, palette, format = "tiktok", watermark: marked = false }) {
    conversation = shown;
    const [width, height] = sizes[format] ?? sizes.tiktok;
    const u = scales[format] ?? scales.tiktok;
    root.dataset.format = format;
    root.style.setProperty("--u", `${u}px`);
    root.style.width = `${width * u}px`;
    root.style.height = `${height * u}px`;
    root.style.setProperty("--column", `${1080 * u}px`);
    for (const [name, value] of Object.entries(palette)) root.style.setProperty(`--${name.replace("_", "-")}`, value);
    watermark.hidden = !marked;
    const background = parseInt((palette.background ?? "#FFFFFF").slice(1), 16);
    const luma = 0.299 * (background >> 16) + 0.587 * ((background >> 8) & 255) + 0.114 * (background & 255);
    root.classList.toggle("dark", luma < 128);

    const me = conversation.characters.find((person) => person.is_me);
    const others = conversation.characters.filter((person) => !person.is_me);
    const group = others.length > 1;
    const avatars = group || others.some((person) => person.avatar_emoji);
    root.classList.toggle("group", group);
    root.classList.toggle("avatars", avatars);
    headerAvatar.replaceChildren(others[0] ? avatar(others[0]) : "");
    title.textContent = others.length <= 2 ? others.map((person) => person.name).join(", ")
      : `${others[0].name}, ${others[1].name} & ${others.length - 2} more`;

    const messages = conversation.messages;
    items = messages.map((message, index) => {
      const mine = message.character_id === me?.id;
      const character = characterOf(message.character_id);
      const first = index === 0 || messages[index - 1].character_id !== message.character_id;
      const last = index + 1 >= messages.length || messages[index + 1].character_id !== message.character_id;
      const item = el("li", { className: `msg ${mine ? "mine" : "theirs"}${first ? " first" : ""}`, dataset: { index: String(index) } });
      if (group && !mine && first) item.append(el("span", { className: "name", style: `color: ${character?.color ?? "inherit"}` }, character?.name ?? ""));
      const row = el("div", { className: "row" });
      if (avatars && !mine) row.append(last ? avatar(character) : el("span", { className: "avatar spacer", "aria-hidden": "true" }));
      row.append(el("span", { className: "bubble" }, message.text));
      item.append(row);
      item.dataset.last = last ? "1" : "0";
      return item;
    });
    list.replaceChildren(...items);
  }

  /** Changes one bubble's text (a message edited in place) without laying out the others. */
  function setText(index, text) {
    const bubble = items[index]?.querySelector(".bubble");
    if (bubble) bubble.textContent = text;
  }

  function personBlock(target, characterID, content, className) {
    const character = characterOf(characterID);
    const mine = character?.is_me;
    target.className = `msg ${mine ? "mine" : "theirs"} ${className}`;
    const parts = [];
    if (root.classList.contains("group") && !mine) parts.push(el("span", { className: "name", style: `color: ${character?.color ?? "inherit"}` }, character?.name ?? ""));
    const row = el("div", { className: "row" });
    if (root.classList.contains("avatars") && !mine) row.append(avatar(character));
    row.append(content);
    target.replaceChildren(...parts, row);
  }

  /**
   * What the screen shows: `sent` bubbles (all when left out), `typing` text in the input bar,
   * the "…" of `indicator` (a person's id), the keyboard, and the `draft` being written in the
   * editor ({character_id, text}) as a faint bubble on its person's side.
   */
  function scene({ sent = items.length, typing = "", indicator: typist = null, keyboard: keys = false, draft: writing = null } = {}) {
    items.forEach((item, index) => { item.hidden = index >= sent; });
    root.dataset.sent = String(Math.min(sent, items.length));
    typed.textContent = typing;
    placeholder.hidden = Boolean(typing);
    input.classList.toggle("typing", Boolean(typing));
    if (typist) {
      personBlock(indicator, typist, el("span", { className: "bubble dots", "aria-label": "typing" }, el("i"), el("i"), el("i")), "phone-indicator");
      indicator.hidden = false;
    } else {
      indicator.hidden = true;
    }
    if (writing?.text) {
      personBlock(draft, writing.character_id, el("span", { className: "bubble" }, writing.text), "phone-draft");
      draft.hidden = false;
    } else {
      draft.hidden = true;
    }
    keyboard.hidden = !keys;
    root.classList.toggle("keyboard", keys);
  }

  /** The chat follows its newest bubble, as the video scrolls older ones up. */
  function scrollToEnd(smooth = false) {
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    chat.scrollTo({ top: chat.scrollHeight, behavior: smooth && !still ? "smooth" : "instant" });
  }

  /** Lights the key of the character just typed, as the video's keyboard does. */
  function press(character) {
    pressed?.classList.remove("down");
    pressed = keys.get((character ?? "").toLowerCase()) ?? null;
    pressed?.classList.add("down");
  }

  function setMode(mode) {
    root.dataset.mode = mode;
    if (mode === "edit") press(null);
  }

  return { root, show, setText, scene, scrollToEnd, press, setMode };
}
