// A story's cover: its title set on a gradient whose colours come from the title, so every
// story has its own (a listening app shows covers; an imported text brings none).
import { el } from "./dom.js";

/** The cover of `title`, decorative (the title is also in the heading beside it). */
export function cover(title, className = "cover") {
  let hash = 2166136261;
  for (const character of title) hash = Math.imul(hash ^ character.codePointAt(0), 16777619) >>> 0;
  const hue = hash % 360, second = (hue + 30 + ((hash >>> 9) % 90)) % 360;
  // Dark enough for white text at every hue (yellow is the lightest): contrast over 5:1.
  return el("div", { className, "aria-hidden": "true", style: `--cover-a: hsl(${hue} 60% 30%); --cover-b: hsl(${second} 65% 18%)` },
    el("span", {}, title));
}
