"""A real book on the story page (issue 24): a novel from ../shared/eval/pdnc-dev beside the
repository (The Gambler; the generated novel of novel_flow.py when that folder is missing), and
an EPUB this test builds from it (a title page, a copyright page and a navigation document that
must not be read aloud, one XHTML per chapter).

Uploaded through the library's file input as a reader would: the analysis starts by itself. Prints
how soon the page is usable (after the upload, and after a navigation; only a generous bound, 10 s,
is asserted), checks the chapters against the server's /chapters and plays one from its first line,
plays 50 lines in a row at 3× once their audio is rendered and checks with the player's events
that it never waited between them (printing the gaps beyond the planned pauses), checks the time
position in the player bar, prints the latency of a jump to a far line not rendered yet and of a
model that cannot be reached, and signs out with the novel playing: nothing of it stays.
Screenshots go to the artifacts folder as book-*.png.
"""
import html
import json
import os
import re
import statistics
import time
import uuid
import zipfile

from browser_test import Browser, check, check_page_errors, register

BOOK = "TheGambler"
LINES_IN_A_ROW = 50
SPEED = "3"


def pdnc_folder():
    """`<repository>/../shared/eval/pdnc-dev`, found from this file's path (clones included)."""
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(os.path.dirname(repository), "shared", "eval", "pdnc-dev")


def the_novel(artifacts):
    """(path, title, author) of the novel to test with."""
    path = os.path.join(pdnc_folder(), BOOK, "novel_text.txt")
    if os.path.isfile(path):
        return path, "The Gambler", "Fyodor Dostoyevsky"
    print(f"skipped: pdnc-dev not found ({pdnc_folder()}); the book flow uses the generated novel instead")
    from novel_flow import novel_text
    path = os.path.join(os.path.abspath(artifacts), "a-northern-story-book.txt")
    with open(path, "w", encoding="utf-8") as file:
        file.write(novel_text())
    return path, "A Northern Story", "Anonymous"


HEADING = re.compile(r"^(?:CHAPTER\s+)?([IVXLC]+)\.?[ \t]*$", re.MULTILINE)


def split_chapters(text):
    """The front matter (before the first chapter heading) and [(title, body)] per chapter, from
    headings on a line of their own ("XVII", "CHAPTER IV.")."""
    headings = [match for match in HEADING.finditer(text) if match.start() == 0 or text[match.start() - 1] == "\n"]
    front = text[:headings[0].start()] if headings else ""
    chapters = []
    for number, match in enumerate(headings):
        end = headings[number + 1].start() if number + 1 < len(headings) else len(text)
        chapters.append((f"Chapter {match.group(1)}", text[match.end():end]))
    return front, chapters


def first_paragraph(text):
    """The first paragraph of `text`, hard wraps joined."""
    return " ".join(re.split(r"\n\s*\n", text.strip())[0].split())


def paragraphs(text):
    """Blank-line paragraphs, hard wraps joined, as escaped <p>s."""
    found = [" ".join(part.split()) for part in re.split(r"\n\s*\n", text)]
    return "\n".join(f"<p>{html.escape(part)}</p>" for part in found if part)


def xhtml(title, body, body_type=None):
    typed = f' epub:type="{body_type}"' if body_type else ""
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
            f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\n'
            f"<head><title>{html.escape(title)}</title></head>\n<body{typed}>\n{body}\n</body>\n</html>\n")


