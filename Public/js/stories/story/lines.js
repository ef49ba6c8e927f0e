// The lines: every line with its speaker, a filter by speaker, reassigning a line to someone
// else, clicking a line to play from it, and the highlight on the line being read.
import { api, isAbort } from "../../shared/api.js";
import { el } from "../../shared/dom.js";

export function linesPart(view) {
  const { $, signal } = view;

  function applyFilter() {
    const wanted = $("#line-filter").value;
    for (const item of $("#line-list").children) item.hidden = Boolean(wanted) && item.dataset.speaker !== wanted;
  }
  $("#line-filter").addEventListener("change", applyFilter, { signal });

  function render() {
    const { analysis } = view.reply;
    const filter = $("#line-filter");
    const chosen = filter.value;
    filter.replaceChildren(el("option", { value: "" }, "Everyone"), el("option", { value: "narrator" }, "Narrator"),
      ...analysis.characters.map((character) => el("option", { value: character.id }, character.name)));
    filter.value = [...filter.options].some((option) => option.value === chosen) ? chosen : "";
    const speakers = [el("option", { value: "" }, "Narrator"), ...analysis.characters.map((c) => el("option", { value: c.id }, c.name))];
    $("#line-list").replaceChildren(...view.lines.map((line) => {
      const select = el("select", { "aria-label": `Speaker of line ${line.index + 1}`, onchange: async () => {
        try {
          await api(`/api/stories/${view.id}/segments/${line.index}`, { method: "PATCH", json: { speaker: select.value || null }, signal });
          await view.refresh();
          $(`#line-${line.index} select`)?.focus();
        } catch (error) {
          if (isAbort(error)) return;
          select.value = line.speaker ?? "";
          $("#player-status").textContent = `Line ${line.index + 1} keeps its speaker: ${error.message}`;
        }
      } }, ...speakers.map((option) => option.cloneNode(true)));
      select.value = line.speaker ?? "";
      const jump = el("button", { type: "button", className: "line-text", "aria-label": `Play from line ${line.index + 1}: ${line.speaker_name}`,
        onclick: () => { view.player.jump(line.index); if (!view.player.playing) view.player.play(); } }, line.text);
      return el("li", { id: `line-${line.index}`, className: `line ${line.kind}`, dataset: { speaker: line.speaker ?? "narrator" } },
        el("span", { className: "speaker" }, line.speaker_name), jump, select);
    }));
    applyFilter();
  }

  /** Scrolls the lines list (not the page) so the line being read stays visible. */
  function keepInView(node) {
    const list = $("#line-list");
    const top = node.offsetTop; // the list is positioned, so this is relative to it
    if (top < list.scrollTop || top + node.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTo({ top: Math.max(0, top - list.clientHeight / 3), behavior: "smooth" });
    }
  }

  /** Marks line `index` as the current one (null: none). */
  function highlight(index) {
    for (const node of $("#line-list").querySelectorAll("[aria-current]")) { node.removeAttribute("aria-current"); node.classList.remove("current"); }
    const node = index === null ? null : $(`#line-${index}`);
    if (node) {
      node.classList.add("current");
      node.setAttribute("aria-current", "true");
      keepInView(node);
    }
  }

  view.highlight = highlight;
  return { render, highlight };
}
