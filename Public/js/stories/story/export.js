// Export: render the whole story to an M4B or MP3 in the background, with live progress, then
// offer the download.
import { api, followJob, isAbort } from "../../shared/api.js";
import { el, formatDuration } from "../../shared/dom.js";
import { downloadLink } from "../download.js";

/** 40 s, 12 min, 2 h 10 min: how long, roughly. */
function approximately(seconds) {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}

export function exportPart(view) {
  const { $, signal } = view;
  const status = $("#export-status");
  const link = downloadLink(null, { signal, id: "export-download", hidden: true,
    onError: (message) => { status.textContent = message; } }, "Download the audiobook");
  $("#export-download-row").append(link);

  /** "About 4 min with the fastest voices (yours) · about 2 h with the best": before exporting. */
  async function estimate() {
    const line = $("#export-estimate");
    try {
      const { chosen, estimates } = await api(`/api/stories/${view.id}/render/estimate`, { signal });
      const names = { fastest: "the fastest voices", best: "the best voices" };
      if (estimates.every((entry) => entry.seconds < 1)) {
        line.textContent = "Every line is rendered: an export only has to encode.";
        return;
      }
      line.replaceChildren("Rendering what is not ready yet takes " + estimates.map((entry) =>
        `about ${approximately(entry.seconds)} with ${names[entry.voices]}${entry.voices === chosen ? " (your setting)" : ""}`).join(" · ")
        + ". Choose in ", el("a", { href: "#/account" }, "Settings"), ".");
    } catch (error) {
      if (!isAbort(error)) line.textContent = "";
    }
  }

  // The estimate plans the book both ways on the server: asked for only when the user reaches
  // for Export (pointer or focus), not on every page load where it would slow a first jump.
  let estimated = false;
  for (const type of ["pointerenter", "focusin"]) {
    $("#export").addEventListener(type, () => {
      if (estimated) return;
      estimated = true;
      estimate();
    }, { signal });
  }

  function render() {
    estimated = false;
    const render = view.reply.render;
    link.hidden = !render;
    if (render) {
      link.href = render.url;
      link.textContent = `Download the ${render.format.toUpperCase()} (${formatDuration(render.duration_seconds)})`;
    }
  }

  $("#export-start").addEventListener("click", async () => {
    const bar = $("#export-bar");
    try {
      const job = await api(`/api/stories/${view.id}/render`, { method: "POST", json: { format: $("#export-format").value }, signal });
      $("#export-progress-label").hidden = false;
      $("#export-start").disabled = true;
      const done = await followJob(job.id, (snapshot) => {
        bar.value = snapshot.progress;
        status.textContent = snapshot.status === "queued" ? "Waiting for a worker…" : (snapshot.message ?? "Exporting…");
      }, { signal });
      $("#export-start").disabled = false;
      status.textContent = done.status === "succeeded" ? "Export finished." : `Export failed: ${done.error ?? "unknown error"}.`;
      view.reply = await api(`/api/stories/${view.id}/analysis?segments=false`, { signal });
      render();
    } catch (error) {
      if (isAbort(error)) return;
      $("#export-start").disabled = false;
      status.textContent = error.message;
    }
  }, { signal });

  return { render };
}
