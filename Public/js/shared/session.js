// What the app keeps in memory for the signed-in user beyond one screen (a screen's own state
// goes when it unmounts). The shell empties all of it when the user signs out or the session
// ends, so the next person to sign in on this tab starts from nothing.

const caches = new Set();

/** A Map that lasts while this user is signed in, and is emptied at sign-out. */
export function sessionCache() {
  const cache = new Map();
  caches.add(cache);
  return cache;
}

export function clearSessionCaches() {
  for (const cache of caches) cache.clear();
}
