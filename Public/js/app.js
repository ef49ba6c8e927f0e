// The web app's shell: sign-in, then a hash router over library, story and settings screens.
import { api, login, logout, register, APIError } from "./api.js";
import { $ } from "./dom.js";
import { showAccount } from "./account.js";
import { showLibrary } from "./library.js";
import { showStory, leaveStory } from "./story.js";

const screens = ["signin", "library", "story", "account"];
let me = null;

function reveal(id) {
  for (const screen of screens) $(`#${screen}`).hidden = screen !== id;
  $("#nav").hidden = id === "signin";
}

async function route() {
  if (!me) {
    try {
      me = await api("/api/me");
    } catch (error) {
      if (error instanceof APIError && error.status === 401) return showSignIn();
      throw error;
    }
    $("#who").textContent = me.email;
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  const story = hash.match(/^\/stories\/([0-9a-fA-F-]{36})$/);
  if (!story) leaveStory();
  if (story) {
    reveal("story");
    await showStory(story[1]);
  } else if (hash === "/account") {
    reveal("account");
    await showAccount();
  } else {
    reveal("library");
    await showLibrary();
  }
  document.title = `${$("main h2:not([hidden])")?.textContent || "StoryVoice"} · StoryVoice`;
}

function showSignIn() {
  me = null;
  reveal("signin");
  $("#auth-form [name=email]").focus();
}

$("#auth-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const action = event.submitter?.value ?? "login";
  const email = form.elements.email.value;
  const password = form.elements.password.value;
  $("#auth-error").textContent = "";
  try {
    await (action === "register" ? register(email, password) : login(email, password));
    form.reset();
    await route();
  } catch (error) {
    $("#auth-error").textContent = error.message;
  }
});

$("#logout").addEventListener("click", async () => {
  leaveStory();
  await logout().catch(() => {});
  showSignIn();
});

window.addEventListener("hashchange", () => route().catch(showError));

function showError(error) {
  if (error instanceof APIError && error.status === 401) return showSignIn();
  const status = $("main section:not([hidden]) [role=status]") ?? $("#auth-error");
  status.textContent = error.message;
}

route().catch(showError);
