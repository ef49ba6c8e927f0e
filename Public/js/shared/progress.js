// Time left for a job from its progress: the rate since the first progress seen (not since it
// was queued, which would count the wait for a worker as work), once there is enough to go on.

/** "about 40 s left", "about 3 min left", "about 1 h 10 min left". */
export function formatTimeLeft(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""} left`;
}

/** A function from a job's progress (0–1) to the time left in words, "" while unknown. */
export function timeLeftEstimator(now = () => performance.now()) {
  let first = null;
  return (progress) => {
    if (!Number.isFinite(progress) || progress <= 0 || progress >= 1) return "";
    const at = now() / 1000;
    first ??= { at, progress };
    const elapsed = at - first.at, done = progress - first.progress;
    if (elapsed < 3 || done < 0.02) return "";
    return formatTimeLeft((1 - progress) * elapsed / done);
  };
}
