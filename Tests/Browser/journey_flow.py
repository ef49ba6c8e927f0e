"""Journeys in the web app (issue 22), in real headless Chromium against a real server.

Signs up, opens Journeys from the header, sees an unknown destination refused at the destination
field with everything typed kept and a walk of over four hours refused at the travel mode, fills
the start from "Use my location" (the browser's position set through the DevTools protocol),
plans a short walk between two "lat,lon" points about 130 m apart (the offline estimate: a
couple of one-minute parts) and checks the route drawn as an SVG and the parts count, then
presses "Tell me a story". The player starts by itself: the test waits
(the model on the machine is slow: minutes, not seconds) until part 1's first sentence has played,
with its sentence highlighted and the marker on the route, and until part 2 shows as ready.
It checks that the playhead reached the server, pause and play, the speed (pitch kept), the
media session, the download of the parts told so far (an M4B with chapters, checked by ffprobe),
that leaving the player stops its polling and its sound, the history (the journey listed; opening
it resumes at the stored playhead) and Delete. Prints the time from "Tell me a story" to the
first audio. Screenshots go to the artifacts folder as journey-*.png.

Run alone: python3 Tests/Browser/journey_flow.py --app URL --driver URL --artifacts DIR
"""
import argparse
import json
import re
import subprocess
import time
import urllib.request
import uuid

from browser_test import Browser, check, check_page_errors, register
from design_flow import check_accessible

LONG_WAIT = 1200  # the model on a loaded two-core machine writes a part in minutes
START, END = "51.7520,-1.2577", "51.7532,-1.2577"  # about 130 m apart, north–south, in Oxford


