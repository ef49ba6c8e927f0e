// Small DOM helpers: no framework, no build step.

export const $ = (selector, root = document) => root.querySelector(selector);

/** `el("button", {type: "button", onclick}, "Label")`: properties, then children. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node && !key.startsWith("aria")) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.flat().filter((child) => child !== undefined && child !== null));
  return node;
}

/**
 * A screen's own static markup, parsed into a fragment. Only for fixed HTML written in the
 * module: anything from the server or the user goes in with `el` or `textContent`.
 */
export function markup(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content;
}

/** An accessible yes/no question in the page's <dialog>; resolves true on the confirm button. */
export function confirmDialog(text, confirmLabel = "Delete") {
  const dialog = $("#confirm");
  $("#confirm-text").textContent = text;
  $("#confirm-ok").textContent = confirmLabel;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

/** Closes the confirmation dialog as cancelled (a screen going away takes its question along). */
export function dismissDialog() {
  const dialog = $("#confirm");
  if (dialog?.open) dialog.close("cancel");
  if (dialog) $("#confirm-text").textContent = "";
}

/** "4:05", or "1:02:05" from an hour on. */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return "";
  const s = Math.round(seconds);
  const two = (n) => String(n).padStart(2, "0");
  return s < 3600 ? `${Math.floor(s / 60)}:${two(s % 60)}` : `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}
