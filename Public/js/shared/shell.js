// The app's shell: who is signed in, the header, and the one screen mounted in <main>.
//
// A screen module default-exports a function that makes a screen: { mount(container, params,
// context), unmount() }. The shell gives each mounted screen a fresh container and an
// AbortSignal (context.signal) that it aborts on unmount, so the screen's requests, job streams
// and listeners registered with it stop with the screen. Nothing of a screen stays in the page
// once another is shown, and signing out unmounts the screen and empties the session caches.
import { api, logout, onSessionEnded, isAbort, sessionEndedMessage } from "./api.js";
import { $, el, dismissDialog } from "./dom.js";
import { match, currentPath, href } from "./router.js";
import { clearSessionCaches } from "./session.js";
import { icon } from "./icons.js";

const appName = "StoryVoice";

export function start(areas) {
  let me = null; // the signed-in user, from /api/me
  let active = null; // { screen, controller }
  let navigation = 0; // bumps on every navigation; a slower, older one then does nothing
  let firstScreen = true;
  const main = $("#main");
  const stylesheets = new Map();

  function setTitle(text) {
    document.title = text ? `${text} · ${appName}` : appName;
  }

  function stylesheet(url) {
    if (!stylesheets.has(url)) {
      stylesheets.set(url, new Promise((resolve) => {
        document.head.append(el("link", { rel: "stylesheet", href: url, onload: resolve, onerror: resolve }));
      }));
    }
    return stylesheets.get(url);
  }

  // The header: one link per area that asks for one, from the route table.
  $("#nav-areas").replaceChildren(...areas.filter((area) => area.nav).map((area) =>
    el("a", { href: href(area.start), dataset: { area: area.id } }, icon(area.id), el("span", {}, area.name))));
  $("header h1 a").prepend(icon("logo", "ui-icon logo"));
  $("#menu").prepend(icon("menu"));

  // On a phone the links fold behind Menu; choosing one (or Escape) folds them again.
  const header = $("header"), menu = $("#menu");
  function openMenu(open) {
    header.classList.toggle("open", open);
    menu.setAttribute("aria-expanded", String(open));
  }
  menu.addEventListener("click", () => openMenu(!header.classList.contains("open")));
  $("#nav").addEventListener("click", (event) => { if (event.target.closest("a")) openMenu(false); });
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("open")) {
      openMenu(false);
      menu.focus();
    }
  });

  function markArea(id) {
    for (const link of $("#nav-areas").querySelectorAll("a")) {
      if (link.dataset.area === id) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  function unmountActive() {
    dismissDialog();
    if (active) {
      const { screen, controller } = active;
      active = null;
      controller.abort();
      try {
        screen.unmount?.();
      } catch (error) {
        console.error(error);
      }
    }
    main.replaceChildren();
  }

  /** What went wrong, in the screen's place, where the user is looking. */
  function showProblem(container, heading, message, links = [["/", "Go to the home page"]]) {
    const title = el("h2", { tabIndex: -1 }, heading);
    container.replaceChildren(el("section", { className: "problem", "aria-labelledby": "problem-title" },
      Object.assign(title, { id: "problem-title" }),
      el("p", { role: "alert", className: "error" }, message),
      el("p", {}, ...links.map(([path, text]) => el("a", { href: href(path) }, text)))));
    setTitle(heading);
    title.focus();
  }

  /** Unmounts the current screen and mounts the one `load` makes, unless a newer navigation wins. */
  async function mountScreen(area, load, params, token, { title = area.name, ...extra } = {}) {
    unmountActive();
    if (!firstScreen) window.scrollTo(0, 0); // a new screen starts at its top
    const container = el("div", { className: `screen area-${area.id}` });
    main.append(container);
    markArea(me ? area.id : null);
    setTitle(title);
    let module;
    try {
      [module] = await Promise.all([load(), stylesheet(area.stylesheet)]);
    } catch (error) {
      if (token === navigation) showProblem(container, "Not loaded", `This part of ${appName} could not be loaded (${error.message}). Reload the page to try again.`);
      return;
    }
    if (token !== navigation) return;
    const controller = new AbortController();
    const screen = module.default();
    active = { screen, controller };
    const moveFocus = !firstScreen && (document.activeElement === document.body || !document.activeElement || $("header").contains(document.activeElement));
    firstScreen = false;
    const context = { signal: controller.signal, me, setTitle, showProblem: (...args) => showProblem(container, ...args), ...extra };
    try {
      await screen.mount(container, params, context);
    } catch (error) {
      if (controller.signal.aborted || isAbort(error) || error?.code === "session_ended") return;
      console.error(error);
      showProblem(container, "Something went wrong", error.message);
      return;
    }
    // After a navigation, focus goes to the new screen's heading (a screen reader says where
    // the user is), unless the user has already moved on to something in it.
    if (moveFocus && !controller.signal.aborted && (document.activeElement === document.body || !document.activeElement)) {
      const heading = container.querySelector("h2");
      if (heading) {
        if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }
  }

  async function route() {
    const token = ++navigation;
    if (!me) {
      let who;
      try {
        who = await api("/api/me");
      } catch (error) {
        if (token !== navigation) return;
        if (error.status === 401) return showSignIn();
        return showProblem(main, "No connection", `${appName} could not reach the server (${error.message}). Reload the page to try again.`, []);
      }
      if (token !== navigation) return;
      signedIn(who);
    }
    const found = match(areas, currentPath());
    if (!found) {
      unmountActive();
      markArea(null);
      const container = el("div", { className: "screen" });
      main.append(container);
      return showProblem(container, "Not found", `There is no page at ${currentPath()}.`);
    }
    await mountScreen(found.area, found.route.load, found.params, token);
  }

  function signedIn(who) {
    me = who;
    $("#who").textContent = who.email;
    $("#nav").hidden = false;
    menu.hidden = false;
  }

  /** Forgets the user in this tab: screen, header, caches. */
  function signOutLocally() {
    navigation += 1;
    me = null;
    unmountActive();
    clearSessionCaches();
    $("#who").textContent = "";
    $("#nav").hidden = true;
    menu.hidden = true;
    openMenu(false);
    markArea(null);
  }

  function showSignIn(message = "") {
    signOutLocally();
    const account = areas.find((area) => area.signIn);
    return mountScreen(account, account.signIn, {}, navigation, { title: "Sign in", message, signedIn: () => route() });
  }

  $("#logout").addEventListener("click", async () => {
    signOutLocally();
    await logout().catch(() => {});
    // The next person to sign in starts at the home page, not at this user's last screen.
    history.replaceState(null, "", `${location.pathname}${location.search}${href("/")}`);
    await showSignIn();
  });

  // A refresh was refused somewhere (the session expired or was revoked): back to sign-in,
  // keeping the location so the same user returns to it.
  onSessionEnded(() => {
    if (me) showSignIn(sessionEndedMessage);
  });

  // Only "#/…" is a route; the skip link moves focus without touching the location.
  window.addEventListener("hashchange", () => {
    if (!location.hash || location.hash.startsWith("#/")) route();
  });
  $(".skip").addEventListener("click", (event) => {
    event.preventDefault();
    main.focus();
  });
  route();
}
