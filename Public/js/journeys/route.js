// What the planner and the player share: the route drawn as an inline SVG (no map tiles), with
// a marker that moves along it, and the trip's figures in words.
const svgNS = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

export const modes = [
  { id: "walking", name: "Walking" },
  { id: "cycling", name: "Cycling" },
  { id: "driving", name: "Driving" },
];

export function modeName(id) {
  return modes.find((mode) => mode.id === id)?.name ?? id;
}

/** "850 m", "1.3 km", "138 km". */
export function formatDistance(metres) {
  if (!Number.isFinite(metres)) return "";
  if (metres < 1000) return `${Math.round(metres)} m`;
  const km = metres / 1000;
  return `${km < 10 ? km.toFixed(1) : Math.round(km).toLocaleString()} km`;
}

/** "45 s", "12 min", "1 h 56 min", "2 h". */
export function formatTrip(seconds) {
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}

/** "3 parts" (a part is about a minute of story). */
export function partsText(count) {
  return `${count} part${count === 1 ? "" : "s"}`;
}

/** A place as the user knows it: its name, else "51.7520, -1.2577". */
export function placeName(place) {
  if (!place) return "";
  return place.name || `${Number(place.lat).toFixed(4)}, ${Number(place.lon).toFixed(4)}`;
}

/**
 * The route as an SVG: `line` ([{lat, lon}]) projected equirectangularly (longitude scaled by
 * the cosine of the mean latitude, so a kilometre is as long east–west as north–south), fitted
 * to the box with a margin, start and end marked and labelled. Answers {element, at(fraction)}:
 * `at` moves the progress marker to that fraction of the line's length (null hides it).
 */
