"""AI phone calls in the web app (issue 20), in real headless Chromium against a real server.

Signs up, opens Calls from the header, sees the plan card (a free trial of 3 calls) and the 23
built-in scenarios grouped by category (the family-friendly filter hides the others), creates a
custom scenario with a voice found through the filter chips (an abusive prompt is refused first,
in the server's words, with everything typed kept), tries "Call a phone" (this server has no
Twilio account: its 503 message shows and the in-browser call is offered), then makes one call
in the browser to the storyteller: the fake microphone streams over the Media Streams protocol a
WAV of silence, then a question spoken by espeak-ng, then silence. The test waits until the page
has played the agent's greeting whole (`data-frames-played` on the call panel) and echoed its
marks, the question being still to come; then until the agent's answer arrives after it (more
frames than the greeting's) and plays (the voice loop on this machine, on a loaded machine, can
take long), hangs up, and finds the call in the history as "In the browser" with one trial call
fewer. Checks the controls' accessible names and that the page fits a phone-sized screen. Prints
the time from pressing Call to the first audio and to the answer. Screenshots go to the artifacts
folder as calls-*.png.

Run alone: python3 Tests/Browser/calls_flow.py --app URL --driver URL --artifacts DIR
"""
import argparse
import os
import subprocess
import time
import uuid
import wave

from browser_test import ELEMENT, Browser, check, check_page_errors, register
from design_flow import check_accessible

LONG_WAIT = 300  # whisper, the model and the voice on a loaded two-core machine: the greeting takes minutes
ABUSIVE = "Call them and threaten to kill them unless they pay you money right now."
FRIENDLY = "You are a cheerful pirate captain who calls to tell a short tall tale of the sea."


QUESTION = "In a forest, please. Tell me about a clever fox."
# The microphone is silent this long before the question: the storyteller's greeting (about ten
# seconds, made ahead) plays whole first.
BEFORE_QUESTION = 22
# And after it, longer than a call: Chrome plays the file in a loop, and the question asked again
# would cut the answer.
AFTER_QUESTION = 75


