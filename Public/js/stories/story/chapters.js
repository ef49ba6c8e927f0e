// Chapters: the list to navigate and play from, and which chapter a line is in (for the player
// bar and previous/next chapter). From GET /api/stories/:id/chapters; a server without that
// route gets them from the analysis' chapters (text offsets) once every line is in.
import { api, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";

export function chaptersPart(view) {
  const { $, signal } = view;
  let chapters = [];
  let current = null; // the chapter being played
  const listeners = new Set();

  /** The index of the chapter holding line `index` (null: none). */
  function chapterOf(index) {
    if (index === null || index === undefined || !chapters.length) return null;
    let low = 0, high = chapters.length - 1, found = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (chapters[middle].first_line <= index) { found = middle; low = middle + 1; } else high = middle - 1;
    }
    return found;
  }

  function show() {
    const nav = $("#chapters");
    nav.hidden = chapters.length < 2;
    $("#chapters-count").textContent = `Chapters (${chapters.length})`;
    $("#chapter-list").replaceChildren(...chapters.map((chapter) => el("li", {},
      el("button", { type: "button", className: "chapter", dataset: { chapter: chapter.index },
        "aria-label": `Play ${chapter.title}, from line ${chapter.first_line + 1}`,
        onclick: () => playChapter(chapter.index) },
      el("span", { className: "chapter-title" }, chapter.title),
      el("span", { className: "chapter-lines" }, `${chapter.line_count.toLocaleString()} lines`)))));
    delete $("#chapter-list").dataset.current;
    for (const listener of listeners) listener();
  }

  /** Moves the player to the start of chapter `number` and plays. */
  function playChapter(number) {
    const chapter = chapters[number];
    if (!chapter || !view.player) return;
    view.followPlayhead?.();
    view.player.jump(chapter.first_line);
    if (!view.player.playing) view.player.play();
  }

  /** The chapters from the analysis (text offsets) mapped onto the lines, when all are in. */
  function fromAnalysis() {
    const found = view.reply?.analysis?.chapters ?? [];
    const store = view.store;
    if (found.length < 2 || !store?.complete) return [];
    const lines = store.lines;
    let line = 0;
    const firsts = found.map((chapter) => {
      while (line < lines.length && (lines[line]?.end ?? 0) <= chapter.start) line += 1;
      return line;
    });
    return found.map((chapter, index) => ({ index, title: chapter.title, first_line: firsts[index],
      line_count: (firsts[index + 1] ?? lines.length) - firsts[index] })).filter((chapter) => chapter.line_count > 0)
      .map((chapter, index) => ({ ...chapter, index }));
  }

  async function load() {
    chapters = [];
    try {
      chapters = (await api(`/api/stories/${view.id}/chapters`, { signal })).chapters ?? [];
    } catch (error) {
      if (isAbort(error) || error.code === "session_ended") throw error;
      if (error.status !== 404) $("#player-status").textContent = `Chapters could not be loaded: ${error.message}`;
      // An older server: the analysis' chapters, once every line is in.
      view.store?.loadAll().then(() => { chapters = fromAnalysis(); show(); }).catch(() => {});
    }
    show();
  }


  // Opening the list shows the chapter being played.
  $("#chapters").addEventListener("toggle", () => {
    if (!$("#chapters").open) return;
    delete $("#chapter-list").dataset.current;
    part.markCurrent(current);
  }, { signal });

  const part = {
    load,
    chapterOf,
    chapter: (number) => chapters[number] ?? null,
    get count() { return chapters.length; },
    playChapter,
    onChange: (listener) => listeners.add(listener),
    /** Marks the chapter being played in the list. */
    markCurrent(number) {
      current = number;
      const list = $("#chapter-list");
      if (list.dataset.current === String(number)) return;
      list.dataset.current = String(number);
      for (const button of list.querySelectorAll("button.chapter")) {
        if (Number(button.dataset.chapter) === number) {
          button.setAttribute("aria-current", "true");
          // Scrolls the chapter list (not the page) to it.
          const item = button.parentElement;
          if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
            list.scrollTop = item.offsetTop - list.clientHeight / 3;
          }
        } else button.removeAttribute("aria-current");
      }
    },
  };
  return part;
}
