// Hash routes ("#/stories/<id>") matched against the route table in js/routes.js.

/**
 * An area of the app: `id` is its folder under js/ and the name of its css/<id>.css.
 * `routes` maps path patterns to screen modules in the folder; `signIn` (one area only) names
 * the screen shown to a signed-out visitor.
 */
export function area(id, { name, summary = null, nav = true, routes, signIn = null }) {
  const load = (file) => () => import(`../${id}/${file}`);
  return {
    id, name, summary, nav,
    start: Object.keys(routes)[0],
    stylesheet: `/css/${id}.css`,
    routes: Object.entries(routes).map(([pattern, file]) => ({ pattern, regex: compile(pattern), load: load(file) })),
    signIn: signIn ? load(signIn) : null,
  };
}

function compile(pattern) {
  const source = pattern.split("/").map((part) =>
    part.startsWith(":") ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("/");
  return new RegExp(`^${source}$`);
}

/** The path the location names: "#/stories/x" → "/stories/x"; no hash → "/". */
export function currentPath() {
  return location.hash.startsWith("#/") ? location.hash.slice(1) : "/";
}

/** The area and route that `path` names, with its params, or null. */
export function match(areas, path) {
  for (const area of areas) {
    for (const route of area.routes) {
      const found = route.regex.exec(path);
      if (found) {
        const params = Object.fromEntries(Object.entries(found.groups ?? {}).map(([key, value]) => [key, decode(value)]));
        return { area, route, params };
      }
    }
  }
  return null;
}

function decode(value) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a stray "%": the screen gets the text as it is and says it finds nothing
  }
}

export function href(path) {
  return `#${path}`;
}
