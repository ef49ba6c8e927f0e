"""The look of every area (issue 51): each screen at a laptop's size (1280x800) and a phone's
(390x844), in light and dark, is photographed for docs/web-app.md (scripts/update-screenshots
copies them there), fits the screen without scrolling sideways, keeps the header to one line,
and has no serious or critical accessibility violation by axe-core (the copy bundled in the
hash-pinned axe-playwright-python wheel, injected into the page; only its JavaScript is used).
"""

import json
import os

from browser_test import Browser, check, check_page_errors, register

# Colours mid-transition are neither the old nor the new ones: axe would judge a blend. (Other
# transitions, a marker moving along a route, may run all the time.)
COLOURS_SETTLED = ("return document.getAnimations().filter(a => a instanceof CSSTransition"
                   " && /color|background|border|opacity|shadow|outline|fill|stroke/.test(a.transitionProperty)).length === 0")

SIZES = {"laptop": (1280, 800, False), "phone": (390, 844, True)}
SCHEMES = ("light", "dark")

# The screens, in the order a new user meets them: (name, location, what shows it is ready).
SCREENS = [
    ("home", "#/", "return document.querySelectorAll('#home .area').length > 0"),
    ("stories", "#/stories", "return document.querySelectorAll('#story-list li').length > 0"),
    ("story", "#/stories/{story}", "return document.querySelectorAll('#cast-list .cast-card').length >= 2 && document.querySelectorAll('#lines .line').length > 0"),
    # A free account is told what premium brings, its price and how to get it (issue 51).
    ("chat", "#/chat", "return document.querySelectorAll('#chat-conversations li').length > 0"
                       " && /from \\S+ \\/ (week|month)/.test(document.querySelector('#chat-premium .premium-card')?.textContent)"
                       " && /iPhone app/.test(document.querySelector('#chat-premium').textContent)"
                       " && document.querySelectorAll('#chat-generate-form select[name=model] option').length === 4"),
    ("chat-editor", "#/chat/{chat}", "return document.querySelectorAll('.phone-messages li').length >= 3"),
    ("journeys", "#/journeys", "return !!document.querySelector('#journey-form')"),
    ("calls", "#/calls", "return document.querySelectorAll('.calls-scenario').length > 0"),
    # The model lists come from one module (js/shared/models.js): this machine and three providers.
    ("talk", "#/talk", "return !!document.querySelector('#hold') && document.querySelectorAll('#talk-model option').length === 4"),
    ("settings", "#/account", "return !!document.querySelector('form')"),
]


def cdp(browser, command, params):
    return browser.s("POST", "/goog/cdp/execute", {"cmd": command, "params": params})


