// A download link (an audiobook, a story bundle). The browser itself fetches the file, so it
// streams to disk however large it is; before it does, a cheap request through the API helper
// makes sure the session is fresh (refreshing it if the access cookie has expired), so the
// download is not a saved 401.
import { api } from "./api.js";
import { el } from "./dom.js";

export function downloadLink(url, { signal, onError, ...props }, ...children) {
  const link = el("a", { href: url, download: "", ...props }, ...children);
  link.addEventListener("click", async (event) => {
    if (link.dataset.checked === "1") return; // the click below: let the browser download
    event.preventDefault();
    try {
      await api("/api/me", { signal });
    } catch (error) {
      if (!signal?.aborted) onError?.(error.message);
      return;
    }
    link.dataset.checked = "1";
    link.click();
    delete link.dataset.checked;
  }, { signal });
  return link;
}
