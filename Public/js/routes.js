// The route table: the web app's areas, each a folder under js/ (and css/<area>.css), and the
// screens in it by path pattern. Paths are hash routes (#/stories/…); ":name" matches one
// path segment and reaches the screen as params.name.
//
// A new product area is a new folder plus one entry here: its name and what it does (the home
// screen and the header are built from this list), and its routes, each a module in the folder.
// See docs/web-app.md.
import { area } from "./shared/router.js";

export const areas = [
  area("home", { name: "Home", nav: false, routes: { "/": "home.js" } }),
  area("stories", { name: "Stories", summary: "Stories read aloud: import a story (text, Markdown, HTML, EPUB), let StoryVoice find who says each line and give every character a voice, then listen or export an audiobook.", routes: { "/stories": "library.js", "/stories/:id": "story/page.js" } }),
  area("chat", { name: "Chat stories", summary: "Chat stories: write a fake text conversation (or have a model write one), see it in the look of your choice, play it, and export it as a typing video for TikTok, Instagram or YouTube.", routes: { "/chat": "list.js", "/chat/:id": "editor.js" } }),
  area("journeys", { name: "Journeys", summary: "Journeys: say where you are going, and hear a story exactly as long as the trip, written and voiced just ahead of you as you travel.", routes: { "/journeys": "planner.js", "/journeys/:id": "journey/page.js" } }),
  area("calls", { name: "Calls", summary: "AI phone calls: pick a character (a storyteller, a comedian, a birthday caller…) or write your own, and talk to it in the browser or have it call a phone.", routes: { "/calls": "page.js" } }),
  area("voice", { name: "Talk", summary: "Voice chat: hold the button and ask; your words appear, the answer is written and spoken as it comes. Runs on this machine by default, or with your own AI model.", routes: { "/talk": "talk.js" } }),
  area("account", { name: "Settings", summary: "Your account: default narration speed, pitch and volume, and the keys of your own AI models.", routes: { "/account": "settings.js" }, signIn: "signin.js" }),
];
