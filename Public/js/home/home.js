// The home page after sign-in: what each area of StoryVoice does, with a link to it. Built from
// the route table (js/routes.js), so a new area appears here by being added there.
import { el } from "../shared/dom.js";
import { href } from "../shared/router.js";
import { areas } from "../routes.js";
import { icon } from "../shared/icons.js";

export default function homeScreen() {
  return {
    mount(container, _params, { setTitle, me }) {
      setTitle("Home");
      const listed = areas.filter((area) => area.summary);
      container.replaceChildren(el("section", { id: "home", "aria-labelledby": "home-title" },
        el("h2", { id: "home-title" }, "Welcome to StoryVoice"),
        el("p", { className: "hint" }, `Signed in as ${me.email}. Choose what to do:`),
        el("ul", { className: "cards areas", "aria-label": "What StoryVoice does" }, ...listed.map((area) =>
          el("li", { className: "card area", dataset: { area: area.id } },
            el("span", { className: "area-icon" }, icon(area.id)),
            el("h3", {}, el("a", { href: href(area.start) }, area.name)),
            el("p", {}, area.summary))))));
    },
    unmount() {},
  };
}
