// Export: render the whole story to an M4B or MP3 in the background, with live progress, then
// offer the download.
import { api, followJob, isAbort } from "../../shared/api.js";
import { el, formatDuration } from "../../shared/dom.js";
import { downloadLink } from "../../shared/download.js";

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

  /** "hours:2" → "ready in about 2 h"; the names the choice goes by. */
  function choiceName(voices) {
    if (voices === "fastest") return "Fastest";
    if (voices === "best") return "Best";
    return `Ready in about ${approximately(Number(voices.slice("hours:".length)) * 3600)}`;
  }

  /** Shows `voices` (fastest, hours:N, best) in the choice controls. */
  function showChoice(voices) {
    const kind = voices.startsWith("hours:") ? "hours" : voices;
    $("#export-voices").value = kind;
    $("#export-hours-label").hidden = kind !== "hours";
    if (kind === "hours") $("#export-hours").value = voices.slice("hours:".length);
  }

  /** "Fastest: about 37 min · Ready in about 2 h: about 1 h 59 min (your choice) · Best: about 7 h": before exporting. */
  async function estimate() {
    const line = $("#export-estimate");
    try {
      const { chosen, estimates } = await api(`/api/stories/${view.id}/render/estimate`, { signal });
      showChoice(chosen);
      if (estimates.every((entry) => entry.cached_lines >= entry.lines)) {
        line.textContent = `Every line is rendered: an export only has to encode (about ${approximately(estimates[0].seconds)}).`;
        return;
      }
      line.replaceChildren("Rendering what is not ready yet and encoding takes: " + estimates.map((entry) =>
        `${choiceName(entry.voices)}, about ${approximately(entry.seconds)}${entry.voices === chosen ? " (your choice)" : ""}`).join(" · ")
        + " (at the speed of this machine's last exports; other work on it slows an export, and the time left shown while it runs follows that)."
        + " Faster choices give the best (slowest) voices to fewer roles. Also in ", el("a", { href: "#/account" }, "Settings"), ".");
    } catch (error) {
      if (!isAbort(error)) line.textContent = "";
    }
  }

  /** Saves the choice of voices (a user setting: it re-casts roles nobody chose a voice for), then re-estimates. */
  async function choose() {
    const kind = $("#export-voices").value;
    $("#export-hours-label").hidden = kind !== "hours";
    const voices = kind === "hours" ? `hours:${Math.min(72, Math.max(0.25, Number($("#export-hours").value) || 2))}` : kind;
    try {
      await api("/api/settings", { method: "PUT", json: { narration: { voices } }, signal });
      status.textContent = `Voices: ${choiceName(voices)}. The cast follows it for roles you did not choose a voice for.`;
      await estimate();
      await view.refresh?.();
    } catch (error) {
      if (!isAbort(error)) status.textContent = error.message;
    }
  }
  $("#export-voices").addEventListener("change", choose, { signal });
  $("#export-hours").addEventListener("change", choose, { signal });

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

  const cancel = $("#export-cancel");
  let running = null;
  cancel.addEventListener("click", async () => {
    if (!running) return;
    cancel.disabled = true;
    try {
      await api(`/api/jobs/${running}/cancel`, { method: "POST", signal });
    } catch (error) {
      if (!isAbort(error)) status.textContent = error.message;
    }
  }, { signal });

  $("#export-start").addEventListener("click", async () => {
    const bar = $("#export-bar");
    try {
      const job = await api(`/api/stories/${view.id}/render`, { method: "POST", json: { format: $("#export-format").value }, signal });
      running = job.id;
      $("#export-progress-label").hidden = false;
      $("#export-start").disabled = true;
      cancel.hidden = false;
      cancel.disabled = false;
      // The server's message says which line and how long is left ("… · about 35 min left").
      const done = await followJob(job.id, (snapshot) => {
        bar.value = snapshot.progress;
        status.textContent = snapshot.status === "queued" ? "Waiting for a worker…" : (snapshot.message ?? "Exporting…");
      }, { signal });
      running = null;
      cancel.hidden = true;
      $("#export-start").disabled = false;
      status.textContent = done.status === "succeeded" ? "Export finished."
        : done.status === "cancelled" ? "Export cancelled: nothing was written (the lines already rendered are kept for next time)."
        : `Export failed: ${done.error ?? "unknown error"}.`;
      view.reply = await api(`/api/stories/${view.id}/analysis?segments=false`, { signal });
      render();
    } catch (error) {
      if (isAbort(error)) return;
      running = null;
      cancel.hidden = true;
      $("#export-start").disabled = false;
      status.textContent = error.message;
    }
  }, { signal });

  return { render };
}
