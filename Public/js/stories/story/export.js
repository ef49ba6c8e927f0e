// Export: render the whole story to an M4B or MP3 in the background, with live progress, then
// offer the download.
import { api, followJob, isAbort } from "../../shared/api.js";
import { formatDuration } from "../../shared/dom.js";
import { downloadLink } from "../download.js";

export function exportPart(view) {
  const { $, signal } = view;
  const status = $("#export-status");
  const link = downloadLink(null, { signal, id: "export-download", hidden: true,
    onError: (message) => { status.textContent = message; } }, "Download the audiobook");
  $("#export-download-row").append(link);

  function render() {
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