def question_wav(path):
    """The fake microphone's input: silence, the question spoken by espeak-ng, silence."""
    spoken = path + ".question.wav"
    subprocess.run(["espeak-ng", "-w", spoken, QUESTION], check=True)
    with wave.open(spoken) as source:
        rate, width, channels, speech = source.getframerate(), source.getsampwidth(), source.getnchannels(), source.readframes(source.getnframes())
    os.remove(spoken)
    silence = lambda seconds: b"\0" * (rate * width * channels * seconds)
    with wave.open(path, "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(width)
        file.setframerate(rate)
        file.writeframes(silence(BEFORE_QUESTION) + speech + silence(AFTER_QUESTION))


ENDED = """
    const panel = document.querySelector('#calls-call');
    if (['ended', 'failed'].includes(panel.dataset.state)) return 'ended: ' + document.querySelector('#calls-call-status').textContent
        + ' ' + document.querySelector('#calls-call-error').textContent;"""


def call_and_listen(browser):
    """Presses Call and waits until the page has played the agent's greeting whole (the state and
    counters of the call panel), then until its answer to the question has arrived and played;
    returns the panel's counters after each, or the call's end first (a string saying how)."""
    browser.click("#calls-call-button")
    pressed = time.time()
    state = browser.wait_for("the call connected", """
        const panel = document.querySelector('#calls-call');
        if (panel.dataset.state === 'failed') return 'failed: ' + document.querySelector('#calls-call-error').textContent;
        return ['ringing', 'speaking', 'listening'].includes(panel.dataset.state) ? panel.dataset.state : null""", timeout=120)
    check(not state.startswith("failed"), f"the call connects over the media stream ({state})")
    # The greeting played whole: the page is listening with every frame it received played.
    greeting = browser.wait_for("the agent's greeting played", ENDED + """
        const played = Number(panel.dataset.framesPlayed);
        return panel.dataset.state === 'listening' && played >= 25 && played === Number(panel.dataset.framesReceived)
            && Number(panel.dataset.marksEchoed) >= 1 ? { ...panel.dataset, status: document.querySelector('#calls-call-status').textContent,
                timer: document.querySelector('#calls-call-timer').textContent } : null""", timeout=LONG_WAIT)
    if isinstance(greeting, str):
        return greeting, None, pressed
    greeted = greeting["played_at"] = time.time()
    # The answer: audio after the greeting's (on a call the agent says nothing else: a failed
    # turn is silent), played for a second at least.
    answer = browser.wait_for("the agent's answer to the question played", ENDED + f"""
        return Number(panel.dataset.framesPlayed) >= {int(greeting['framesPlayed']) + 50}
            ? {{ ...panel.dataset, timer: document.querySelector('#calls-call-timer').textContent }} : null""", timeout=LONG_WAIT)
    if isinstance(answer, dict):
        answer["after_greeting"] = time.time() - greeted
    return greeting, answer, pressed


def calls_flow(options):
    microphone = os.path.join(os.path.abspath(options.artifacts), "calls-question.wav")
    question_wav(microphone)
    browser = Browser(options.driver, options.artifacts, extra_args=[
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={microphone}"])
    try:
        browser.go(options.app + "/")
        register(browser, f"caller-{uuid.uuid4().hex[:8]}@example.com")
        check(browser.js("return [...document.querySelectorAll('#home .area a')].some(a => a.textContent === 'Calls')"), "the home page offers Calls")
        browser.click('#nav-areas a[data-area="calls"]')
        plan = browser.wait_for("the plan card", """
            const plan = document.querySelector('#calls-plan');
            return plan?.dataset.state === 'ready' ? { ...plan.dataset, title: plan.querySelector('h3').textContent,
                message: document.querySelector('#calls-plan-message').textContent } : null""")
        check(browser.js("return document.title") == "Calls · StoryVoice", "the Calls screen's title")
        check(plan["title"] == "Free trial" and plan["callsLeft"] == "3" and plan["canCall"] == "true" and "3 calls" in plan["message"],
              f"the plan card shows the free trial with 3 calls left ({plan['message']!r})")

        # The scenarios, grouped by category, each with its voice; the family filter.
        scenarios = browser.wait_for("the scenarios", """
            const items = [...document.querySelectorAll('#calls-scenarios .calls-scenario')];
            return items.length >= 23 ? { count: items.length,
                categories: [...document.querySelectorAll('#calls-scenarios .calls-category')].map(g => g.dataset.category),
                voiced: items.filter(i => /Voice: \\w+/.test(i.textContent)).length,
                family: items.filter(i => i.dataset.family === 'true').length,
                chosen: document.querySelector('#calls-scenarios input:checked')?.value } : null""")
        check(scenarios["count"] == 23 and scenarios["voiced"] == 23 and scenarios["categories"] == [
            "Entertainment", "Professional", "Emergency", "Romantic", "Family & Friends", "Motivational", "Celebration", "Custom"],
              f"the 23 scenarios are grouped by category, each with its voice ({', '.join(scenarios['categories'])})")
        browser.click("#calls-family")
        shown = browser.wait_for("the family filter", f"""
            const shown = [...document.querySelectorAll('#calls-scenarios .calls-scenario')].filter(i => !i.hidden);
            return shown.length === {scenarios['family']} && shown.every(i => i.dataset.family === 'true') ? shown.length : null""")
        browser.click("#calls-family")
        browser.wait_for("every scenario again", "return [...document.querySelectorAll('#calls-scenarios .calls-scenario')].every(i => !i.hidden)")
        check(0 < shown < 23, f"'Family-friendly only' shows the {shown} family-friendly scenarios, and all 23 again when unticked")
        browser.screenshot("calls-1-page")

        # Create your own: an abusive prompt is refused in the server's words, then a kind one is saved.
        browser.click("#calls-create")
        browser.wait_for("the editor", "return !document.querySelector('#calls-editor').hidden && document.querySelectorAll('#calls-voices .calls-voice').length === 8")
        browser.type("#calls-scenario-name", "Pirate Captain")
        browser.type("#calls-scenario-icon", "🏴")
        browser.type("#calls-scenario-prompt", ABUSIVE)
        counter = browser.js("return document.querySelector('#calls-scenario-count').textContent")
        check(counter.startswith(f"{len(ABUSIVE)} / 2000"), f"the prompt's characters are counted ({counter!r})")
        browser.click('#calls-voice-filters [data-filter="gender"][data-value="male"]')
        browser.click('#calls-voice-filters [data-filter="accent"][data-value="british"]')
        voices = browser.wait_for("the voices matching the chips", """
            const voices = [...document.querySelectorAll('#calls-voices .calls-voice')];
            return voices.length === 1 ? voices.map(v => v.textContent) : null""")
        check("Ballad" in voices[0] and "British" in voices[0], f"male + British leaves one voice, with its description ({voices[0]!r})")
        browser.click('#calls-voices .calls-voice[data-id="ballad"] label')
        browser.click('#calls-voices .calls-voice[data-id="ballad"] .calls-sample')
        sample = browser.wait_for("the voice's sample played to its end", """
            const button = document.querySelector('#calls-voices .calls-voice[data-id="ballad"] .calls-sample');
            const status = document.querySelector('#calls-voices-status').textContent;
            if (status.includes('could not')) return status;
            const fetched = performance.getEntriesByType('resource').find(e => e.name.endsWith('/mobile/voices/ballad/preview'));
            return fetched && button.getAttribute('aria-pressed') === 'false' ? 'played' : null""", timeout=120)
        check(sample == "played", f"Ballad's sample plays ({sample})")
        browser.click("#calls-editor-save")
        refused = browser.wait_for("the abusive prompt refused", "return document.querySelector('#calls-editor-error').textContent")
        kept = browser.js("return [document.querySelector('#calls-scenario-name').value, document.querySelector('#calls-scenario-prompt').value]")
        check("threaten" in refused and kept == ["Pirate Captain", ABUSIVE] and not browser.js("return document.querySelector('#calls-editor').hidden"),
              f"an abusive prompt is refused in the server's words, with what was typed kept ({refused[:70]!r}…)")
        browser.on_element("#calls-scenario-prompt", "clear", {})
        browser.type("#calls-scenario-prompt", FRIENDLY)
        browser.click("#calls-editor-save")
        custom = browser.wait_for("the custom scenario", """
            const item = document.querySelector('#calls-scenarios .calls-category[data-category="Custom"] .calls-scenario');
            return item && document.querySelector('#calls-editor').hidden ? { text: item.textContent, chosen: item.querySelector('input').checked } : null""")
        check("Pirate Captain" in custom["text"] and "Voice: Ballad" in custom["text"] and custom["chosen"],
              f"the new scenario is listed under Custom with its voice, and chosen ({custom['text'][:60]!r})")

        # Call a phone: no Twilio on this server, so its message shows and the browser call is offered.
        browser.click('#calls-scenarios .calls-scenario[data-id="storyteller"] label')
        browser.wait_for("the storyteller chosen", "return document.querySelector('#calls-phone .calls-chosen-name').textContent.includes('Storyteller')")
        browser.type("#calls-phone-number", "+14155550100")
        browser.click("#calls-phone-call")
        unavailable = browser.wait_for("the 503 message", """
            const error = document.querySelector('#calls-phone-error');
            return error && document.querySelector('#calls-offer-browser') ? error.textContent : null""")
        check("not available" in unavailable and "TWILIO" not in unavailable,
              f"'Call a phone' shows the server's message, without the operator's settings, and offers the browser call ({unavailable[:60]!r}…)")
        browser.click("#calls-offer-browser")
        check(browser.wait_for("focus on the call button", "return document.activeElement?.id === 'calls-call-button'"),
              "'Try it in the browser instead' takes focus to the call button")

        # One call in the browser: the agent greets first; wait until the page has played it.
        names = browser.js("""return [...document.querySelectorAll('#calls :is(button, a[href], input, select, textarea, summary)')]
            .filter(node => node.checkVisibility())""")
        unnamed = [browser.js("return arguments[0].outerHTML.slice(0, 100)", node) for node in names
                   if not (browser.label(node[ELEMENT]) or "").strip()]
        check(len(names) > 30 and not unnamed, f"all {len(names)} controls on the Calls screen have accessible names {unnamed}")
        heard, answer, pressed = call_and_listen(browser)
        calls_made = 1
        if isinstance(answer or heard, str) and "time limit" in (answer or heard):
            # The voice loop's first reply on a cold server (the model evaluating the scenario's
            # prompt for the first time) can outlast a trial call's 60 s; the prompt is then cached.
            print(f"  note: the call reached its time limit before the agent answered ({(answer or heard).strip()!r}); calling once more")
            heard, answer, pressed = call_and_listen(browser)
            calls_made = 2
        check(isinstance(heard, dict), f"the agent's greeting plays whole in the page ({heard if isinstance(heard, str) else ''})")
        check(int(heard["framesSent"]) > 50, f"the microphone streams 20 ms frames ({heard['framesSent']} sent), "
              f"{heard['framesPlayed']} frames of the greeting played, {heard['marksEchoed']} mark(s) echoed; status {heard['status']!r} at {heard['timer']}")
        print(f"  the greeting played whole {heard['played_at'] - pressed:.1f} s after pressing Call (test-side clock)")
        browser.screenshot("calls-2-in-call")
        check(isinstance(answer, dict), f"the agent answers the spoken question aloud ({answer if isinstance(answer, str) else ''})")
        print(f"  the answer played {time.time() - pressed:.1f} s after pressing Call, {answer['after_greeting']:.1f} s after the greeting "
              f"(the question starts {BEFORE_QUESTION} s into the microphone's file; test-side clock)")
        check(int(answer["framesReceived"]) > int(heard["framesReceived"]) and answer["state"] in ("speaking", "listening"),
              f"the answer's audio arrived after the greeting's ({int(answer['framesReceived']) - int(heard['framesReceived'])} frames), "
              f"the call still up at {answer['timer']}")
        browser.screenshot("calls-3-answered")
        check_accessible(browser, options, "the call panel, in a call")
        browser.click("#calls-call-button")
        ended = browser.wait_for("the call ended", """
            const panel = document.querySelector('#calls-call');
            return panel.dataset.state === 'ended' ? [panel.dataset.endReason, document.querySelector('#calls-call-status').textContent] : null""")
        check(ended == ["hangup", "Call ended."], f"Hang up ends the call ({ended[1]!r})")

        # The history and the plan after the call.
        row = browser.wait_for("the call in the history (its end recorded)", f"""
            const rows = document.querySelectorAll('#calls-history tr[data-kind="browser"]');
            return rows.length === {calls_made} && rows[0].dataset.status === 'completed' ? rows[0].textContent : null""")
        check("In the browser" in row and "Storyteller" in row and "Completed" in row,
              f"the history lists the call as 'In the browser', completed ({row!r})")
        left = 3 - calls_made
        check(browser.wait_for("the plan card updated", f"return document.querySelector('#calls-plan').dataset.callsLeft === '{left}'"),
              f"the plan card shows {left} trial call{'' if left == 1 else 's'} left")

        # A phone-sized screen: nothing scrolls sideways.
        browser.s("POST", "/window/rect", {"width": 390, "height": 844})
        browser.wait_for("the phone-sized viewport", "return innerWidth <= 400")
        overflow = browser.js("""
            const edge = Math.min(innerWidth, document.querySelector('main').getBoundingClientRect().right);
            return [...document.querySelectorAll('#calls *')].filter(node => node.checkVisibility()
                && node.getBoundingClientRect().right > edge + 0.5).slice(0, 5)
                .map(node => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`);""")
        width, viewport = browser.js("return [document.scrollingElement.scrollWidth, innerWidth]")
        check(width <= viewport and not overflow, f"the Calls screen fits a {viewport}px-wide phone screen ({width}px wide) {overflow}")
        browser.js("document.querySelector('#calls-browser').scrollIntoView()")
        browser.screenshot("calls-4-phone")
        check_page_errors(browser)
    except Exception:
        try:
            browser.screenshot("calls-failure")
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
    calls_flow(parser.parse_args())
    print("calls flow passed")
