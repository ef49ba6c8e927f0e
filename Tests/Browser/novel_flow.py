"""A novel on the story page (issue 24): a generated 300k-character novel with chapters, dialogue
with said-tags, hard-wrapped lines and _italics_. Measures how soon its page is usable after a
navigation (printed; only a generous bound is asserted, the machine may be loaded), counts the
page's DOM nodes, and checks the virtualised lines (rows arrive by range as the list scrolls),
the chapters (listed, played, previous/next), the player bar (chapter, "line X of Y", the line's
text), the keyboard (←/→, Shift+←/→), "Preparing audio…" on a jump to an unrendered line, the
filter by speaker, changing a line's speaker, reflowed text with italics, and dark mode.
Screenshots go to the artifacts folder as novel-*.png.
"""
import json
import os
import random
import textwrap
import time
import uuid

from browser_test import Browser, check, check_page_errors, register


def roman(number):
    out = ""
    for value, numeral in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out += numeral
            number -= value
    return out


def novel_text(target=300_000):
    """A deterministic novel-like text of about `target` characters."""
    rng = random.Random(24)
    people = ["Margaret Hale", "John Thornton", "Bessy Higgins", "Nicholas Higgins", "Mrs. Thornton", "Mr. Bell"]
    verbs = ["said", "replied", "asked", "answered", "cried", "murmured"]
    places = ["the mill", "the garden", "the long road to Milton", "the parlour", "the station", "the chapel"]
    words = ("the evening light fell across the yard and every window of the house was bright with it "
             "while somewhere below a cart went by slowly and the smoke of the chimneys rose into a pale sky "
             "she remembered the letters and the old promise and how little anyone had said of it since").split()

    def sentence(length):
        chosen = [rng.choice(words) for _ in range(length)]
        if rng.random() < 0.25:
            at = rng.randrange(1, length)
            chosen[at] = rng.choice(["_" + chosen[at] + "_", "*" + chosen[at] + "*"])
        text = " ".join(chosen)
        return text[0].upper() + text[1:] + "."

    chapters, size, number = [], 0, 0
    while size < target:
        number += 1
        parts = [f"CHAPTER {roman(number)}.", rng.choice(places).title(), ""]
        for _ in range(28):
            if rng.random() < 0.45:
                quote = " ".join(sentence(rng.randint(5, 12)) for _ in range(rng.randint(1, 2)))
                paragraph = f"\u201c{quote[:-1]},\u201d {rng.choice(verbs)} {rng.choice(people)}."
            else:
                paragraph = " ".join(sentence(rng.randint(8, 20)) for _ in range(rng.randint(2, 5)))
            parts += [textwrap.fill(paragraph, 72), ""]  # hard-wrapped, as Gutenberg texts are
        chapter = "\n".join(parts) + "\n"
        chapters.append(chapter)
        size += len(chapter)
    return "A Northern Story\n\n" + "\n".join(chapters)


def current_line(browser):
    found = browser.js("return document.querySelector('#line-list .current')?.id")
    return int(found.split("-")[1]) if found else None


def new_reader_in_library(browser, options, who):
    """Registers a new reader (`who`-…@example.com) and opens their library."""
    browser.go(options.app + "/")
    register(browser, f"{who}-{uuid.uuid4().hex[:8]}@example.com")
    browser.go(options.app + "/#/stories")
    browser.wait_for("the library", "return document.querySelector('#library')?.checkVisibility()")


def line_count(browser):
    """How many lines the player bar says the story has."""
    return browser.wait_for("the line count", "return Number((document.querySelector('#position').textContent.match(/of ([\\d,]+)/) || [])[1]?.replace(/,/g, '')) || null")


