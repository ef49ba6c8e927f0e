// The lines: a virtualised list (only the rows near what is on screen exist in the page, so a
// novel's thousands of lines cost what a screenful does), a filter by speaker, reassigning a
// line to someone else (the control is made when asked for), clicking a line to play from it,
// and the highlight on the line being read. Lines come from the story's LineStore by range.
import { api, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";

const overscan = 600; // px of rows kept beyond each edge of the list's viewport
const unknownHeight = 64; // px: a row whose line has not arrived yet

/**
 * A line's text as reading prose: hard-wrapped source lines joined (a single newline is a
 * space), blank lines kept as paragraph breaks, and _italics_ or *italics* in italics. DOM nodes
 * only: the story's text never goes through innerHTML.
 */
export function prose(text) {
  const paragraphs = String(text ?? "").split(/\n[ \t]*\n\s*/)
    .map((paragraph) => paragraph.replace(/[ \t]*\n[ \t]*/g, " ").trim()).filter(Boolean);
  return paragraphs.map((paragraph) => el("span", { className: "para" }, ...emphasis(paragraph)));
}

const emphasised = /(?<![\p{L}\p{N}_*])([_*])(?![\s_*])(.+?)(?<![\s_*])\1(?![\p{L}\p{N}_*])/gu;

function emphasis(paragraph) {
  const nodes = [];
  let at = 0;
  for (const match of paragraph.matchAll(emphasised)) {
    if (match.index > at) nodes.push(paragraph.slice(at, match.index));
    nodes.push(el("em", {}, match[2]));
    at = match.index + match[0].length;
  }
  if (at < paragraph.length) nodes.push(paragraph.slice(at));
  return nodes;
}

export function linesPart(view) {
  const { $, signal } = view;
  const list = $("#line-list");
  const top = el("li", { className: "spacer", role: "presentation", "aria-hidden": "true" });
  const bottom = el("li", { className: "spacer", role: "presentation", "aria-hidden": "true" });
  list.replaceChildren(top, bottom);

  const state = {
    order: null, // null: every line in order; else the line indices shown (the filter)
    heights: new Map(), // line index -> measured px
    offsets: new Float64Array(1), // position -> px from the top of the list
    dirty: true,
    rows: new Map(), // line index -> its <li>, for the rows in the page
    current: null, // the line being read
    preparing: false,
    frame: 0,
    charsPerRow: 70,
    readerScrolledAt: -Infinity,
  };

  const store = () => view.store;
  const count = () => state.order ? state.order.length : (store()?.total ?? 0);
  const lineAt = (position) => state.order ? state.order[position] : position;

  function estimate(index) {
    const known = state.heights.get(index);
    if (known) return known;
    const line = store()?.get(index);
    if (!line) return unknownHeight;
    const rows = Math.max(1, Math.ceil(line.text.length / state.charsPerRow)) + (line.text.match(/\n\s*\n/g)?.length ?? 0);
    return 22 + rows * 24;
  }

  /**
   * Recomputes where each row goes. The row at the top of the list's viewport stays where it is
   * on screen, whatever changed above it (lines arriving, rows measured), so nothing jumps.
   */
  function layout() {
    if (!state.dirty && state.offsets.length === count() + 1) return;
    let anchor = null;
    // A reader at the very end stays at the end; anyone else keeps the row at the top.
    const atEnd = state.atEnd;
    if (state.offsets.length > 1 && list.scrollTop > 0 && !atEnd) {
      const position = positionAt(list.scrollTop);
      const index = state.laidOrder ? state.laidOrder[position] : position;
      anchor = { index, delta: list.scrollTop - state.offsets[position] };
    }
    const n = count();
    const offsets = new Float64Array(n + 1);
    for (let position = 0; position < n; position += 1) offsets[position + 1] = offsets[position] + estimate(lineAt(position));
    state.offsets = offsets;
    state.laidOrder = state.order;
    state.dirty = false;
    if (atEnd) {
      top.style.height = "0px";
      bottom.style.height = `${offsets[n]}px`;
      list.scrollTop = offsets[n];
      return;
    }
    const position = anchor && positionOf(anchor.index);
    if (position !== null && position !== undefined) {
      // Room for the scroll position before it is set (render() sets the spacers right).
      top.style.height = `${offsets[position]}px`;
      bottom.style.height = `${offsets[n] - offsets[position]}px`;
      list.scrollTop = offsets[position] + anchor.delta;
    }
  }

  /** The position whose row covers `y` px from the top of the list. */
  function positionAt(y) {
    const offsets = state.offsets;
    let low = 0, high = offsets.length - 2;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (offsets[middle] <= y) low = middle; else high = middle - 1;
    }
    return Math.max(0, low);
  }

  /** The position of line `index` in the list (null when the filter hides it). */
  function positionOf(index) {
    if (!state.order) return index < count() ? index : null;
    let low = 0, high = state.order.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (state.order[middle] === index) return middle;
      if (state.order[middle] < index) low = middle + 1; else high = middle - 1;
    }
    return null;
  }

  function changeSpeaker(line, row) {
    const { analysis } = view.reply;
    const select = el("select", { "aria-label": `Speaker of line ${line.index + 1}`, className: "speaker-choice" },
      el("option", { value: "" }, "Narrator"), ...analysis.characters.map((c) => el("option", { value: c.id }, c.name)));
    select.value = line.speaker ?? "";
    select.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { select.remove(); row.querySelector(".speaker")?.focus(); }
    });
    select.addEventListener("change", async () => {
      select.disabled = true;
      try {
        await api(`/api/stories/${view.id}/segments/${line.index}`, { method: "PATCH", json: { speaker: select.value || null }, signal });
        view.player?.invalidate?.(line.index);
        await store().reload(line.index, line.index + 1);
        $(`#line-${line.index} .speaker`)?.focus();
      } catch (error) {
        if (isAbort(error)) return;
        select.disabled = false;
        select.value = line.speaker ?? "";
        $("#player-status").textContent = `Line ${line.index + 1} keeps its speaker: ${error.message}`;
      }
    });
    row.querySelector(".speaker").after(select);
    select.focus();
  }

  function makeRow(index) {
    const line = store()?.get(index);
    const row = el("li", { id: `line-${index}`, className: "line", "aria-posinset": index + 1, "aria-setsize": store()?.total ?? 0 });
    if (!line) {
      row.classList.add("loading");
      row.style.height = `${unknownHeight}px`; // exactly what the layout assumed
      row.append(el("span", { className: "speaker" }, "…"), el("span", { className: "line-text" }, "Loading…"));
      return row;
    }
    row.classList.add(line.kind);
    row.dataset.speaker = line.speaker ?? "narrator";
    const speaker = el("button", { type: "button", className: "speaker", title: "Change who says this line",
      "aria-label": `${line.speaker_name}: change the speaker of line ${index + 1}`,
      onclick: () => row.querySelector("select") ? row.querySelector("select").focus() : changeSpeaker(line, row) }, line.speaker_name);
    const jump = el("button", { type: "button", className: "line-text", "aria-label": `Play from line ${index + 1}: ${line.speaker_name}`,
      onclick: () => { follow(); view.player?.jump(index); if (view.player && !view.player.playing) view.player.play(); } }, ...prose(line.text));
    row.append(speaker, jump);
    mark(row, index);
    return row;
  }

  function mark(row, index) {
    const current = index === state.current;
    row.classList.toggle("current", current);
    row.classList.toggle("preparing", current && state.preparing);
    if (current) row.setAttribute("aria-current", "true"); else row.removeAttribute("aria-current");
  }

  /** Puts the rows near the list's viewport in the page (and only those), then measures them. */
  function render() {
    state.frame = 0;
    if (!store()) return;
    // Whether the reader is at the very end, before anything here moves the rows.
    state.atEnd = list.scrollTop > 0 && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
    layout();
    const n = count();
    const viewTop = list.scrollTop;
    const height = list.clientHeight || 600;
    const first = n ? positionAt(Math.max(0, viewTop - overscan)) : 0;
    const last = n ? positionAt(viewTop + height + overscan) : -1;
    if (n && !state.order) store().ensure(lineAt(first), lineAt(last) + 1).catch(() => {});

    const wanted = new Set();
    for (let position = first; position <= last; position += 1) wanted.add(lineAt(position));
    for (const [index, row] of state.rows) {
      if (!wanted.has(index)) { row.remove(); state.rows.delete(index); }
    }
    let cursor = top.nextSibling;
    for (let position = first; position <= last; position += 1) {
      const index = lineAt(position);
      let row = state.rows.get(index);
      if (!row) { row = makeRow(index); state.rows.set(index, row); }
      if (row === cursor) cursor = cursor.nextSibling;
      else list.insertBefore(row, cursor);
    }
    top.style.height = `${state.offsets[first] ?? 0}px`;
    bottom.style.height = `${Math.max(0, state.offsets[n] - (state.offsets[last + 1] ?? state.offsets[n]))}px`;

    // Measure what is now in the page; layout() keeps the row at the top where it is.
    for (let position = first; position <= last; position += 1) {
      const index = lineAt(position);
      const row = state.rows.get(index);
      if (row.classList.contains("loading")) continue;
      const measured = row.offsetHeight;
      if (measured && Math.abs(measured - estimate(index)) > 0.5) {
        state.heights.set(index, measured);
        state.dirty = true;
      }
    }
    if (state.dirty) {
      layout();
      top.style.height = `${state.offsets[first]}px`;
      bottom.style.height = `${Math.max(0, state.offsets[n] - state.offsets[last + 1])}px`;
    }
  }

  function schedule() {
    if (!state.frame) state.frame = requestAnimationFrame(render);
  }

  list.addEventListener("scroll", schedule, { signal, passive: true });
  // A reader who scrolls the list away from the line being read is not pulled back to it for a
  // while (until a jump, "Show in the text", or a few seconds of leaving it alone).
  const scrolledByReader = () => { state.readerScrolledAt = performance.now(); };
  list.addEventListener("wheel", scrolledByReader, { signal, passive: true });
  list.addEventListener("touchmove", scrolledByReader, { signal, passive: true });
  list.addEventListener("pointerdown", (event) => { if (event.target === list) scrolledByReader(); }, { signal });
  const resize = new ResizeObserver(() => {
    const width = list.clientWidth;
    const chars = Math.max(20, Math.floor((width - 180) / 8));
    if (chars !== state.charsPerRow) {
      state.charsPerRow = chars;
      state.heights.clear();
      state.dirty = true;
    }
    schedule();
  });
  resize.observe(list);
  signal.addEventListener("abort", () => { resize.disconnect(); cancelAnimationFrame(state.frame); }, { once: true });

  /** Lines arrived (or changed): their rows are made again, keeping focus where it was. */
  function changed(from, to) {
    for (const [index, row] of state.rows) {
      if (index < from || index >= to) continue;
      const focused = row.contains(document.activeElement) ? document.activeElement.classList[0] : null;
      const fresh = makeRow(index);
      row.replaceWith(fresh);
      state.rows.set(index, fresh);
      state.heights.delete(index);
      if (focused) fresh.querySelector(`.${focused}`)?.focus();
    }
    state.dirty = true;
    if (state.order !== null || from === 0) refilter();
    schedule();
  }

  // The filter: the loaded lines of one speaker (loading the rest in the background).
  function refilter() {
    const wanted = $("#line-filter").value;
    const status = $("#line-filter-status");
    if (!wanted || !store()) {
      state.order = null;
      status.textContent = "";
    } else {
      const s = store();
      state.order = [];
      s.lines.forEach((line, index) => { if ((line.speaker ?? "narrator") === wanted) state.order.push(index); });
      status.textContent = `${state.order.length.toLocaleString()} line(s)${s.complete ? "" : " so far (loading the rest…)"}`;
    }
    state.dirty = true;
    schedule();
  }
  $("#line-filter").addEventListener("change", () => {
    refilter();
    list.scrollTop = 0;
    if ($("#line-filter").value) store()?.loadAll().catch(() => {});
    if (state.current !== null) requestAnimationFrame(() => keepInView(state.current));
  }, { signal });

  /** Fills the filter and shows the store's lines (a new store after every refresh). */
  function attach() {
    const { analysis } = view.reply;
    const filter = $("#line-filter");
    const chosen = filter.value;
    filter.replaceChildren(el("option", { value: "" }, "Everyone"), el("option", { value: "narrator" }, "Narrator"),
      ...analysis.characters.map((character) => el("option", { value: character.id }, character.name)));
    filter.value = [...filter.options].some((option) => option.value === chosen) ? chosen : "";
    for (const row of state.rows.values()) row.remove();
    state.rows.clear();
    state.heights.clear();
    store().onChange(changed);
    refilter();
    render();
  }

  /** Scrolls the list (not the page) so line `index` is in view; answers its row, if any. */
  function keepInView(index) {
    const position = positionOf(index);
    if (position === null) return null;
    layout();
    const rowTop = state.offsets[position];
    const rowBottom = state.offsets[position + 1];
    if (rowTop < list.scrollTop || rowBottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, rowTop - list.clientHeight / 3);
    }
    render();
    // Measuring may have moved it a little: once more, now that the rows around it are real.
    const row = state.rows.get(index);
    if (row) {
      const box = row.getBoundingClientRect(), frame = list.getBoundingClientRect();
      if (box.top < frame.top || box.bottom > frame.bottom) {
        list.scrollTop += box.top - frame.top - list.clientHeight / 3;
        render();
      }
    }
    return state.rows.get(index) ?? null;
  }

  /** Marks line `index` as the current one (null: none) and scrolls it into view. */
  function highlight(index, { preparing = false } = {}) {
    const moved = index !== state.current;
    state.current = index;
    state.preparing = preparing;
    for (const [line, row] of state.rows) mark(row, line);
    if (index !== null && moved && performance.now() - state.readerScrolledAt > 8000) keepInView(index);
  }

  /** The list follows the line being read again (after a jump the reader asked for). */
  function follow() { state.readerScrolledAt = -Infinity; }

  view.highlight = highlight;
  view.followPlayhead = follow;
  return { attach, highlight, keepInView, render, follow };
}