def server_json(browser, url):
    """A GET with the browser's session cookies, as the page would send it."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.s("GET", "/cookie"))
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookies}), timeout=60) as response:
        return json.loads(response.read())


def cdp(browser, command, params):
    """A DevTools protocol command through ChromeDriver (None when the driver cannot)."""
    try:
        return browser.s("POST", "/goog/cdp/execute", {"cmd": command, "params": params})
    except RuntimeError as error:
        print(f"  (DevTools {command} refused: {str(error)[:120]})")
        return None


def plan_walk(browser, start, end):
    """Fills the form with a walk from `start` to `end` and presses Plan."""
    browser.on_element("#journey-start", "clear", {})
    browser.type("#journey-start", start)
    browser.on_element("#journey-end", "clear", {})
    browser.type("#journey-end", end)
    browser.click('#journey-mode input[value="walking"]')
    browser.click("#journey-plan-start")


def journey_flow(options):
    browser = Browser(options.driver, options.artifacts)
    try:
        browser.go(options.app + "/")
        register(browser, f"journey-{uuid.uuid4().hex[:8]}@example.com")
        browser.js("performance.setResourceTimingBufferSize(100000)")
        check(browser.js("return [...document.querySelectorAll('#home .area a')].some(a => a.textContent === 'Journeys')"),
              "the home page offers Journeys")
        browser.click('#nav-areas a[data-area="journeys"]')
        browser.wait_for("the planner", "return document.querySelector('#journey-form')?.checkVisibility() && document.querySelector('#journey-style option')")
        check(browser.js("return document.title") == "Journeys · StoryVoice", "the planner's title")
        browser.wait_for("the empty history", "return !document.querySelector('#journey-history-empty').hidden")
        labels = browser.js("""return ['#journey-start', '#journey-end', '#journey-style', '#journey-voice', '#journey-model']
            .map(s => document.querySelector(s).labels?.[0]?.textContent.trim())""")
        check(all(labels), f"every input has a label ({labels})")

        # An unknown destination: the server's words at the destination, what was typed kept.
        browser.type("#journey-start", START)
        browser.type("#journey-end", "Qxzwvillebury Nowhere")
        browser.click("#journey-plan-start")
        refused = browser.wait_for("the unknown place refused at its field", """
            const line = document.querySelector('#journey-end-error');
            return line.textContent && document.querySelector('#journey-end').getAttribute('aria-invalid') === 'true' ? line.textContent : null""", timeout=120)
        kept = browser.js("return [document.querySelector('#journey-start').value, document.querySelector('#journey-end').value]")
        check(kept == [START, "Qxzwvillebury Nowhere"] and not browser.js("return document.querySelector('#journey-start-error').textContent"),
              f"an unknown destination is refused at the destination field, with what was typed kept ({refused[:70]!r})")

        # A trip over four hours: refused at the travel mode.
        plan_walk(browser, "Oxford, UK", "Cambridge, UK")
        too_long = browser.wait_for("the long walk refused at the mode", """
            const line = document.querySelector('#journey-mode-error');
            return line.textContent && document.querySelector('#journey-mode').getAttribute('aria-invalid') === 'true'
                && !document.querySelector('#journey-end-error').textContent ? line.textContent : null""", timeout=120)
        check("4 h" in too_long and browser.js("return document.querySelector('#journey-plan').hidden"),
              f"a trip over four hours is refused at the travel mode, in the server's words ({too_long[:60]!r}…)")

        # The places used are shown in full, and a name several places share offers the others
        # (issue 51): Abingdon is the English town, with Abingdon, Virginia, one press away.
        plan_walk(browser, "Oxford, UK", "Abingdon")
        places = browser.wait_for("the places used", """
            const plan = document.querySelector('#journey-plan');
            const labels = [...document.querySelectorAll('#journey-places .journey-place-label')].map(label => label.textContent);
            return !plan.hidden && labels.length === 2 && labels[1].startsWith('Abingdon') ? labels : null""", timeout=120)
        check(places == ["Oxford, England, United Kingdom", "Abingdon, England, United Kingdom"], f"the plan says which places it used: {places}")
        towns = browser.js("return [...document.querySelectorAll('#journey-route .route-town-label')].map(t => t.textContent)")
        check(towns and "Oxford" not in towns and "Abingdon" not in towns, f"the route's map names the towns along it {towns}")
        offered = browser.js("return [...document.querySelectorAll('#journey-places [data-field=end] .journey-alternatives button')].map(b => b.textContent)")
        check("Abingdon, Virginia, United States" in offered and not browser.js(
            "return document.querySelector('#journey-places [data-field=start] .journey-alternatives')"),
            f"an ambiguous destination offers the other places of that name ({offered}), an unambiguous start none")
        browser.screenshot("journey-0-places")
        browser.js("[...document.querySelectorAll('#journey-places .journey-alternatives button')].find(b => b.textContent === 'Abingdon, Virginia, United States').click()")
        replanned = browser.wait_for("the plan asked again with the place chosen", """
            const line = document.querySelector('#journey-mode-error');
            return document.querySelector('#journey-end').value === 'Abingdon, Virginia, United States' && line.textContent ? line.textContent : null""", timeout=120)
        check("4 h" in replanned, f"choosing another place plans the trip to it (a walk across the Atlantic is refused: {replanned[:60]!r}…)")

        # A suburb below the towns' floor (issue 51: "Headington, UK" was Uk, a village in Russia,
        # then unknown): found among GeoNames' postal localities, a walk of under an hour.
        plan_walk(browser, "Oxford, UK", "Headington, UK")
        suburb = browser.wait_for("the walk to Headington planned", """
            const plan = document.querySelector('#journey-plan');
            const labels = [...document.querySelectorAll('#journey-places .journey-place-label')].map(label => label.textContent);
            return !plan.hidden && labels.length === 2 && labels[1].startsWith('Headington')
                ? {labels, time: document.querySelector('#journey-duration').textContent} : null""", timeout=120)
        check(suburb["labels"] == ["Oxford, England, United Kingdom", "Headington, England, United Kingdom"],
              f"the walk to Headington says which places it used: {suburb['labels']}")
        check(re.fullmatch(r"\d+ min walking", suburb["time"]) is not None, f"Oxford to Headington is a walk of under an hour ({suburb['time']!r})")

        # "Use my location" fills the start from the browser's position.
        browser.on_element("#journey-start", "clear", {})
        if cdp(browser, "Browser.grantPermissions", {"permissions": ["geolocation"], "origin": options.app}) is not None \
                and cdp(browser, "Emulation.setGeolocationOverride", {"latitude": 51.752, "longitude": -1.2577, "accuracy": 12}) is not None:
            browser.click("#journey-locate")
            filled = browser.wait_for("the start from the browser's position", """
                const value = document.querySelector('#journey-start').value;
                return value && document.querySelector('#journey-locate-status').textContent ? value : null""", timeout=30)
            check(filled == "51.75200,-1.25770", f"'Use my location' fills the start with lat,lon ({filled})")
            browser.on_element("#journey-start", "clear", {})
        else:
            print("skipped: 'Use my location' (the driver cannot set the browser's position)")
        browser.type("#journey-start", START)
        browser.on_element("#journey-end", "clear", {})
        browser.type("#journey-end", END)
        browser.click('#journey-mode input[value="walking"]')

        # The plan: the route drawn, distance, time and parts.
        browser.click("#journey-plan-start")
        drawn = browser.wait_for("the plan", """
            const plan = document.querySelector('#journey-plan');
            const svg = plan && !plan.hidden && plan.querySelector('svg.route');
            const line = svg?.querySelector('.route-line');
            if (!line || !line.getAttribute('d') || line.getTotalLength() < 50) return null;
            // (The Abingdon plan above stays shown until this one replaces it.)
            if (!/^\d+ m$/.test(document.querySelector('#journey-distance').textContent)) return null;
            const box = svg.getBoundingClientRect();
            return { parts: Number(document.querySelector('#journey-parts').dataset.parts), text: document.querySelector('#journey-parts').textContent,
                     distance: document.querySelector('#journey-distance').textContent, time: document.querySelector('#journey-duration').textContent,
                     labels: [...svg.querySelectorAll('.route-label')].map(t => t.textContent), length: line.getTotalLength(), width: box.width,
                     markers: svg.querySelectorAll('.route-start, .route-end').length,
                     scale: svg.querySelector('.route-scale-label')?.textContent,
                     scaleLength: svg.querySelector('.route-scale')?.getTotalLength() };""", timeout=120)
        # The route panel has a scale bar: a round distance about a fifth of its width.
        scale_metres = float(re.fullmatch(r"(\d+) m", drawn["scale"] or "").group(1)) if re.fullmatch(r"\d+ m", drawn["scale"] or "") else None
        check(scale_metres in (10, 20, 50, 100, 200) and drawn["scaleLength"],
              f"the route has a scale bar of a round distance ({drawn['scale']!r})")
        check(drawn["markers"] == 2 and len(drawn["labels"]) == 2 and drawn["labels"][0].startswith("Start") and drawn["labels"][1].startswith("End")
              and drawn["width"] > 200, f"the route is drawn as an SVG line {drawn['length']:.0f} units long, start and end marked and labelled")
        check(2 <= drawn["parts"] <= 4 and drawn["text"].startswith(f"{drawn['parts']} parts") and re.fullmatch(r"\d+ m", drawn["distance"])
              and "min" in drawn["time"],
              f"the plan shows {drawn['distance']}, {drawn['time']} and {drawn['text']!r}")
        parts = drawn["parts"]
        browser.screenshot("journey-1-planned")

        # Tell me a story: the player opens and starts by itself.
        browser.click("#journey-tell")
        told_at = time.time()
        journey_id = browser.wait_for("the player", """
            const found = /^#\\/journeys\\/([^/]+)$/.exec(location.hash);
            return found && document.querySelector('#journey-player') ? found[1] : null""", timeout=120)
        browser.js("""
            window.journeySeen = { waiting: false, speaking: false, states: [] };
            const player = document.querySelector('#journey-player');
            const look = () => {
                if (!player.isConnected) return;  // the player has gone (the screen was left)
                const state = player.dataset.state;
                if (journeySeen.states.at(-1) !== state) journeySeen.states.push(state);
                if (state === 'waiting' && /Preparing the next part/.test(document.querySelector('#journey-status').textContent)) journeySeen.waiting = true;
                if (document.querySelector('#journey-text .sentence.speaking[aria-current=true]')) journeySeen.speaking = true;
            };
            look();
            window.journeyObserver = new MutationObserver(look);
            journeyObserver.observe(document.querySelector('#journey'), { subtree: true, childList: true, attributes: true, characterData: true });""")
        check(browser.wait_for("the part list", f"return document.querySelectorAll('#journey-parts li[data-part]').length === {parts}"),
              f"the player lists the {parts} parts")

        browser.wait_for("part 1's first sentence playing or played", """
            const ended = performance.getEntriesByName('storyvoice:journey-sentence-ended').some(e => e.detail.part === 1 && e.detail.sentence === 0);
            const audio = document.querySelector('#journey-audio');
            const playing = audio && audio.dataset.key === '1:0' && audio.currentTime > 0;
            return ended || playing""", timeout=LONG_WAIT)
        first_audio = browser.js("const e = performance.getEntriesByName('storyvoice:journey-sentence-playing')[0]; return e ? e.startTime : null")
        print(f"  first audio {time.time() - told_at:.1f} s after 'Tell me a story' (test-side clock)")
        check(first_audio is not None, "part 1's first sentence plays by itself after 'Tell me a story'")
        browser.wait_for("the sentence highlighted", "return journeySeen.speaking || document.querySelector('#journey-text .sentence.speaking')", timeout=60)
        check(True, "the sentence being spoken is highlighted in the part's text")
        # The journey's spoken title comes first, naming the places used, and stands apart.
        title = browser.wait_for("the journey's spoken title first in part 1", """
            const first = document.querySelector('#journey-text .sentence[data-index="0"]');
            return document.querySelector('#journey-text')?.dataset.part === '1' && first && first.classList.contains('announcement') ? first.textContent : null""", timeout=60)
        check(" walk " in title and not re.search(r"\d+\.\d{3,}", title),
              f"part 1 opens with the journey's spoken title, places in words, no coordinates: “{title}”")
        seen = browser.js("return journeySeen")
        print(f"  player states seen: {seen['states']}; 'Preparing the next part…' shown: {seen['waiting']}")
        marker = browser.wait_for("the progress marker", """
            const marker = document.querySelector('#journey-map .route-progress');
            return marker && marker.getAttribute('visibility') === 'visible' ? [Number(marker.getAttribute('cx')), Number(marker.getAttribute('cy'))] : null""")
        check(marker is not None, f"the progress marker is on the route at {marker}")

        # The playhead reaches the server as sentences start.
        deadline = time.time() + LONG_WAIT
        while True:
            head = server_json(browser, f"{options.app}/api/journeys/{journey_id}")["playhead"]
            if head["part"] > 1 or head["sentence"] >= 1:
                break
            if time.time() > deadline:
                raise AssertionError(f"the server's playhead never moved past part 1's first sentence ({head})")
            time.sleep(1)
        check(True, f"the page sends the playhead as sentences start (the server has {head})")

        # Part 2 becomes ready ahead of the listener.
        browser.wait_for("part 2 ready", """
            const row = document.querySelector('#journey-parts li[data-part="2"]');
            return row && row.dataset.status === 'ready'""", timeout=LONG_WAIT)
        check(True, f"part 2 shows as ready, {time.time() - told_at:.0f} s after 'Tell me a story'")
        browser.screenshot("journey-2-playing")
        check_accessible(browser, options, "the journey player, telling")

        # Speed (pitch kept), pause and play, the media session.
        browser.click('#journey-speed option[value="1.5"]')
        browser.wait_for("the speed", "const a = document.querySelector('#journey-audio'); return a.playbackRate === 1.5 && a.preservesPitch === true")
        check(True, "1.5× speeds the audio up with its pitch kept")
        browser.click("#journey-speed option[value='1']")
        session = browser.js("""const m = navigator.mediaSession?.metadata;
            return m ? [m.title, m.artist, m.album, document.querySelector('#journey-title').textContent] : null""")
        check(session and session[0] == session[3] and session[1] == "StoryVoice" and re.fullmatch(rf"Part \d+ of {parts}", session[2]),
              f"the media session names the story, 'StoryVoice' and the part ({session[:3] if session else None})")
        browser.wait_for("the player playing or preparing", "return ['playing', 'waiting', 'ended'].includes(document.querySelector('#journey-player').dataset.state)", timeout=LONG_WAIT)
        if browser.js("return document.querySelector('#journey-player').dataset.state") != "ended":
            browser.click("#journey-play")
            browser.wait_for("paused", """const a = document.querySelector('#journey-audio');
                return a.paused && ['paused', 'idle'].includes(document.querySelector('#journey-player').dataset.state)
                    && document.querySelector('#journey-play').textContent === 'Play'""")
            browser.click("#journey-play")
            browser.wait_for("playing again", """return ['playing', 'waiting', 'ended'].includes(document.querySelector('#journey-player').dataset.state)""")
            check(True, "Pause stops the audio and Play goes on")

        # Download: an M4B of the parts told so far, a chapter per part.
        browser.click("#journey-export-start")
        link = browser.wait_for("the audiobook", """
            const status = document.querySelector('#journey-export-status');
            if (status.classList.contains('error')) return 'error: ' + status.textContent;
            return document.querySelector('#journey-export-download')?.href""", timeout=LONG_WAIT)
        check(not link.startswith("error"), f"the export finishes and offers the download ({link[:90]})")
        audiobook = f"{options.artifacts}/journey.m4b"
        headers = browser.download(link, audiobook)
        probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_chapters", audiobook],
                                          check=True, capture_output=True, text=True).stdout)
        check(headers.get("Content-Type", "").startswith("audio/mp4") and float(probe["format"]["duration"]) > 1 and len(probe["chapters"]) >= 1,
              f"the download is an MP4 audiobook of {float(probe['format']['duration']):.1f} s with {len(probe['chapters'])} chapter(s)")

        # Leaving the player stops its sound and its polling.
        browser.js("journeyObserver.disconnect()")
        browser.click("#journey .back a")
        browser.wait_for("the planner again", "return document.querySelector('#journey-history') && !document.querySelector('#journey-player')")
        polls = "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/api/journeys/" + journey_id + "')).length"
        before = browser.js(polls)
        card = browser.wait_for("the journey in the history", f"""
            const card = document.querySelector('#journey-history .journey-card[data-id="{journey_id}"]');
            return card ? card.textContent : null""")
        check(re.search(rf"\d+ of {parts} parts ready", card) and "Walking" in card, f"the history lists the journey ({card[:100]!r})")
        time.sleep(4)  # more than two polling intervals (1.5 s): a poll left running would show
        check(browser.js(polls) == before and browser.js("return !navigator.mediaSession || navigator.mediaSession.playbackState === 'none'"),
              "leaving the player stops its polling and its sound")

        # Opening it again resumes where the server's playhead is.
        head = server_json(browser, f"{options.app}/api/journeys/{journey_id}")["playhead"]
        browser.click(f'#journey-history .journey-card[data-id="{journey_id}"] h4 a')
        resumed = browser.wait_for("the player again", """
            const player = document.querySelector('#journey-player');
            return player && document.querySelector('#journey-parts li') ? [Number(player.dataset.part), Number(player.dataset.sentence)] : null""")
        # (A playhead at the end of a part that has since been finished opens at the next part.)
        check(resumed == [head["part"], head["sentence"]] or (resumed == [head["part"] + 1, 0] and head["sentence"] > 0),
              f"a journey opens at its stored playhead (part {resumed[0]}, sentence {resumed[1]}; the server had {head})")
        browser.screenshot("journey-3-resumed")

        # Delete from the history, after the confirmation.
        browser.click("#journey .back a")
        browser.click(f'#journey-history .journey-card[data-id="{journey_id}"] button.danger')
        browser.wait_for("the confirmation", "return document.querySelector('#confirm').open")
        browser.click("#confirm-ok")
        browser.wait_for("the journey deleted", f"""return !document.querySelector('#journey-history .journey-card[data-id="{journey_id}"]')
            && !document.querySelector('#journey-history-empty').hidden""")
        check(True, "Delete (confirmed) removes the journey from the history")
        check_page_errors(browser)
    except Exception:
        try:
            browser.screenshot("journey-failure")
        except Exception:
            pass
        raise
    finally:
        browser.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--driver", required=True)
    parser.add_argument("--artifacts", required=True)
    journey_flow(parser.parse_args())
    print("journey flow passed")
