// #/calls — AI phone calls (issue 20): the plan card, the scenario picker (with "Create your
// own"), the in-browser call, "Call a phone" (now or scheduled), and the calls made and
// scheduled. Each part is its own module beside this one; this screen wires them together
// around one shared choice: the scenario.
import { el } from "../shared/dom.js";
import { planCard } from "./plan.js";
import { scenarioPicker } from "./scenarios.js";
import { scenarioEditor } from "./editor.js";
import { browserCall } from "./call-panel.js";
import { phoneCall } from "./phone.js";
import { callLog } from "./history.js";

export default function callsScreen() {
  let panel = null;
  return {
    async mount(container, _params, context) {
      const { signal } = context;
      context.setTitle("Calls");
      let chosen = null;
      const names = new Map(); // scenario id → name, for the history
      const scenario = () => chosen;

      const plan = planCard({ signal, onLoaded: (permission) => panel.setLimit(permission.details?.duration_limit) });
      const log = callLog({ signal, scenarioName: (id) => names.get(id) ?? id });
      const changed = () => Promise.all([plan.refresh(), log.refresh()]);
      let settle = null;
      signal.addEventListener("abort", () => clearTimeout(settle), { once: true });
      panel = browserCall({ signal, scenario, onEnded: () => {
        changed();
        // The server records the call's end as its socket closes, a moment after the page hangs
        // up: look again for its final status and length.
        clearTimeout(settle);
        settle = setTimeout(() => log.refresh(), 2500);
      } });
      const phone = phoneCall({ signal, scenario, onOfferBrowser: () => panel.focus(), onChanged: changed });
      const picker = scenarioPicker({
        signal,
        onChoose: (picked) => {
          chosen = picked;
          panel.show(picked);
          phone.show(picked);
        },
        onEdit: (picked) => editor.open(picked),
        onDeleted: () => log.refresh(),
      });
      const editor = scenarioEditor({
        signal,
        onSaved: async (saved, created) => {
          await picker.refresh();
          remember();
          picker.choose(saved.id);
          picker.element.querySelector(`.calls-scenario[data-id="${CSS.escape(saved.id)}"] input`)?.focus();
          picker.element.querySelector("#calls-scenarios-status").textContent = created
            ? `Created “${saved.name}”: it is chosen for your next call.` : `Saved “${saved.name}”.`;
        },
        onClosed: () => picker.focusCreate(),
      });
      const remember = () => {
        for (const item of picker.element.querySelectorAll(".calls-scenario")) {
          names.set(item.dataset.id, item.querySelector(".calls-scenario-name").textContent);
        }
      };

      container.replaceChildren(el("section", { id: "calls", "aria-labelledby": "calls-title" },
        el("h2", { id: "calls-title" }, "Calls"),
        el("p", { className: "hint calls-intro" }, "Pick a character — a storyteller, a comedian, a birthday caller — and an AI voice plays the part on a phone call. Try it here in the browser, or have it call a phone."),
        plan.element,
        picker.element,
        editor.element,
        el("div", { className: "calls-ways" }, panel.element, phone.element),
        log.element));

      await Promise.all([plan.refresh(), picker.refresh().then(remember)]);
      await log.refresh();
    },
    unmount() {
      // The call in progress hangs up (stop, then close) and its microphone and sound stop.
      panel?.dispose();
    },
  };
}
