"""Chat stories in the web app (issue 19), in real headless Chromium against a real server.

Signs up, creates a chat story, renames it, writes three messages for both people by switching
who writes (one with an emoji outside the BMP, typed as an input method would), sees the phone
preview follow the text as it is typed (right side for "me", the look's colours), moves a message
with the keyboard-accessible buttons, plays the animated preview from the server's timeline until
the last bubble appears (the indicator and the typed text seen on the way), exports a short video
(Instagram 1:1, fast typing, 30 fps) with live progress, downloads it and checks it with ffprobe
(H.264, 1080×1080, 30 fps), watches it in the page, shares it, opens the share link in a browser
with no session, and ends the link. Then a message too long for the server: the save is refused with the
server's words at that message, and nothing typed is lost; another tab's rename meanwhile
refuses this page's save (If-Match) until the user keeps this page's version; a third person (the free plan's
limit said on the page, the export refused in the server's words); the generator's refusal for a
free account; duplicate and delete in the list. Screenshots go to the artifacts folder as chat-*.png.

Run alone: python3 Tests/Browser/chat_flow.py --app URL --driver URL --artifacts DIR
"""
import argparse
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid

from browser_test import ENTER, Browser, check, check_page_errors, register

LONG_WAIT = 600  # an export on a loaded two-core machine


def person_ids(browser):
    """{name: id} of the buttons that choose who writes."""
    found = browser.wait_for("the people's buttons", """
        const buttons = [...document.querySelectorAll('#chat-switcher .person-button')];
        return buttons.length >= 2 ? buttons.map(b => [b.dataset.name, b.dataset.id]) : null;""")
    return dict(found)


def write(browser, who, text, emoji=None):
    """Chooses who writes, types `text` (and `emoji` as an input method inserts it: ChromeDriver
    types only the Basic Multilingual Plane), checks the phone shows it as it is typed, then
    presses Enter."""
    browser.click(f'#chat-switcher .person-button[data-id="{who}"]')
    browser.wait_for("the person chosen", f"""
        return document.querySelector('#chat-switcher .person-button[data-id="{who}"]')?.getAttribute('aria-pressed') === 'true'
            && document.activeElement === document.querySelector('#chat-text')""")
    before = browser.js("return document.querySelectorAll('#chat-messages .message-row').length")
    browser.type("#chat-text", text)
    whole = text
    if emoji:
        browser.js("document.querySelector('#chat-text').focus(); document.execCommand('insertText', false, arguments[0])", emoji)
        whole += emoji
    draft = browser.wait_for("the phone to show the message as it is typed", """
        const draft = document.querySelector('#chat-phone .phone-draft');
        return draft && !draft.hidden && draft.querySelector('.bubble').textContent === arguments[0] ? draft.className : null;""".replace("arguments[0]", json.dumps(whole)))
    browser.keys(ENTER)
    browser.wait_for("the message in the list and the phone", f"""
        const rows = document.querySelectorAll('#chat-messages .message-row');
        const bubbles = document.querySelectorAll('#chat-phone .phone-messages .msg:not([hidden]) .bubble');
        return rows.length === {before + 1} && rows[{before}].querySelector('.message-text').value === {json.dumps(whole)}
            && bubbles.length === {before + 1} && bubbles[{before}].textContent === {json.dumps(whole)}
            && document.querySelector('#chat-text').value === ''
            && document.querySelector('#chat-phone .phone-draft').hidden""")
    return whole, draft


def saved(browser):
    browser.wait_for("the conversation saved", "return document.querySelector('#chat-save').textContent === 'Saved'", timeout=60)


