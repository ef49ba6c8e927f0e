// The server's side of listening: the playhead is sent as each sentence starts (the server writes
// ahead of it, and a journey opens where it was left), and the journey is read again every 1.5 s
// while it is being told, so that parts written meanwhile are shown and played.
import { api, isAbort } from "../../shared/api.js";
import { send } from "../common.js";

const pollEvery = 1500;

export function updatesPart(view) {
  const { signal, context } = view;
  let pollTimer = null;
  let lastSent = null; // the playhead last sent to the server

  view.sendPlayhead = () => {
    const { part, sentence } = view.position;
    const wanted = view.key(part, sentence);
    if (wanted === lastSent || view.disposed) return;
    lastSent = wanted;
    send(`/api/journeys/${view.journey.id}/playhead`, { method: "PUT", json: { part, sentence }, signal })
      .then((reply) => { if (reply?.id === view.journey.id) apply(reply); })
      .catch((error) => {
        if (isAbort(error) || error.code === "session_ended") return;
        if (lastSent === wanted) lastSent = null; // sent again with the next move
        console.warn("The playhead was not saved:", error.message);
      });
  };

  view.schedulePoll = () => {
    clearTimeout(pollTimer);
    pollTimer = null;
    if (view.disposed || view.journey.status !== "telling") return;
    pollTimer = setTimeout(poll, pollEvery);
  };

  async function poll() {
    pollTimer = null;
    if (view.disposed) return;
    try {
      apply(await api(`/api/journeys/${view.journey.id}`, { signal }));
    } catch (error) {
      if (isAbort(error) || error.code === "session_ended" || view.disposed) return;
      if (error.status === 404) {
        view.stop();
        return context.showProblem("Journey not found", "This journey was deleted.", [["/journeys", "Go to your journeys"]]);
      }
      // A dropped connection: try again on the next beat.
    }
    view.schedulePoll();
  }

  /** A fresh copy of the journey from the server: draw it, and go on if we were waiting. */
  function apply(fresh) {
    if (view.disposed) return;
    const wasTelling = view.journey.status === "telling";
    view.journey = fresh;
    view.heard();
    view.render();
    view.goOn();
    if (!pollTimer && fresh.status === "telling") view.schedulePoll();
    if (wasTelling && fresh.status !== "telling") clearTimeout(pollTimer);
    if (fresh.status === "failed" && view.queue.waiting) view.say(fresh.error ?? "This story could not go on.", { error: true });
  }

  return { dispose: () => { clearTimeout(pollTimer); pollTimer = null; } };
}
