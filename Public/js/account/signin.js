// Sign in or create an account. Shown by the shell whenever nobody is signed in; afterwards
// the shell goes on to the location the visitor asked for (the home page by default).
import { login, register } from "../shared/api.js";
import { $, markup } from "../shared/dom.js";

const html = `
<section id="signin" aria-labelledby="signin-title">
  <h2 id="signin-title">Sign in</h2>
  <form id="auth-form">
    <label>Email <input name="email" type="email" autocomplete="email" required></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" minlength="8" required></label>
    <div class="actions">
      <button type="submit" name="action" value="login">Log in</button>
      <button type="submit" name="action" value="register" class="secondary">Create account</button>
    </div>
    <p class="error" role="alert" id="auth-error"></p>
  </form>
</section>`;

export default function signInScreen() {
  return {
    mount(container, _params, { signal, setTitle, message, signedIn }) {
      container.replaceChildren(markup(html));
      setTitle("Sign in");
      const form = $("#auth-form", container);
      const error = $("#auth-error", container);
      error.textContent = message ?? "";
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const action = event.submitter?.value ?? "login";
        const email = form.elements.email.value;
        const password = form.elements.password.value;
        error.textContent = "";
        try {
          await (action === "register" ? register(email, password) : login(email, password));
          if (signal.aborted) return;
          form.reset();
          await signedIn();
        } catch (failure) {
          if (!signal.aborted) error.textContent = failure.message;
        }
      }, { signal });
      form.elements.email.focus();
    },
    unmount() {},
  };
}
