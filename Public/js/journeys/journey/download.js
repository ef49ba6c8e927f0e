// Download: an audiobook (M4B) of the parts told so far, a chapter per part, made as a job with
// live progress, then offered as a link.
import { followJob, isAbort } from "../../shared/api.js";
import { downloadLink } from "../../shared/download.js";
import { send } from "../common.js";

export function downloadPart(view) {
  const { $, signal } = view;
  $("#journey-export-start").addEventListener("click", async () => {
    const button = $("#journey-export-start");
    const bar = $("#journey-export-bar");
    const status = $("#journey-export-status");
    const say = (text, error = false) => { status.textContent = text; status.classList.toggle("error", error); };
    const id = view.journey.id;
    button.disabled = true;
    $("#journey-export-link").replaceChildren();
    say("Starting the export…");
    try {
      const { job } = await send(`/api/journeys/${id}/export`, { signal });
      bar.hidden = false;
      bar.value = job.progress ?? 0;
      const done = await followJob(job.id, (snapshot) => {
        bar.value = snapshot.progress ?? 0;
        say(snapshot.status === "queued" ? "Waiting for a worker…"
          : `${snapshot.message ?? "Making the audiobook…"} ${Math.round((snapshot.progress ?? 0) * 100)}%`);
      }, { signal });
      bar.hidden = true;
      if (done.status === "succeeded") {
        say("The audiobook is ready.");
        $("#journey-export-link").replaceChildren(downloadLink(`/api/journeys/${id}/audio`, {
          signal, id: "journey-export-download", className: "button", onError: (message) => say(message, true) },
        "Download the M4B"));
      } else {
        say(`The audiobook was not made: ${done.error ?? done.status}.`, true);
      }
    } catch (error) {
      if (isAbort(error)) return;
      bar.hidden = true;
      say(error.message, true);
    } finally {
      if (!signal.aborted) button.disabled = false;
    }
  }, { signal });
}