def build_epub(path, title, author, front, chapters):
    """An EPUB 3 as publishers make them: a title page, a navigation document (in the spine, as
    many books have it) listing the title page and every chapter, a copyright page, then one
    XHTML per chapter."""
    files = {
        "title.xhtml": xhtml("Title Page", f'<section epub:type="titlepage">\n<h1>{html.escape(title)}</h1>\n'
                                           f"{paragraphs(front)}\n</section>", "frontmatter"),
        "copyright.xhtml": xhtml("Copyright", '<section epub:type="copyright-page">\n<p>This ebook was made by the '
                                 "StoryVoice browser test from a public-domain text.</p>\n<p>Copyright: none.</p>\n</section>", "frontmatter"),
    }
    names = []
    for number, (chapter, body) in enumerate(chapters, start=1):
        name = f"chapter-{number:03}.xhtml"
        names.append(name)
        files[name] = xhtml(chapter, f'<section epub:type="chapter">\n<h2>{html.escape(chapter)}</h2>\n{paragraphs(body)}\n</section>', "bodymatter")
    toc = "\n".join([f'<li><a href="title.xhtml">Title Page</a></li>', '<li><a href="nav.xhtml">Table of Contents</a></li>']
                    + [f'<li><a href="{name}">{html.escape(chapter)}</a></li>' for name, (chapter, _) in zip(names, chapters)]
                    + ['<li><a href="copyright.xhtml">Copyright</a></li>'])
    files["nav.xhtml"] = xhtml("Table of Contents", f'<nav epub:type="toc" id="toc">\n<h1>Table of Contents</h1>\n<ol>\n{toc}\n</ol>\n</nav>\n'
                               '<nav epub:type="landmarks" hidden="">\n<ol>\n<li><a epub:type="titlepage" href="title.xhtml">Title Page</a></li>\n'
                               f'<li><a epub:type="bodymatter" href="{names[0]}">Start</a></li>\n</ol>\n</nav>')
    spine_order = ["title.xhtml", "nav.xhtml", "copyright.xhtml", *names]
    nav = ' properties="nav"'
    manifest = "\n".join(f'<item id="item-{index}" href="{name}" media-type="application/xhtml+xml"{nav if name == "nav.xhtml" else ""}/>'
                         for index, name in enumerate(spine_order))
    spine = "\n".join(f'<itemref idref="item-{index}"/>' for index, _ in enumerate(spine_order))
    opf = (f'<?xml version="1.0" encoding="utf-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\n'
           f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n<dc:identifier id="id">urn:uuid:{uuid.uuid4()}</dc:identifier>\n'
           f"<dc:title>{html.escape(title)}</dc:title>\n<dc:creator>{html.escape(author)}</dc:creator>\n<dc:language>en</dc:language>\n"
           f'<meta property="dcterms:modified">2026-11-26T00:00:00Z</meta>\n</metadata>\n'
           f"<manifest>\n{manifest}\n</manifest>\n<spine>\n{spine}\n</spine>\n</package>\n")
    container = ('<?xml version="1.0" encoding="utf-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
                 '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n')
    with zipfile.ZipFile(path, "w") as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)  # first, stored
        book.writestr("META-INF/container.xml", container, compress_type=zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/content.opf", opf, compress_type=zipfile.ZIP_DEFLATED)
        for name, content in files.items():
            book.writestr(f"OEBPS/{name}", content, compress_type=zipfile.ZIP_DEFLATED)


def upload(browser, path, title):
    """Uploads `path` from the library's file input, as a reader would, and waits (the analysis
    starts by itself) until the story page is usable; answers the seconds that took."""
    browser.js("performance.clearMarks()")
    browser.type("#upload-form [name=file]", path)
    started = time.time()
    browser.click("#upload-form button[type=submit]")
    browser.wait_for(f"{os.path.basename(path)}'s page, analysed", f"""
        return document.querySelector('#story-title')?.textContent.includes({json.dumps(title)})
            && document.querySelector('#line-list .line:not(.loading) .line-text')
            && document.querySelector('#play')?.checkVisibility() && !document.querySelector('#play').disabled
            && performance.getEntriesByName('storyvoice:story-interactive').length > 0""", timeout=300)
    return time.time() - started


def story_id(browser):
    return browser.js("return location.hash.split('/')[2]")


def chapter_titles(browser, expected):
    """The chapter list's titles once it shows `expected` of them."""
    return browser.wait_for(f"{expected} chapters listed", f"""
        const titles = [...document.querySelectorAll('#chapter-list button.chapter .chapter-title')].map(t => t.textContent);
        return !document.querySelector('#chapters').hidden && titles.length === {expected} ? titles : null""", timeout=120)


def playing_marks(browser, line):
    """How long after the test's mark `test:go` line `line`'s audio started playing (ms)."""
    return browser.js(f"""
        const go = performance.getEntriesByName('test:go').at(-1).startTime;
        const playing = performance.getEntriesByName('storyvoice:audio-playing').find(m => m.detail.line === {line} && m.startTime >= go);
        return playing.startTime - go""")


def pause(browser):
    browser.js("if (document.querySelector('#play').getAttribute('aria-pressed') === 'true') document.querySelector('#play').click()")
    browser.wait_for("the pause", "return document.querySelector('#play').getAttribute('aria-pressed') === 'false'")


def seconds(clock):
    """Seconds in "4:05" or "1:02:05" (a leading minus sign ignored)."""
    value = 0
    for part in clock.lstrip("−-").split(":"):
        value = value * 60 + int(part)
    return value


def chapters_flow(browser, built):
    """The chapters: listed as the server has them, as many as the book has; one plays from its
    first line. Answers the server's chapters."""
    chapters = browser.js(f"return fetch('/api/stories/{story_id(browser)}/chapters').then(r => r.json()).then(j => j.chapters)")
    titles = chapter_titles(browser, len(chapters))
    check(titles == [chapter["title"] for chapter in chapters] and len(chapters) == len(built),
          f"the page lists the server's {len(chapters)} chapters, as many as the book has ({len(built)}): {titles[:3]}…")
    browser.click("#chapters summary")
    browser.wait_for("the open chapter list", "return document.querySelector('#chapters').open")
    chapter = chapters[2]
    browser.js("performance.mark('test:go')")
    browser.click(f"#chapter-list li:nth-child(3) button.chapter")
    browser.wait_for(f"{chapter['title']} to play", f"""
        return performance.getEntriesByName('storyvoice:audio-playing').some(m => m.detail.line === {chapter['first_line']})""", timeout=120)
    first = browser.js("""
        const go = performance.getEntriesByName('test:go').at(-1).startTime;
        return performance.getEntriesByName('storyvoice:audio-playing').find(m => m.startTime >= go).detail.line""")
    latency = playing_marks(browser, chapter["first_line"])
    where = browser.js("return [document.querySelector('#now-chapter').textContent, document.querySelector('#position').textContent]")
    check(first == chapter["first_line"] and where[0] == chapter["title"] and where[1].startswith(f"line {chapter['first_line'] + 1:,} of"),
          f"playing {chapter['title']} starts at its first line, {chapter['first_line']} ({where[1]}; {latency:.0f} ms from the click to its audio)")
    browser.screenshot("book-2-chapter")
    pause(browser)
    browser.js("document.querySelector('#chapters').open = false")
    return chapters


def far_jump_flow(browser, total):
    """A click on a line far away, not rendered yet: prints how soon its audio plays."""
    far = None
    for fraction in (0.8, 0.9, 0.7, 0.6):  # (another story on this server may share audio with this one)
        browser.js(f"const list = document.querySelector('#line-list'); list.scrollTop = list.scrollHeight * {fraction}")
        rows = browser.wait_for("rows far down the list", """
            const list = document.querySelector('#line-list'), frame = list.getBoundingClientRect();
            const rows = [...list.querySelectorAll('.line:not(.loading)')].filter(row => {
                const box = row.getBoundingClientRect(); return box.top >= frame.top + 40 && box.bottom <= frame.bottom - 40; });
            return rows.length ? rows.map(row => Number(row.id.split('-')[1])) : null""", timeout=60)
        cached = browser.js(f"""return fetch('/api/stories/{story_id(browser)}/segments?from={rows[0]}&count={rows[-1] - rows[0] + 1}')
            .then(r => r.json()).then(j => j.segments.filter(s => s.cached).map(s => s.index))""")
        far = next((row for row in rows if row not in cached), None)
        if far is not None:
            break
    check(far is not None and far > total // 2, f"line {far} of {total:,}, far from what played, is not rendered yet")
    browser.js(f"document.querySelector('#line-{far}').scrollIntoView({{block: 'center'}}); performance.mark('test:go')")
    browser.click(f"#line-{far} .line-text")
    browser.wait_for(f"line {far} to play", f"return performance.getEntriesByName('storyvoice:audio-playing').some(m => m.detail.line === {far})", timeout=120)
    latency = playing_marks(browser, far)
    print(f"jump to a far line not rendered yet (line {far}): {latency:.0f} ms from the click to its audio playing (issue 24: 2 s on an idle machine)")
    pause(browser)


def continuous_flow(browser, options):
    """50 lines in a row at 3×, once their audio is rendered: the player never waits between them,
    the highlight goes through every one, and the time position moves. Prints the gaps."""
    story = story_id(browser)
    lines = browser.js(f"return fetch('/api/stories/{story}/segments').then(r => r.json()).then(j => j.segments.map(s => [s.text.length, s.pause_before]))")
    # The 50 shortest lines in a row (dialogue), so the run is short.
    sums = [sum(length for length, _ in lines[start:start + LINES_IN_A_ROW]) for start in range(len(lines) - LINES_IN_A_ROW)]
    first = sums.index(min(sums))
    last = first + LINES_IN_A_ROW - 1
    rendered = browser.js(f"""
        const started = performance.now();
        const lines = Array.from({{length: {LINES_IN_A_ROW}}}, (_, n) => {first} + n);
        const render = async () => {{ while (lines.length) {{
            const response = await fetch(`/api/stories/{story}/segments/${{lines.shift()}}/audio`);
            if (!response.ok) throw new Error(`audio: ${{response.status}}`);
            await response.arrayBuffer(); }} }};
        return Promise.all([render(), render()]).then(() => performance.now() - started)""")
    print(f"rendered lines {first}–{last} ({min(sums):,} characters) through the API first: {rendered / 1000:.1f} s")

    # The reader left off at the first of them: the page resumes there, at the speed they chose.
    browser.js(f"const speed = document.querySelector('#speed'); speed.value = {json.dumps(SPEED)}; speed.dispatchEvent(new Event('change'))")
    browser.js(f"localStorage.setItem('storyvoice:position:{story}', '{first}'); location.reload()")
    browser.wait_for("the page to resume there", f"""
        return document.querySelector('#line-list .current')?.id === 'line-{first}' && !document.querySelector('#play').disabled
            && performance.getEntriesByName('storyvoice:story-interactive').length > 0""", timeout=120)
    check(browser.js("return document.querySelector('#speed').value") == SPEED, f"the speed ({SPEED}×) is remembered after a reload")
    browser.js("""
        performance.clearMarks();
        const list = document.querySelector('#line-list');
        window.book = { current: [list.querySelector('.current')?.id], times: [] };
        new MutationObserver(() => {
            const id = list.querySelector('.current')?.id;
            if (id && book.current.at(-1) !== id) book.current.push(id);
        }).observe(list, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
        new PerformanceObserver((entries) => {
            for (const mark of entries.getEntries()) if (mark.name === 'storyvoice:audio-playing') book.times.push([mark.detail.line,
                document.querySelector('#now-chapter').textContent, document.querySelector('#time-elapsed').textContent,
                document.querySelector('#time-remaining').textContent, document.querySelector('#time-book').textContent]);
        }).observe({ type: 'mark' });
        window.rates = new Set();
        const play = HTMLMediaElement.prototype.play;
        HTMLMediaElement.prototype.play = function () { rates.add(this.playbackRate); return play.call(this); };
        document.querySelector('#play').click();""")
    ended = browser.wait_for(f"{LINES_IN_A_ROW} lines played", f"""
        const problem = document.querySelector('#player-status').textContent;
        if (problem) return `error: ${{problem}}`;
        return performance.getEntriesByName('storyvoice:audio-ended').some(m => m.detail.line === {last}) && 'played'""", timeout=600)
    pause(browser)
    check(ended == "played", f"lines {first}–{last} played to the end ({ended})")
    marks = browser.js("""return ['storyvoice:audio-playing', 'storyvoice:audio-ended', 'storyvoice:waiting'].map(name =>
        performance.getEntriesByName(name).map(m => [m.detail.line, m.startTime]))""")
    playing, ended, waited = ({line: at for line, at in kind} for kind in marks)
    waits = sorted(line for line in waited if first < line <= last)
    check(not waits, f"the player never waited for audio between lines {first} and {last} (waited before {waits})")
    current = browser.js("return book.current")
    run = [f"line-{line}" for line in range(first, last + 1)]
    at = current.index(run[0]) if run[0] in current else -1
    check(at >= 0 and current[at:at + len(run)] == run, f"the highlight went through lines {first}–{last} in order ({current[:3]}…{current[-3:]} of {len(current)})")
    check(browser.js("return [...rates]") == [float(SPEED)], f"they played at {SPEED}× ({browser.js('return [...rates]')})")
    speed = float(SPEED)
    gaps = [playing[line] - ended[line - 1] - lines[line][1] * 1000 / speed for line in range(first + 1, last + 1)]
    print(f"gaps between lines beyond the planned pauses at {SPEED}× over {len(gaps)} lines: median {statistics.median(gaps):.0f} ms, "
          f"longest {max(gaps):.0f} ms")

    # The time position: there, and moving as the lines play.
    times = browser.js("return book.times")
    start, end = times[0], times[-1]
    print(f"time position: {start[2]} / {start[3]} ({start[4]}) at line {start[0]}; {end[2]} / {end[3]} ({end[4]}) at line {end[0]}")
    moved = seconds(end[2]) > seconds(start[2]) if start[1] == end[1] else end[2] != start[2]
    check(all(re.fullmatch(r"\d+(:\d\d){1,2}", t[2]) and re.fullmatch(r"−\d+(:\d\d){1,2}", t[3]) and re.fullmatch(r"Book: .+ left( at [\d.]+×)?", t[4]) for t in times)
          and moved and end[3] != start[3], "the player bar shows the time elapsed and left, and it moves as lines play")
    browser.screenshot("book-3-continuous")
    return first


def epub_flow(browser, options, path, title, author, front, built):
    """The EPUB built from the same novel: its title page, copyright page and table of contents
    are not read aloud; its chapters are the ones built."""
    epub = os.path.join(os.path.abspath(options.artifacts), "book.epub")
    build_epub(epub, title, author, front, built)
    browser.go(options.app + "/#/stories")
    browser.wait_for("the library", "return document.querySelector('#library')?.checkVisibility() && document.querySelector('#story-list .card')")
    took = upload(browser, epub, title)
    print(f"EPUB ({os.path.getsize(epub) // 1024} KB, {len(built)} chapters) uploaded and analysed: page usable {took:.1f} s after Upload")
    check(browser.js("return document.querySelector('#speed').value") == SPEED, f"a new story plays at the speed chosen before ({SPEED}×)")
    opening = browser.wait_for("the first lines", """
        const texts = [0, 1, 2, 3, 4, 5].map(n => document.querySelector(`#line-${n}:not(.loading) .line-text`)?.textContent);
        return texts.every(Boolean) ? texts : null""", timeout=60)
    story_start = first_paragraph(built[0][1])[:40]
    apparatus = [text for text in opening if re.search(r"Title Page|Table of Contents|Copyright|public-domain|Translated by", text)
                 or sum(name in text for name, _ in built) > 1]
    check(not apparatus and any(text.startswith(story_start[:30]) for text in opening[:3]),
          f"the EPUB's narration starts with the story ({opening[0]!r}, {opening[1][:40]!r}…), not its title page, contents or copyright")
    titles = chapter_titles(browser, len(built))
    expected = [name for name, _ in built]
    # The contents' entries for the title page, the contents and the copyright page name no chapter.
    check(titles == expected, f"the EPUB's chapters are the {len(built)} built: {titles[:2]}…{titles[-1]}")
    browser.screenshot("book-4-epub")


def sign_out_flow(browser, options, novel_url, words):
    """Signing out with the novel playing: no sound, no requests, nothing on screen; the next
    reader cannot open it."""
    browser.go(novel_url)
    browser.wait_for("the novel's page", "return document.querySelector('#line-list .line:not(.loading)') && !document.querySelector('#play').disabled", timeout=120)
    browser.js("""
        window.mediaPlayed = new Set();
        const play = HTMLMediaElement.prototype.play;
        HTMLMediaElement.prototype.play = function () { mediaPlayed.add(this); return play.call(this); };
        performance.clearMarks();
        document.querySelector('#play').click();""")
    browser.wait_for("the novel to play", "return performance.getEntriesByName('storyvoice:audio-playing').length > 0", timeout=120)
    story = story_id(browser)
    browser.js("performance.clearResourceTimings()")
    browser.click("#logout")
    browser.wait_for("the sign-in form", "return document.querySelector('#auth-form [name=email]')?.checkVisibility()")
    browser.js("performance.mark('test:signed-out')")
    time.sleep(1.5)  # an observation window: nothing of the story may be asked for after sign-out
    after = browser.js(f"""
        const out = performance.getEntriesByName('test:signed-out')[0].startTime;
        return performance.getEntriesByType('resource').filter(r => r.startTime > out && r.name.includes('{story}')).map(r => r.name)""")
    sounding = browser.js("return [...mediaPlayed].filter(a => !a.paused || a.getAttribute('src')).length")
    text = browser.js("return document.body.innerText + document.title")
    left = [word for word in words if word in text]
    check(not after and not sounding and not left, f"signing out with the novel playing leaves no sound, no requests and nothing on screen {after[:2]} {left}")
    register(browser, f"book-next-{uuid.uuid4().hex[:8]}@example.com")
    browser.go(novel_url)
    problem = browser.wait_for("the first reader's novel to be refused", """
        const alert = document.querySelector('main [role=alert]');
        return alert && alert.textContent ? document.querySelector('main h2').textContent : null;""")
    text = browser.js("return document.body.innerText + document.title")
    check(problem == "Story not found" and not [word for word in words if word in text], "the next reader on the tab cannot open the novel, nor see any of it")


def book_flow(options):
    from cast_flow import unreachable_flow
    from novel_flow import interactive_after_navigation, line_count, new_reader_in_library
    began = time.time()
    path, title, author = the_novel(options.artifacts)
    with open(path, encoding="utf-8") as file:
        text = file.read()
    front, built = split_chapters(text)
    browser = Browser(options.driver, options.artifacts)
    try:
        new_reader_in_library(browser, options, "book")
        took = upload(browser, path, title)
        total = line_count(browser)
        print(f"{title} ({len(text):,} characters, {total:,} lines): page usable {took:.1f} s after Upload (upload and analysis included)")
        check(True, f"uploaded {os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))} from the file input; the analysis started by itself")
        novel_url = browser.js("return location.href")
        timings = interactive_after_navigation(browser, title)
        print(f"{title}: page interactive {min(timings):.0f} ms after navigation (runs: {', '.join(f'{t:.0f}' for t in timings)} ms)")
        # (Issue 24 asks for a second on an idle machine; this runs on a loaded one.)
        check(min(timings) < 10000, f"{title}'s page is interactive in {min(timings):.0f} ms (bound 10 s)")
        browser.screenshot("book-1-page")

        chapters_flow(browser, built)
        far_jump_flow(browser, total)
        continuous_flow(browser, options)

        # A model that cannot be reached, on the novel: shown at once (cast_flow.py).
        unreachable_flow(browser, where=title, shot="book-unreachable-provider")
        browser.js("const p = document.querySelector('#model-provider'); p.value = ''; p.dispatchEvent(new Event('change'));")

        epub_flow(browser, options, path, title, author, front, built)
        check_page_errors(browser)
        sign_out_flow(browser, options, novel_url, [title, first_paragraph(built[0][1])[:30], first_paragraph(built[1][1])[:30]])
        check_page_errors(browser)
        print(f"book flow: {time.time() - began:.0f} s")
    except Exception:
        try:
            browser.screenshot("failure-book")
        except Exception:
            pass
        raise
    finally:
        browser.quit()