def server_conversation(browser, app, conversation_id):
    """The conversation as the server keeps it, read with the browser's session."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.s("GET", "/cookie"))
    request = urllib.request.Request(f"{app}/api/chat/conversations/{conversation_id}", headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def server_edit(browser, app, conversation_id, fields):
    """Changes the conversation as another tab would (PUT without If-Match); the reply's status."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.s("GET", "/cookie"))
    request = urllib.request.Request(f"{app}/api/chat/conversations/{conversation_id}", data=json.dumps(fields).encode(), method="PUT",
                                     headers={"Cookie": cookies, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status


def chat_flow(options):
    browser = Browser(options.driver, options.artifacts)
    try:
        browser.go(options.app + "/")
        register(browser, f"chat-{uuid.uuid4().hex[:8]}@example.com")
        check(browser.js("return [...document.querySelectorAll('#home .area a')].some(a => a.textContent === 'Chat stories')"),
              "the home page offers Chat stories")
        browser.click('#nav-areas a[data-area="chat"]')
        browser.wait_for("the chat stories list", "return document.querySelector('#chat-list')?.checkVisibility() && !document.querySelector('#chat-list-empty').hidden")
        check(browser.js("return document.title") == "Chat stories · StoryVoice", "the list's title")

        # A new chat story opens in the editor with the starter pair.
        browser.click("#chat-new")
        browser.wait_for("the editor", "return document.querySelector('#chat-editor')?.checkVisibility() && document.querySelector('#chat-phone')")
        conversation_id = browser.js("return location.hash.split('/').pop()")
        people = person_ids(browser)
        check(set(people) == {"Me", "Alex"}, f"a new chat story starts with Me and Alex ({sorted(people)})")
        browser.on_element("#chat-title", "clear", {})
        browser.type("#chat-title", "Late night texts")
        browser.wait_for("the heading to follow the title", "return document.querySelector('#chat-heading').textContent === 'Late night texts'")
        saved(browser)

        # Three messages, written by switching who writes; the phone follows as they are typed.
        first, _ = write(browser, people["Alex"], "hey, are you still up?")
        second, draft_class = write(browser, people["Me"], "Yes, why ", emoji="\U0001F605")
        check("mine" in draft_class, "the message being typed by 'me' shows on the right of the phone as it is typed")
        third, _ = write(browser, people["Alex"], "look outside")
        saved(browser)
        kept = server_conversation(browser, options.app, conversation_id)
        check(kept["title"] == "Late night texts" and [m["text"] for m in kept["messages"]] == [first, second, third],
              f"the server keeps the title and the three messages, emoji included ({second!r})")

        # The live preview: "me" on the right in the look's sender colour, the others on the left.
        layout = browser.js("""
            const bubbles = [...document.querySelectorAll('#chat-phone .phone-messages .bubble')];
            const box = (b) => b.getBoundingClientRect();
            const phone = document.querySelector('#chat-phone').getBoundingClientRect();
            return { mine: bubbles.map(b => b.closest('.msg').classList.contains('mine')),
                     rightGap: bubbles.map(b => phone.right - box(b).right), leftGap: bubbles.map(b => box(b).left - phone.left),
                     colours: bubbles.map(b => getComputedStyle(b).backgroundColor) };""")
        check(layout["mine"] == [False, True, False] and layout["rightGap"][1] < layout["rightGap"][0]
              and layout["leftGap"][0] < layout["leftGap"][1],
              "the phone shows Me's bubble on the right and Alex's on the left")
        check(layout["colours"][1] == "rgb(0, 122, 255)" and layout["colours"][0] == "rgb(229, 229, 234)",
              f"the bubbles have the look's colours ({layout['colours'][:2]})")
        browser.click("#chat-dark")
        browser.wait_for("dark mode in the phone", "return getComputedStyle(document.querySelector('#chat-phone')).backgroundColor === 'rgb(0, 0, 0)'")
        browser.click("#chat-dark")
        browser.wait_for("light mode in the phone", "return getComputedStyle(document.querySelector('#chat-phone')).backgroundColor === 'rgb(255, 255, 255)'")
        browser.screenshot("chat-1-editor")

        # Reordering with the keyboard-accessible buttons (drag and drop does the same).
        browser.click('#chat-messages .message-row:nth-child(3) .move-up')
        browser.wait_for("the message moved", f"""
            const rows = [...document.querySelectorAll('#chat-messages .message-text')].map(t => t.value);
            return rows[1] === {json.dumps(third)} && rows[2] === {json.dumps(second)}
                && document.activeElement?.matches('#chat-messages .message-row:nth-child(2) .move-up')""")
        check(True, "'Move message 3 up' moves it, and focus stays on the moved message's button")
        browser.keys(ENTER)  # the focused button, pressed again from the keyboard: up once more
        browser.wait_for("the message moved again by keyboard", f"""
            const rows = [...document.querySelectorAll('#chat-messages .message-text')].map(t => t.value);
            return rows[0] === {json.dumps(third)}""")
        browser.click('#chat-messages .message-row:nth-child(1) .move-down')
        browser.click('#chat-messages .message-row:nth-child(2) .move-down')
        browser.wait_for("the original order back", f"""
            const rows = [...document.querySelectorAll('#chat-messages .message-text')].map(t => t.value);
            const want = {json.dumps([first, second, third])};
            return rows.length === 3 && rows.every((row, at) => row === want[at])""")
        saved(browser)
        check([m["text"] for m in server_conversation(browser, options.app, conversation_id)["messages"]] == [first, second, third],
              "moves are saved (the server has the order shown)")

        # Export settings for the preview and the video: Instagram, fast typing, 30 fps.
        browser.click('#chat-format option[value="instagram"]')
        browser.click('#chat-speed option[value="fast"]')
        browser.click('#chat-fps option[value="30"]')
        browser.wait_for("the square phone", "const box = document.querySelector('#chat-phone').getBoundingClientRect(); return Math.abs(box.width - box.height) < 2")

        # The animated preview from the server's timeline: what the phone shows along the way.
        browser.js("""
            window.chatSeen = { typed: '', indicator: false, keyboard: false, sent: [] };
            const phone = document.querySelector('#chat-phone');
            new MutationObserver(() => {
                if (phone.dataset.mode !== 'play') return;
                const typed = phone.querySelector('.phone-typed').textContent;
                if (typed.length > chatSeen.typed.length) chatSeen.typed = typed;
                if (!phone.querySelector('.phone-indicator').hidden) chatSeen.indicator = true;
                if (!phone.querySelector('.phone-keyboard').hidden) chatSeen.keyboard = true;
                const sent = Number(phone.dataset.sent);
                if (chatSeen.sent.at(-1) !== sent) chatSeen.sent.push(sent);
            }).observe(phone, { subtree: true, childList: true, attributes: true, characterData: true });
            performance.clearMarks('storyvoice:chat-preview-ended');""")
        browser.click("#chat-play")
        browser.wait_for("the preview playing", "return document.querySelector('#chat-phone').dataset.mode === 'play' && document.querySelector('#chat-play').getAttribute('aria-pressed') === 'true'")
        browser.wait_for("the last bubble in the preview", """
            const phone = document.querySelector('#chat-phone');
            return phone.dataset.mode === 'play' && phone.dataset.sent === '3'
                && [...phone.querySelectorAll('.phone-messages .msg')].every(m => !m.hidden)""", timeout=60)
        browser.wait_for("the preview to end", "return document.querySelector('#chat-preview-status').dataset.state === 'ended' && performance.getEntriesByName('storyvoice:chat-preview-ended').length === 1", timeout=30)
        seen = browser.js("return chatSeen")
        check(seen["indicator"] and seen["keyboard"] and seen["typed"] == second and seen["sent"][0] == 0 and seen["sent"][-1] == 3
              and seen["sent"] == sorted(seen["sent"]),
              f"the preview played the timeline: the '…' indicator, the keyboard, {seen['typed']!r} typed out in the input bar, bubbles {seen['sent']}")
        browser.screenshot("chat-2-preview-played")

        # Export: live progress, then the download, the player and a share link.
        check("3 of 3 videos left today" in browser.wait_for("the plan", "return document.querySelector('#chat-plan').textContent"),
              "the plan says how many free videos are left today")
        browser.js("""
            window.exportSaid = [];
            const status = document.querySelector('#chat-export-status');
            new MutationObserver(() => exportSaid.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
            document.querySelector('#chat-export').scrollIntoView();""")
        started = time.time()
        browser.click("#chat-export-start")
        browser.wait_for("the video made", "return !document.querySelector('#chat-export-result').hidden && document.querySelector('#chat-export-download').href", timeout=LONG_WAIT)
        said = browser.js("return exportSaid")
        check(any(text.startswith(("Waiting for a worker", "Making the video")) for text in said) and said[-1].startswith("The video is ready"),
              f"the export showed its progress and finished in {time.time() - started:.1f} s ({said[-1]!r})")
        check("2 of 3 videos left today" in browser.wait_for("the plan after the export", "return document.querySelector('#chat-plan').textContent.includes('2 of 3') && document.querySelector('#chat-plan').textContent"),
              "the plan counts the export")
        video = f"{options.artifacts}/chat-story.mp4"
        url = browser.js("return document.querySelector('#chat-export-download').href")
        headers = browser.download(url, video)
        check("attachment" in headers.get("Content-Disposition", "") and headers.get("Content-Type", "").startswith("video/mp4"),
              "the video downloads as an MP4 attachment")
        probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", video],
                                          check=True, capture_output=True, text=True).stdout)
        stream = next(s for s in probe["streams"] if s["codec_type"] == "video")
        check(stream["codec_name"] == "h264" and (stream["width"], stream["height"]) == (1080, 1080) and stream["r_frame_rate"] == "30/1"
              and float(probe["format"]["duration"]) > 1,
              f"ffprobe: {stream['codec_name']} {stream['width']}×{stream['height']} at {stream['r_frame_rate']} fps, {float(probe['format']['duration']):.1f} s")
        subprocess.run(["ffmpeg", "-v", "error", "-i", video, "-f", "null", "-"], check=True, capture_output=True)
        check(True, "ffmpeg decodes every frame of the download")
        playable = browser.wait_for("the video in the page", """
            const video = document.querySelector('#chat-export-video');
            return video.readyState >= 1 && video.videoWidth ? [video.videoWidth, video.videoHeight] : null;""", timeout=60)
        check(playable == [1080, 1080], f"the page's player loads the video ({playable[0]}×{playable[1]})")

        browser.click("#chat-export-share")
        share = browser.wait_for("the share link", "const url = document.querySelector('#chat-share-url'); return !document.querySelector('#chat-share').hidden && url.value.includes('/share/chat/') ? url.value : null")
        browser.screenshot("chat-3-exported")
        with urllib.request.urlopen(share, timeout=60) as response:  # no cookie
            shared = response.read()
        check(response.headers.get("Content-Type", "").startswith("video/mp4") and shared == open(video, "rb").read(),
              "the share link serves the same video to anyone")
        viewer = Browser(options.driver, options.artifacts)  # its own cookie jar: no session
        try:
            viewer.go(share)
            size = viewer.wait_for("the shared video playing in a browser with no session", """
                const video = document.querySelector('video');
                return video && video.readyState >= 1 && video.videoWidth ? [video.videoWidth, video.videoHeight] : null;""", timeout=60)
            check(size == [1080, 1080] and not viewer.cookies().get("sv_access"), "the share link opens in a browser that is not signed in")
        finally:
            viewer.quit()
        browser.click("#chat-share-stop")
        browser.wait_for("the link ended", "return document.querySelector('#chat-share').hidden && document.querySelector('#chat-export-status').textContent.includes('no longer works')")
        try:
            urllib.request.urlopen(share, timeout=60)
            ended = False
        except urllib.error.HTTPError as error:
            ended = error.code == 404
        check(ended, "'Stop sharing' ends the link (404)")

        # A message the server refuses: its words at that message, and nothing typed is lost.
        long_text = "a" * 2001
        browser.click(f'#chat-switcher .person-button[data-id="{people["Me"]}"]')
        browser.js("const t = document.querySelector('#chat-text'); t.focus(); document.execCommand('insertText', false, arguments[0])", long_text)
        browser.keys(ENTER)
        refused = browser.wait_for("the refused save", """
            const status = document.querySelector('#chat-save');
            return status.classList.contains('error') && status.textContent.includes('Message 4') ? status.textContent : null""", timeout=60)
        marked = browser.wait_for("the message marked", """
            const row = document.querySelectorAll('#chat-messages .message-row')[3];
            return row.querySelector('.message-text').getAttribute('aria-invalid') === 'true' && row.querySelector('.message-error').textContent""")
        check(marked.startswith("Message 4 is 2,001 characters long") and browser.js("return document.querySelectorAll('#chat-messages .message-text')[3].value.length") == 2001,
              f"the server's refusal is shown at the message, which is kept as typed ({refused!r})")
        browser.click('#chat-messages .message-row:nth-child(4) .delete')
        saved(browser)
        check(len(server_conversation(browser, options.app, conversation_id)["messages"]) == 3, "once the message is deleted the conversation saves again")

        # Another tab renames the story meanwhile: this page's next save names the version it
        # read (If-Match) and is refused, not written over the other tab's change; "keep this
        # page's version" then saves it.
        renamed = server_edit(browser, options.app, conversation_id, {"title": "Renamed in another tab"})
        check(renamed == 200, "another tab renames the story")
        original = browser.js("return document.querySelector('#chat-title').value")
        browser.type("#chat-title", "!")
        stale = browser.wait_for("the save refused", """
            const status = document.querySelector('#chat-save');
            return status.classList.contains('error') && document.querySelector('#chat-save-overwrite') ? status.textContent : null""", timeout=60)
        check("changed in another tab" in stale and server_conversation(browser, options.app, conversation_id)["title"] == "Renamed in another tab",
              f"a save over another tab's change is refused and theirs stays ({stale!r})")
        browser.click("#chat-save-overwrite")
        saved(browser)
        title = browser.js("return document.querySelector('#chat-title').value")
        check(server_conversation(browser, options.app, conversation_id)["title"] == title, "'keep this page's version' saves this page's title")
        browser.click("#chat-title")
        browser.keys("\ue010", "\ue003")  # End, Backspace: the title as it was
        saved(browser)
        check(server_conversation(browser, options.app, conversation_id)["title"] == original, "the title is back as it was")

        # A third person: the page says what the free plan allows, and the export is refused in
        # the server's words; removing them (they wrote nothing) needs no confirmation.
        browser.click("#chat-add-person")
        hint = browser.wait_for("the plan's hint", "return document.querySelectorAll('#chat-people-list .person').length === 3 && document.querySelector('#chat-people-hint').textContent")
        check("2 people" in hint, f"a third person on a free account: {hint!r}")
        browser.click("#chat-export-start")
        refused = browser.wait_for("the export refused", "const s = document.querySelector('#chat-export-status'); return s.classList.contains('error') && s.textContent")
        check("Free accounts make videos of conversations between 2 people" in refused, f"the export is refused in the server's words ({refused[:70]!r}…)")
        browser.click('#chat-people-list .person:nth-child(3) button.danger')
        browser.wait_for("two people again", "return document.querySelectorAll('#chat-people-list .person').length === 2 && !document.querySelector('#chat-people-hint').textContent")
        saved(browser)

        # The generator is premium: a free account is told so by the server.
        browser.click('#nav-areas a[data-area="chat"]')
        browser.wait_for("the list", "return document.querySelectorAll('#chat-conversations .chat-card').length === 1")
        browser.click("#chat-generate summary")
        browser.type('#chat-generate-form [name=prompt]', "A lighthouse keeper texts the wrong number")
        browser.click("#chat-generate-start")
        refusal = browser.wait_for("the generator's refusal", "const s = document.querySelector('#chat-generate-status'); return s.classList.contains('error') && s.textContent")
        check("premium" in refusal.lower(), f"a free account is refused the generator in the server's words ({refusal[:80]!r}…)")

        # Duplicate, then delete the copy through the confirmation dialog.
        browser.click('#chat-conversations .chat-card button[aria-label="Duplicate Late night texts"]')
        browser.wait_for("the copy", "return [...document.querySelectorAll('#chat-conversations .chat-card .title')].some(a => a.textContent === 'Late night texts (copy)')")
        browser.click('#chat-conversations .chat-card button[aria-label="Delete Late night texts (copy)"]')
        browser.wait_for("the confirmation", "return document.querySelector('#confirm').open")
        browser.click("#confirm-ok")
        browser.wait_for("the copy deleted", """
            const titles = [...document.querySelectorAll('#chat-conversations .chat-card .title')].map(a => a.textContent);
            return titles.length === 1 && titles[0] === 'Late night texts'""")
        check(True, "duplicate and delete from the list")
        check_page_errors(browser)
    except Exception:
        try:
            browser.screenshot("chat-failure")
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
    chat_flow(parser.parse_args())
    print("chat flow passed")