export function routeDrawing(plan, { width = 640, height = 320, label = "Route" } = {}) {
  const line = (plan.line?.length ? plan.line : [plan.start, plan.end]).filter((point) => point && Number.isFinite(point.lat) && Number.isFinite(point.lon));
  const meanLat = line.reduce((sum, point) => sum + point.lat, 0) / Math.max(1, line.length);
  const scale = Math.cos(meanLat * Math.PI / 180);
  const raw = line.map((point) => [point.lon * scale, -point.lat]);
  const xs = raw.map(([x]) => x);
  const ys = raw.map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 36;
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const fit = Math.min(spanX > 0 ? (width - 2 * margin) / spanX : Infinity, spanY > 0 ? (height - 2 * margin) / spanY : Infinity);
  const k = Number.isFinite(fit) ? fit : 1;
  // Centred in the box whichever way it is longer.
  const offsetX = (width - spanX * k) / 2;
  const offsetY = (height - spanY * k) / 2;
  const points = raw.map(([x, y]) => [offsetX + (x - minX) * k, offsetY + (y - minY) * k]);

  const lengths = [0];
  for (let i = 1; i < points.length; i += 1) {
    lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  }
  const total = lengths.at(-1) ?? 0;
  const path = points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(" ");
  const first = points[0] ?? [width / 2, height / 2];
  const last = points.at(-1) ?? first;

  // Labels sit beside their marker, inside the box, away from the other end.
  const labelAt = ([x, y], [ox, oy]) => {
    const below = y >= oy;
    const anchor = x < width * 0.25 ? "start" : x > width * 0.75 ? "end" : "middle";
    return { x: Math.round(x), y: Math.round(below ? Math.min(height - 6, y + 24) : Math.max(16, y - 14)), "text-anchor": anchor };
  };
  const startName = placeName(plan.start);
  const endName = placeName(plan.end);
  const marker = svg("circle", { class: "route-progress", r: 7, cx: first[0], cy: first[1], visibility: "hidden" });
  const title = svg("title", {}, `${label}: ${startName} to ${endName}`);
  const element = svg("svg", { class: "route", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${label} from ${startName} to ${endName}`,
    preserveAspectRatio: "xMidYMid meet", "data-points": points.length },
  title,
  svg("rect", { class: "route-ground", x: 0, y: 0, width, height, rx: 12 }),
  svg("path", { class: "route-casing", d: path }),
  svg("path", { class: "route-line", d: path }),
  svg("circle", { class: "route-start", r: 8, cx: first[0], cy: first[1] }),
  svg("circle", { class: "route-end", r: 8, cx: last[0], cy: last[1] }),
  svg("text", { class: "route-label route-label-start", ...labelAt(first, last) }, `Start: ${startName}`),
  svg("text", { class: "route-label route-label-end", ...labelAt(last, first) }, `End: ${endName}`),
  ...townMarks(plan.towns ?? [], (point) => [offsetX + (point.lon * scale - minX) * k, offsetY + (-point.lat - minY) * k], { width, height }),
  ...scaleBar(Number.isFinite(fit) ? k : null, { height }),
  marker);

  /** Moves the marker to `fraction` (0–1) of the way along the line; null hides it. */
  function at(fraction) {
    if (fraction === null || fraction === undefined || !Number.isFinite(fraction) || !points.length) {
      marker.setAttribute("visibility", "hidden");
      return;
    }
    const distance = Math.max(0, Math.min(1, fraction)) * total;
    let i = 1;
    while (i < lengths.length - 1 && lengths[i] < distance) i += 1;
    const segment = (lengths[i] ?? 0) - (lengths[i - 1] ?? 0);
    const t = segment > 0 ? (distance - lengths[i - 1]) / segment : 0;
    const [x0, y0] = points[i - 1] ?? first;
    const [x1, y1] = points[i] ?? first;
    marker.setAttribute("cx", (x0 + (x1 - x0) * t).toFixed(1));
    marker.setAttribute("cy", (y0 + (y1 - y0) * t).toFixed(1));
    marker.setAttribute("visibility", "visible");
    element.dataset.progress = fraction.toFixed(4);
  }
  return { element, at };
}

/** The towns along the route: a dot and the name, for those inside the box. */
function townMarks(towns, project, { width, height }) {
  return towns.flatMap((town) => {
    const [x, y] = project(town);
    if (!(x > 8 && x < width - 8 && y > 20 && y < height - 8)) return [];
    const anchor = x < width * 0.2 ? "start" : x > width * 0.8 ? "end" : "middle";
    return [svg("g", { class: "route-town" },
      svg("circle", { class: "route-town-dot", r: 4, cx: x.toFixed(1), cy: y.toFixed(1) }),
      svg("text", { class: "route-town-label", x: x.toFixed(1), y: (y - 9).toFixed(1), "text-anchor": anchor }, town.name))];
  });
}

/** A scale bar in the box's lower left: a round distance (1, 2 or 5 × 10ⁿ m) about a fifth of
    the box wide. `pixelsPerDegree` is the drawing's scale (a degree of latitude is 111.32 km);
    none for a route that is a single point. */
function scaleBar(pixelsPerDegree, { height, target = 130 }) {
  if (!pixelsPerDegree) return [];
  const metresPerPixel = 111_320 / pixelsPerDegree;
  const wanted = metresPerPixel * target;
  const power = 10 ** Math.floor(Math.log10(wanted));
  const metres = [1, 2, 5, 10].map((step) => step * power).filter((length) => length <= wanted).at(-1) ?? power;
  const length = metres / metresPerPixel;
  const x = 16, y = height - 16;
  return [
    svg("path", { class: "route-scale", d: `M${x} ${y - 6}V${y}H${(x + length).toFixed(1)}V${y - 6}` }),
    svg("text", { class: "route-scale-label", x: x + length / 2, y: y - 8, "text-anchor": "middle" },
      metres < 1000 ? `${metres} m` : `${(metres / 1000).toLocaleString()} km`),
  ];
}

/** "Oxford → Cambridge" for a plan or a journey summary (strings or places). */
export function tripName(start, end) {
  const name = (place) => (typeof place === "string" ? place : placeName(place));
  return `${name(start)} → ${name(end)}`;
}