def interactive_after_navigation(browser, title, runs=2):
    """Reloads the story page `runs` times (nothing remembered) and answers the times (ms)
    from the navigation to the page's storyvoice:story-interactive mark: its title, first lines
    and Play usable."""
    timings = []
    for _ in range(runs):
        browser.js("localStorage.clear(); location.reload()")
        browser.wait_for("the story page after a reload", f"""
            return document.querySelector('#story-title')?.textContent.includes({json.dumps(title)})
                && document.querySelector('#line-list .line:not(.loading) .line-text')
                && document.querySelector('#play')?.checkVisibility() && !document.querySelector('#play').disabled
                && performance.getEntriesByName('storyvoice:story-interactive').length > 0""", timeout=120)
        timings.append(browser.js("return performance.getEntriesByName('storyvoice:story-interactive')[0].startTime"))
    return timings


def novel_flow(options):
    path = os.path.join(os.path.abspath(options.artifacts), "a-northern-story.txt")
    text = novel_text()
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    browser = Browser(options.driver, options.artifacts)
    try:
        new_reader_in_library(browser, options, "novel")
        browser.type("#upload-form [name=file]", path)
        browser.click("#upload-form button[type=submit]")
        browser.wait_for("the novel's page", "return document.querySelector('#story-title')?.textContent.includes('Northern')", timeout=120)
        # An upload may start the analysis itself; otherwise ask for it.
        if browser.js("return !document.querySelector('#line-list .line') && !document.querySelector('#analysis-progress')?.checkVisibility()"):
            browser.click("#analyze")
        browser.wait_for("the analysed novel's lines", "return document.querySelector('#line-list .line:not(.loading)')", timeout=600)
        story_url = browser.js("return location.href")

        # The page of an analysed novel, from a navigation: interactive when the title, the
        # first lines and Play are there.
        timings = interactive_after_navigation(browser, "Northern")
        total = line_count(browser)
        interactive = min(timings)
        print(f"novel page interactive: {interactive:.0f} ms after navigation (runs: {', '.join(f'{t:.0f}' for t in timings)} ms; "
              f"{len(text):,} characters, {total:,} lines)")
        check(interactive < 5000, f"a {len(text):,}-character novel's page is interactive in {interactive:.0f} ms (bound 5 s)")
        nodes = browser.js("return [document.getElementsByTagName('*').length, document.querySelectorAll('#line-list *').length, document.querySelectorAll('#line-list .line').length]")
        print(f"DOM nodes: {nodes[0]:,} in the page, {nodes[1]:,} in the lines list ({nodes[2]} rows of {total:,} lines)")
        check(nodes[2] < 200 and nodes[1] < 3000, f"the lines list is virtualised: {nodes[2]} rows in the page for {total:,} lines")
        browser.screenshot("novel-1-page")

        # Readable text: hard-wrapped lines reflowed, _italics_ and *italics* as italics.
        prose = browser.wait_for("rows with italics", """
            const texts = [...document.querySelectorAll('#line-list .line:not(.loading) .line-text')];
            const ems = document.querySelectorAll('#line-list .line-text em').length;
            return ems ? [ems, texts.some(t => t.textContent.includes('\\n')), texts.some(t => /(^|\\s)[_*]\\w+[_*]/.test(t.textContent))] : null;""")
        check(prose[0] > 0 and not prose[1] and not prose[2], f"line text reads as prose: {prose[0]} italic word(s), no raw newlines or underscores")

        # Scrolling to the end brings the last lines, fetched on demand.
        browser.js("const list = document.querySelector('#line-list'); list.scrollTop = list.scrollHeight")
        browser.wait_for("the last line", f"return document.querySelector('#line-{total - 1}:not(.loading) .line-text')", timeout=60)
        check(True, f"scrolled to the end: line {total - 1} is shown")
        browser.js("document.querySelector('#line-list').scrollTop = 0")

        # Chapters: listed, played from, shown in the player bar.
        chapters = browser.wait_for("the chapters", """
            const items = [...document.querySelectorAll('#chapter-list button.chapter')];
            return !document.querySelector('#chapters').hidden && items.length > 1 ? items.length : null""", timeout=120)
        check(chapters >= 10, f"{chapters} chapters listed")
        browser.js("document.querySelector('#chapters').open = true")
        browser.screenshot("novel-2-chapters")
        chapter = chapters - 2  # far from the start: not rendered yet
        target, title = browser.js(f"""
            const button = document.querySelectorAll('#chapter-list button.chapter')[{chapter}];
            return [Number(button.getAttribute('aria-label').match(/from line ([\\d,]+)/)[1].replace(/,/g, '')) - 1,
                    button.querySelector('.chapter-title').textContent]""")
        browser.js("performance.clearMarks(); window.seen = []; new MutationObserver(() => seen.push(document.querySelector('#play').textContent))"
                   ".observe(document.querySelector('#play'), {childList: true, characterData: true, subtree: true})")
        started = time.time()
        browser.click(f"#chapter-list li:nth-child({chapter + 1}) button.chapter")
        browser.wait_for(f"{title} to play", f"""
            return performance.getEntriesByName('storyvoice:audio-playing').some(m => m.detail.line === {target})""", timeout=120)
        jump = browser.js(f"""
            const pressed = performance.getEntriesByName('storyvoice:play-pressed')[0]?.startTime;
            const playing = performance.getEntriesByName('storyvoice:audio-playing').find(m => m.detail.line === {target}).startTime;
            return pressed === undefined ? null : playing - pressed""")
        seen = browser.js("return seen")
        print(f"jump to an unrendered chapter start: {jump if jump is not None else (time.time() - started) * 1000:.0f} ms to audio; play button said {seen}")
        check("Preparing…" in seen or seen[:1] == ["❚❚ Pause"], f"while its audio was prepared the player said so, not Pause ({seen[:3]})")
        bar = browser.js("return [document.querySelector('#now-chapter').textContent, document.querySelector('#position').textContent, document.querySelector('#now-text').textContent]")
        check(bar[0] == title and bar[1].startswith(f"line {target + 1:,} of") and bar[2],
              f"the player bar shows the chapter '{bar[0]}', '{bar[1]}' and the line's text")
        check(current_line(browser) == target, f"the list shows line {target} as current")
        browser.screenshot("novel-3-playing-chapter")

        # Keyboard: → next line, ← back, Shift+→ next chapter, Shift+← back to the chapter start.
        browser.js("document.querySelector('#play').click()")  # pause
        browser.wait_for("the pause", "return document.querySelector('#play').getAttribute('aria-pressed') === 'false'")
        browser.js("document.querySelector('#main').focus()")
        browser.keys("\ue014")  # ArrowRight
        browser.wait_for("→ to move a line on", f"return document.querySelector('#line-list .current')?.id === 'line-{target + 1}'")
        browser.keys("\ue012")  # ArrowLeft
        browser.wait_for("← to move a line back", f"return document.querySelector('#line-list .current')?.id === 'line-{target}'")
        next_first = browser.js(f"return Number(document.querySelectorAll('#chapter-list button.chapter')[{chapter + 1}].getAttribute('aria-label').match(/from line ([\\d,]+)/)[1].replace(/,/g, '')) - 1")
        browser.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": "\ue008"}, {"type": "keyDown", "value": "\ue014"},
            {"type": "keyUp", "value": "\ue014"}, {"type": "keyUp", "value": "\ue008"}]}]})
        browser.s("DELETE", "/actions")
        browser.wait_for("Shift+→ to the next chapter", f"return document.querySelector('#line-list .current')?.id === 'line-{next_first}'")
        check(True, f"←/→ move by a line, Shift+→ to the next chapter (line {next_first})")
        browser.click("#prev-chapter")
        browser.wait_for("⏮ to the chapter before", f"return document.querySelector('#line-list .current')?.id === 'line-{target}'")
        check(browser.js("return document.querySelector('#now-chapter').textContent") == title, "the previous-chapter button goes back to it")

        # Continuous playback: the gaps between lines beyond their planned pauses.
        browser.js("""
            window.gaps = []; window.lineEnds = null;
            const play = HTMLMediaElement.prototype.play;
            if (!window.watching) { window.watching = true; HTMLMediaElement.prototype.play = function () {
                if (!this.watched) { this.watched = true;
                    this.addEventListener('ended', () => { lineEnds = performance.now(); });
                    this.addEventListener('playing', () => { if (lineEnds !== null) gaps.push(performance.now() - lineEnds); lineEnds = null; }); }
                return play.call(this); }; }
            document.querySelector('#play').click();""")
        gaps = browser.wait_for("eight lines played in a row", "return gaps.length >= 8 ? gaps : null", timeout=240)
        browser.js("document.querySelector('#play').click()")
        print(f"gaps between lines (pause included): median {sorted(gaps)[len(gaps) // 2]:.0f} ms, longest {max(gaps):.0f} ms over {len(gaps)} lines")

        # The filter by speaker: only that speaker's lines, all of them once loaded.
        speaker = browser.js("""
            const filter = document.querySelector('#line-filter');
            const option = [...filter.options].find(o => o.textContent === 'Margaret Hale') ?? filter.options[2];
            filter.value = option.value; filter.dispatchEvent(new Event('change'));
            return option.value""")
        shown = browser.wait_for("the filtered lines", f"""
            const status = document.querySelector('#line-filter-status').textContent;
            const rows = [...document.querySelectorAll('#line-list .line')];
            return rows.length && !status.includes('so far') && rows.every(r => r.dataset.speaker === {json.dumps(speaker)}) ? status : null""", timeout=120)
        check(True, f"the filter shows one speaker's lines: {shown}")
        browser.js("const filter = document.querySelector('#line-filter'); filter.value = ''; filter.dispatchEvent(new Event('change'))")

        # Changing a line's speaker: the control is made when asked for.
        check(browser.js("return document.querySelectorAll('#line-list select').length") == 0, "no per-line speaker controls until asked for")
        # (Back to everyone, the list returns to the current line; a dialogue row near it.)
        line = browser.wait_for("a dialogue row by the current line", """
            return document.querySelector('#line-list .current') && document.querySelector('#line-list .current ~ .line.dialogue')?.id""")
        browser.js(f"document.querySelector('#{line}').scrollIntoView({{block: 'center'}})")  # not under the sticky player
        browser.click(f"#{line} .speaker")
        other = browser.wait_for("the speaker control", f"""
            const select = document.querySelector('#{line} select');
            if (!select || document.activeElement !== select) return null;
            const other = [...select.options].find(o => o.value && o.value !== select.value);
            select.value = other.value; select.dispatchEvent(new Event('change'));
            return other.textContent""")
        browser.wait_for(f"{line} to be {other}'s", f"return document.querySelector('#{line} .speaker')?.textContent === {json.dumps(other)}")
        check(True, f"{line} is now {other}'s")

        # Dark mode, and a phone.
        browser.js("document.querySelector('#line-list .current')?.scrollIntoView({block: 'center'})")
        browser.s("POST", "/goog/cdp/execute", {"cmd": "Emulation.setEmulatedMedia", "params": {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}})
        browser.js("window.scrollTo(0, 0)")
        browser.screenshot("novel-4-dark")
        browser.s("POST", "/goog/cdp/execute", {"cmd": "Emulation.setEmulatedMedia", "params": {"features": []}})
        browser.s("POST", "/window/rect", {"width": 390, "height": 844})
        browser.wait_for("the phone-sized viewport", "return innerWidth <= 400")
        browser.js("document.querySelector('#lines').scrollIntoView()")
        browser.screenshot("novel-5-phone")
        wide = browser.js("return document.scrollingElement.scrollWidth <= innerWidth")
        check(wide, "the novel's page fits a phone screen")
        check_page_errors(browser)
    except Exception:
        try:
            browser.screenshot("failure-novel")
        except Exception:
            pass
        raise
    finally:
        browser.quit()
