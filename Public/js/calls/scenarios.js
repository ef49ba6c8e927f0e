// The scenario picker: every scenario as a radio card grouped by category (the app's order),
// each with its icon, description and voice; a family-friendly filter (remembered in this
// browser); the user's own scenarios under Custom with Edit and Delete, and "Create your own".
import { isAbort } from "../shared/api.js";
import { el, confirmDialog } from "../shared/dom.js";
import { categories, voiceName } from "./common.js";
import { deleteScenario, scenarios as listScenarios } from "./api.js";

const familyKey = "storyvoice:calls-family-only";

/**
 * `onChoose(scenario)` when the chosen scenario changes; `onEdit(scenario | null)` opens the
 * editor (null: a new one); `onDeleted(scenario)` after a delete.
 */
export function scenarioPicker({ signal, onChoose, onEdit, onDeleted }) {
  const status = el("p", { id: "calls-scenarios-status", role: "status", "aria-live": "polite" });
  const family = el("input", { type: "checkbox", id: "calls-family", checked: localStorage.getItem(familyKey) === "1" });
  const groups = el("div", { id: "calls-scenario-groups" });
  const create = el("button", { type: "button", id: "calls-create", className: "secondary", onclick: () => onEdit(null) }, "+ Create your own");
  const element = el("section", { id: "calls-scenarios", "aria-labelledby": "calls-scenarios-title" },
    el("div", { className: "calls-section-head" },
      el("h3", { id: "calls-scenarios-title", tabIndex: -1 }, "Choose a scenario"),
      el("label", { className: "calls-toggle" }, family, "Family-friendly only")),
    status, groups);
  let list = [];
  let chosen = "default";

  family.addEventListener("change", () => {
    localStorage.setItem(familyKey, family.checked ? "1" : "0");
    filter();
  }, { signal });

  function say(text, { error = false } = {}) {
    status.textContent = text;
    status.classList.toggle("error", error);
  }

  async function refresh() {
    try {
      list = await listScenarios(signal);
    } catch (error) {
      if (!isAbort(error)) say(`The scenarios could not be listed: ${error.message}`, { error: true });
      return;
    }
    if (!list.some((scenario) => scenario.id === chosen)) chosen = list[0]?.id ?? "default";
    draw();
  }

  function draw() {
    const byCategory = new Map(categories.map((category) => [category, []]));
    for (const scenario of list) {
      const category = scenario.is_custom ? "Custom" : scenario.category;
      if (!byCategory.has(category)) byCategory.set(category, []);
      byCategory.get(category).push(scenario);
    }
    groups.replaceChildren(...[...byCategory.entries()].filter(([category, items]) => items.length || category === "Custom")
      .map(([category, items]) => el("fieldset", { className: "calls-category", dataset: { category } },
        el("legend", {}, category),
        items.length ? el("ul", { className: "calls-scenario-list" }, ...items.map(card))
          : el("p", { className: "hint" }, "Your own scenarios: who calls, and what about."),
        category === "Custom" ? el("div", { className: "actions" }, create) : null)));
    element.dataset.count = String(list.length);
    filter();
    onChoose(list.find((scenario) => scenario.id === chosen) ?? null);
  }

  function card(scenario) {
    const radio = el("input", { type: "radio", name: "calls-scenario", value: scenario.id, checked: scenario.id === chosen,
      "aria-describedby": `calls-scenario-about-${cssId(scenario.id)}` });
    radio.addEventListener("change", () => {
      chosen = scenario.id;
      onChoose(scenario);
    }, { signal });
    const tags = [el("span", { className: "calls-tag voice" }, `Voice: ${voiceName(scenario.voice)}`)];
    if (scenario.is_family_friendly) tags.push(el("span", { className: "calls-tag family" }, "Family-friendly"));
    return el("li", { className: "calls-scenario", dataset: { id: scenario.id, family: String(!!scenario.is_family_friendly), custom: String(!!scenario.is_custom) } },
      el("label", {},
        radio,
        el("span", { className: "calls-icon", "aria-hidden": "true" }, scenario.icon || "📞"),
        el("span", { className: "calls-scenario-text" },
          el("span", { className: "calls-scenario-name" }, scenario.name),
          el("span", { className: "calls-scenario-about", id: `calls-scenario-about-${cssId(scenario.id)}` },
            scenario.description || "", el("span", { className: "calls-tags" }, ...tags.flatMap((tag) => [" ", tag]))))),
      scenario.is_custom ? el("div", { className: "calls-scenario-actions" },
        el("button", { type: "button", className: "secondary small", "aria-label": `Edit ${scenario.name}`, onclick: () => onEdit(scenario) }, "Edit"),
        el("button", { type: "button", className: "danger small", "aria-label": `Delete ${scenario.name}`, onclick: () => remove(scenario) }, "Delete")) : null);
  }

  async function remove(scenario) {
    if (!await confirmDialog(`Delete your scenario “${scenario.name}”?`)) return;
    try {
      await deleteScenario(scenario.id, signal);
      say(`Deleted “${scenario.name}”.`);
      if (chosen === scenario.id) chosen = "default";
      await refresh();
      onDeleted?.(scenario);
      create.focus();
    } catch (error) {
      if (!isAbort(error)) say(`Not deleted: ${error.message}`, { error: true });
    }
  }

  /** Hides what the family filter excludes (the Custom group and its button stay). */
  function filter() {
    const only = family.checked;
    for (const item of groups.querySelectorAll(".calls-scenario")) item.hidden = only && item.dataset.family !== "true" && item.dataset.custom !== "true";
    for (const group of groups.querySelectorAll(".calls-category")) {
      group.hidden = group.dataset.category !== "Custom" && !group.querySelector(".calls-scenario:not([hidden])");
    }
    // A scenario the filter hides cannot stay chosen unseen.
    const current = groups.querySelector(`.calls-scenario[data-id="${CSS.escape(chosen)}"]`);
    if (current?.hidden) {
      const first = groups.querySelector(".calls-scenario:not([hidden]) input");
      if (first) {
        first.checked = true;
        chosen = first.value;
        onChoose(list.find((scenario) => scenario.id === chosen) ?? null);
      }
    }
    element.dataset.shown = String(groups.querySelectorAll(".calls-scenario:not([hidden])").length);
  }

  /** Chooses a scenario (after it was created or saved) and shows it. */
  function choose(id) {
    chosen = id;
    const radio = groups.querySelector(`input[value="${CSS.escape(id)}"]`);
    if (radio) {
      radio.checked = true;
      radio.closest(".calls-scenario").hidden = false;
    }
    onChoose(list.find((scenario) => scenario.id === id) ?? null);
  }

  return { element, refresh, choose, get chosen() { return list.find((scenario) => scenario.id === chosen) ?? null; }, focusCreate: () => create.focus() };
}

/** An id usable inside an element id (custom ids hold a UUID). */
function cssId(id) {
  return String(id).replaceAll(/[^A-Za-z0-9_-]/g, "_");
}