def look(browser, size, scheme):
    width, height, mobile = SIZES[size]
    cdp(browser, "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    cdp(browser, "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    browser.wait_for(f"a {width}px {scheme} page", f"return innerWidth === {width} && matchMedia('(prefers-color-scheme: {scheme})').matches")


def axe_violations(browser, source):
    """axe-core's serious and critical violations on the page as it is. The chat stories' phone
    preview is left out: it draws the messaging apps' own bubbles as the exported video shows
    them (iMessage's white on #007AFF is 4.0:1), a picture of the video rather than controls."""
    if not browser.js("return typeof window.axe === 'object'"):
        browser.js(source + "\n;return true;")
    found = browser.s("POST", "/execute/async", {"script": """
        const done = arguments[arguments.length - 1];
        axe.run({ exclude: ['.phone'] }, { resultTypes: ['violations'] })
          .then(result => done(result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 200)) }))))
          .catch(error => done([{ id: 'axe-error', help: String(error), nodes: [] }]));""", "args": []})
    return found


def check_accessible(browser, options, screen):
    """No serious or critical axe-core violation on the screen as it is now (for the screens
    the tour cannot reach: a journey being told, a call in progress)."""
    with open(options.axe, encoding="utf-8") as file:
        source = file.read()
    browser.wait_for("colour transitions to end", COLOURS_SETTLED)
    found = axe_violations(browser, source)
    check(not found, f"{screen} has no serious or critical accessibility violation {json.dumps(found)[:3000]}")


def fits(browser):
    """Elements poking out of the page sideways, and the document's width against the screen's."""
    overflow = browser.js("""
        return [...document.querySelectorAll('body *')].filter(node => node.checkVisibility()
            && node.getBoundingClientRect().right > innerWidth + 0.5 && !node.closest('.scroll-x'))
            .slice(0, 5).map(node => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`);""")
    width, viewport = browser.js("return [document.scrollingElement.scrollWidth, innerWidth]")
    return width <= viewport and not overflow, f"{width}px in {viewport}px {overflow}"


def header_is_one_line(browser):
    return browser.js("""
        const header = document.querySelector('header').getBoundingClientRect();
        const name = document.querySelector('header h1').getBoundingClientRect();
        return header.height < name.height * 1.9""")


def seed(browser, story_path):
    """A story analysed and a chat story, made through the API as the signed-in user."""
    with open(story_path, encoding="utf-8") as file:
        text = file.read()
    ids = browser.s("POST", "/execute/async", {"script": """
        const [text, done] = arguments;
        const post = (path, body) => fetch(path, { method: 'POST', credentials: 'same-origin',
            headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(r => r.json());
        (async () => {
          const story = await post('/api/stories', { title: 'The Open Window', author: 'Saki', text });
          await post(`/api/stories/${story.id}/analyze`, {});
          const chat = await post('/api/chat/conversations', { title: 'Who ate my fries', theme: 'imessage',
            characters: [{ id: 'me', name: 'Me', color: '#007AFF', is_me: true }, { id: 'sam', name: 'Sam', color: '#34C759' }],
            messages: [
              { character_id: 'sam', text: 'did you take the last of the fries' },
              { character_id: 'me', text: 'define "take"' },
              { character_id: 'sam', text: 'I can see the ketchup on your phone' },
              { character_id: 'me', text: 'that is circumstantial evidence 🍟' }] });
          done({ story: story.id, chat: chat.id });
        })().catch(error => done({ error: String(error) }));""", "args": [text]})
    check("error" not in ids, f"the tour's story and chat story were made {ids}")
    return ids


def design_flow(options):
    with open(options.axe, encoding="utf-8") as file:
        axe_source = file.read()
    shots = os.path.join(options.artifacts, "design")
    os.makedirs(shots, exist_ok=True)
    browser = Browser(options.driver, shots)
    problems = []
    try:
        browser.go(options.app + "/")
        browser.find("#auth-form")
        for size in SIZES:
            for scheme in SCHEMES:
                look(browser, size, scheme)
                browser.wait_for("the sign-in form", "return document.querySelector('#auth-form')?.checkVisibility()")
                problems += visit(browser, axe_source, "signin", size, scheme)
        look(browser, "laptop", "light")
        register(browser, "tour@example.com")
        ids = seed(browser, options.story)
        for name, location, ready in SCREENS:
            for size in SIZES:
                for scheme in SCHEMES:
                    look(browser, size, scheme)
                    browser.go(options.app + "/" + location.format(**ids))
                    browser.wait_for(f"the {name} screen", ready, timeout=120)
                    problems += visit(browser, axe_source, name, size, scheme)
        # Long jobs (an analysis, a chat video) say how long is left from their progress so
        # far, counted from the first progress seen (issue 51 item 5), on a clock the test sets.
        said = browser.s("POST", "/execute/async", {"script": """
            const done = arguments[0];
            import('/js/shared/progress.js').then(({ timeLeftEstimator }) => {
              let t = 0;
              const left = timeLeftEstimator(() => t);
              const said = [left(0.1)];
              t = 10000; said.push(left(0.3));
              t = 130000; said.push(left(0.6));
              done(said);
            }).catch(error => done(String(error)));""", "args": []})
        check(said == ["", "about 35 s left", "about 2 min left"], f"a job's time left follows its rate of progress {said}")
        check_page_errors(browser)
    finally:
        browser.quit()
    with open(os.path.join(shots, "problems.json"), "w") as file:
        json.dump(problems, file, indent=1)
    check(not problems, f"every screen fits, keeps its header to one line and has no serious accessibility violation: {json.dumps(problems, indent=1)[:6000]}")


def visit(browser, axe_source, name, size, scheme):
    """Photographs the screen and lists what is wrong with it."""
    browser.js("window.scrollTo(0, 0); document.activeElement?.blur?.()")
    # Fonts and the screen's own late layout (a list filled after its first paint).
    browser.wait_for("fonts", "return document.fonts.status === 'loaded'")
    browser.wait_for("colour transitions to end", COLOURS_SETTLED)
    browser.screenshot(f"{name}-{size}-{scheme}")
    problems = []
    fitted, detail = fits(browser)
    if not fitted:
        problems.append({"screen": name, "size": size, "scheme": scheme, "problem": "scrolls sideways", "detail": detail})
    if not header_is_one_line(browser):
        problems.append({"screen": name, "size": size, "scheme": scheme, "problem": "the header is more than one line"})
    for violation in axe_violations(browser, axe_source):
        problems.append({"screen": name, "size": size, "scheme": scheme, "problem": "axe", **violation})
    return problems
