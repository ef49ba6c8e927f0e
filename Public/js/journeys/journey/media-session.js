// The lock screen and the headset's buttons (the Media Session API): the journey's name and part,
// whether it plays, and play, pause, next and previous part. A browser without some of it keeps
// the page's own controls.
export function mediaSessionPart(view) {
  const session = "mediaSession" in navigator ? navigator.mediaSession : null;
  if (!session) return { update() {}, dispose() {} };
  const handlers = { play: () => view.play(), pause: () => view.pause(), nexttrack: () => view.nextPart(), previoustrack: () => view.previousPart() };
  for (const [action, handler] of Object.entries(handlers)) {
    try { session.setActionHandler(action, handler); } catch { /* not supported here */ }
  }
  return {
    /** `state`: the player's (idle, playing, waiting, paused, ended). */
    update(state) {
      if (view.disposed) return;
      try {
        if (typeof MediaMetadata !== "undefined") {
          const album = `Part ${view.position.part} of ${view.total()}`;
          const current = session.metadata;
          if (!current || current.title !== view.name() || current.album !== album) {
            session.metadata = new MediaMetadata({ title: view.name(), artist: "StoryVoice", album });
          }
        }
        session.playbackState = state === "playing" || state === "waiting" ? "playing" : state === "idle" ? "none" : "paused";
      } catch {
        // A browser without some of it: the page's own controls still work.
      }
    },
    dispose() {
      for (const action of Object.keys(handlers)) {
        try { session.setActionHandler(action, null); } catch { /* not supported here */ }
      }
      session.metadata = null;
      session.playbackState = "none";
    },
  };
}
