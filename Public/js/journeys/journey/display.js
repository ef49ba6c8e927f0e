// What the player shows: the title and the line under it, the parts (told, playing, ready ahead,
// being written), the text of the part with the sentence being spoken, the state of the player
// and how far along the route the story is. Everything is drawn from the view's state.
import { el } from "../../shared/dom.js";
import { statusName, styles } from "../common.js";
import { formatDistance, formatTrip, modeName, partsText, tripName } from "../route.js";

/** Seconds a sentence lasts: the server's figure, else a guess from its length. */
const secondsOf = (sentence) => (Number.isFinite(sentence?.duration_s) && sentence.duration_s > 0 ? sentence.duration_s : Math.max(1, (sentence?.text?.length ?? 40) / 15));

export function displayPart(view) {
  const { $, signal, context } = view;
  let shownPart = null; // the part whose text is shown, and how many sentences it showed
  let shownCount = -1;

  // Style names ("Children's" for "childrens"), for the line under the title.
  const styleNames = new Map();
  styles(signal).then((list) => {
    for (const style of list) styleNames.set(style.id, style.name);
    if (!view.disposed) renderHeader();
  }).catch(() => {});

  view.name = () => view.journey.title || tripName(view.journey.plan.start, view.journey.plan.end);
  const total = () => view.total();
  const position = () => view.position;
  const queue = () => view.queue;

  function renderHeader() {
    const journey = view.journey;
    $("#journey-title").textContent = view.name();
    context.setTitle(view.name());
    const plan = journey.plan;
    const style = journey.style === "custom" ? "your own style" : `${(styleNames.get(journey.style) ?? journey.style ?? "").toLowerCase()} story`;
    $("#journey-meta").textContent = [journey.title ? tripName(plan.start, plan.end) : null,
      `${formatDistance(plan.distance_m)} ${modeName(plan.mode).toLowerCase()}, ${formatTrip(plan.duration_s)}`,
      partsText(plan.parts), journey.style ? style : null, statusName(journey.status)].filter(Boolean).join(" · ");
    const error = $("#journey-error");
    error.hidden = !(journey.status === "failed" || journey.error);
    error.textContent = journey.error ?? (journey.status === "failed" ? "This story could not go on." : "");
  }

  function renderParts() {
    const journey = view.journey;
    const at = position();
    const list = $("#journey-parts");
    const items = [];
    let readyAhead = 0;
    // Every part begun, the one playing, and a few after; the rest of a long trip as a count.
    const begun = journey.parts.reduce((last, part) => Math.max(last, part.number), 0);
    const shown = Math.min(total(), Math.max(begun, at.part) + 4);
    for (let number = 1; number <= shown; number += 1) {
      const part = view.partOf(number);
      const status = part ? part.status : "pending";
      const current = number === at.part;
      if (number > at.part && status === "ready" && readyAhead === number - at.part - 1) readyAhead += 1;
      const word = current ? (queue().wanted && !queue().waiting ? "playing" : "here")
        : status === "ready" ? (number > at.part ? "ready" : "told")
          : status === "writing" ? "being written" : "not begun";
      items.push({ number, status, current, word, fallback: part?.fallback });
    }
    // One item per part, updated in place.
    list.querySelector(".journey-parts-more")?.remove();
    while (list.children.length > items.length) list.lastElementChild.remove();
    items.forEach((item, index) => {
      let row = list.children[index];
      if (!row) {
        row = el("li", {}, el("button", { type: "button", className: "link journey-part-go", onclick: () => view.moveTo({ part: item.number, sentence: 0 }) }),
          el("span", { className: "journey-part-state" }));
        list.append(row);
      }
      row.dataset.part = String(item.number);
      row.dataset.status = item.status;
      row.classList.toggle("current", item.current);
      row.classList.toggle("ahead", item.number > at.part && item.status === "ready");
      if (item.current) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
      const button = row.firstElementChild;
      button.textContent = `Part ${item.number}`;
      button.setAttribute("aria-label", `Part ${item.number}, ${item.word}${item.fallback ? ", told from its outline" : ""}: play from here`);
      row.lastElementChild.textContent = item.word + (item.fallback ? " (from its outline)" : "");
    });
    if (shown < total()) {
      const more = total() - shown;
      list.append(el("li", { className: "journey-parts-more" }, `and ${more} more part${more === 1 ? "" : "s"}, written as you listen`));
    }
    $("#journey-ahead").textContent = journey.status === "complete" && !view.ended ? "· every part is ready"
      : `· ${readyAhead} part${readyAhead === 1 ? "" : "s"} ready ahead`;
    $("#journey-ahead").dataset.ahead = String(readyAhead);
  }

  function renderText() {
    const at = position();
    const part = view.partOf(at.part);
    const sentences = part?.sentences ?? [];
    $("#journey-text-title").textContent = `Part ${at.part} of ${total()}`;
    if (shownPart !== at.part || shownCount !== sentences.length) {
      shownPart = at.part;
      shownCount = sentences.length;
      const text = $("#journey-text");
      if (!sentences.length) {
        text.replaceChildren(el("span", { className: "hint" }, part?.status === "writing" ? "This part is being written…" : "This part has not been begun yet."));
      } else {
        const nodes = [];
        sentences.forEach((sentence, index) => {
          // The journey's spoken title stands apart from the story, on a line of its own.
          if (index) nodes.push(sentences[index - 1].announcement ? el("br") : " ");
          nodes.push(el("span", { className: sentence.announcement ? "sentence announcement" : "sentence", dataset: { index: String(index) } }, sentence.text));
        });
        if (part.status === "writing") nodes.push(" ", el("span", { className: "hint more" }, "…"));
        text.replaceChildren(...nodes);
      }
      text.dataset.part = String(at.part);
    }
    for (const span of $("#journey-text").querySelectorAll(".sentence")) {
      const speaking = Number(span.dataset.index) === at.sentence && queue().key === view.key(at.part, at.sentence) && !queue().waiting;
      span.classList.toggle("speaking", speaking);
      if (speaking) span.setAttribute("aria-current", "true");
      else span.removeAttribute("aria-current");
    }
  }

  /** How far along the route the story is: (part − 1 + fraction of the part) / parts. */
  function progress() {
    if (view.ended) return 1;
    const at = position();
    const part = view.partOf(at.part);
    const sentences = part?.sentences ?? [];
    let before = 0;
    for (let index = 0; index < Math.min(at.sentence, sentences.length); index += 1) before += secondsOf(sentences[index]);
    const playingThis = queue().key === view.key(at.part, at.sentence);
    const within = before + (playingThis ? queue().currentTime : 0);
    const known = sentences.reduce((sum, sentence) => sum + secondsOf(sentence), 0);
    const length = part?.status === "ready" ? (part.duration_s > 0 ? part.duration_s : known) : Math.max(60, known);
    const fraction = length > 0 ? Math.min(1, within / length) : 0;
    return (at.part - 1 + fraction) / total();
  }

  /** idle, playing, waiting, paused or ended: the player's data-state and the media session's. */
  function state() {
    return view.ended ? "ended" : queue().waiting ? "waiting" : queue().wanted ? "playing" : queue().key ? "paused" : "idle";
  }

  function renderState() {
    const at = position();
    const now = state();
    const player = $("#journey-player");
    player.dataset.state = now;
    player.dataset.part = String(at.part);
    player.dataset.sentence = String(at.sentence);
    const button = $("#journey-play");
    const playing = queue().wanted, waiting = queue().waiting;
    button.textContent = playing ? (waiting ? "Pause (preparing…)" : "Pause") : "Play";
    button.classList.toggle("preparing", playing && waiting);
    $("#journey-where").textContent = view.ended ? "The end" : `Part ${at.part} of ${total()}`;
    $("#journey-previous").disabled = at.part <= 1 && at.sentence === 0;
    $("#journey-next").disabled = at.part >= total();
    view.mediaSession?.update(now);
  }

  view.renderProgress = () => view.drawing.at(progress());
  view.renderState = renderState;
  view.render = () => {
    renderHeader();
    renderParts();
    renderText();
    renderState();
    view.renderProgress();
  };
  view.say = (text, { error = false } = {}) => {
    const status = $("#journey-status");
    if (status.textContent !== text) status.textContent = text;
    status.classList.toggle("error", error);
  };
}
