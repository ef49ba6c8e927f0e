import Foundation
import Journeys
import LanguageModels
import VendorHTTP

/// What the model is asked, for one journey. The model on this machine reads a prompt at
/// about 30 tokens a second and keeps the last request's in its cache, so every request starts
/// alike: the system message is the same for every journey (`warmUp` has it read while the user
/// looks at the plan), then the trip and the style, then, once written, the outline; only what
/// follows is new to read.
struct StoryPrompts: Sendable {
    var plan: JourneyPlan
    var style: StoryStyle

    static let system = """
        You are a storyteller. You write stories that are read aloud to listeners on a journey, one part \
        of about a minute at a time. Write for the ear: plain narration and dialogue in flowing sentences; \
        no headings, titles, part numbers, lists, Markdown or notes. Never mention that this is a story or a part.
        """

    var system: String { Self.system }

    /// The system message of the outline's requests. It differs from the storyteller's from its
    /// first word: the local server gives a request the slot whose cached prompt it shares most
    /// of, and an outline request that shared the storyteller's opening words would take the
    /// story's slot and throw away its cached prompt.
    static let planner = """
        Plans are made here for stories read aloud to listeners on a journey, one part of about a minute at a time: \
        who is in them and what happens in each part, in short plain sentences.
        """

    /// The trip and the style: the start of every request of this journey. The listener is not
    /// called "the listener": a small model made "the listener" the story's hero. Places are
    /// named, never given as coordinates (`TripWords`): the model reads numbers out.
    var context: String {
        let minutes = max(1, Int((plan.route.durationSeconds / 60).rounded()))
        return """
            Someone \(travelling) \(TripWords.trip(from: plan.start, to: plan.end)) (about \(minutes) minute\(minutes == 1 ? "" : "s")) hears this story \
            on the way; its characters are its own. The story is \(style.guidance). It has \(plan.parts) part\(plan.parts == 1 ? "" : "s").
            """
    }

    /// A request that has the model read the system message, so the first part's request finds
    /// it in the cache.
    static var warmUp: CompletionRequest {
        CompletionRequest(system: system, user: "Say OK.", temperature: 0, maxOutputTokens: 1)
    }

    private var travelling: String {
        switch plan.mode {
        case .walking: "walking"
        case .cycling: "cycling"
        case .driving: "driving"
        }
    }

    /// Output tokens for `words` words of prose: English runs about 1.3 tokens a word; the rest
    /// is room for the last part's ending (a part is cut at the first sentence end past its words).
    static func tokens(forWords words: Int) -> Int { words * 2 + 60 }

    /// Part 1, written before any outline so that the listener hears it within seconds.
    func opening(words: Int) -> CompletionRequest {
        let stage = StoryArc.stage(ofPart: 1, parts: plan.parts)
        var task = plan.parts == 1
            ? "Tell the whole story now in about \(words) words: \(stage.guidance)."
            : "Begin the story now: part 1 of \(plan.parts), the opening (\(stage.guidance)). About \(words) words."
        // The first sentence is what the listener waits for. Told only "Open with a short
        // sentence", the model on this machine wrote short answers, 18–92 words for 145 (mean 53
        // over nine seeds); told to go on after it, 67–275 (mean 140 over four), first sentences
        // as short (13–29 words against 14–31). 2026-12-05.
        task += " Make the first sentence short; then tell the whole \(plan.parts == 1 ? "story" : "part"), about \(words) words."
        return CompletionRequest(system: system, user: context + "\n\n" + task, temperature: 0.8, maxOutputTokens: Self.tokens(forWords: words), discouragesRepetition: true)
    }

    /// The title, a line for each part told and the beats of the next parts (`beats`), in one
    /// request once the first parts are told (they are told from the story so far): all the
    /// next part waits for. The acts it is told to follow are the arc's stages; their lines are
    /// written after the next part (`actLines`). A key per part (`part_3`): asked for arrays,
    /// the model on this machine wrote act lines as beats and labels as lines.
    func firstOutline(told: [String], beats: ClosedRange<Int>) -> CompletionRequest {
        let toldParts = Self.toldParts(told.count, before: beats)
        let soFar = told.isEmpty ? "(nothing told yet)" : zip(toldParts, told).map { "Part \($0): \($1)" }.joined(separator: "\n")
        let toldLabel = toldParts.isEmpty ? "" : "\(Self.partsLabel(toldParts.lowerBound...toldParts.upperBound - 1, joiner: " and ")) as told, "
        let user = """
            \(planningPreamble)

            The story so far:
            \(soFar)

            Answer with the story's title (a few words), and for each part one short sentence of your own, under 15 words, \
            saying what happens in it and naming the characters: \(toldLabel)\(Self.partsLabel(beats, joiner: " and ")) continuing \
            from part \(beats.lowerBound - 1). Do not copy the story's sentences.
            """
        let parts = Array(toldParts) + Array(beats)
        let schema = Self.lines(parts.map { Self.key(ofPart: $0, among: parts) }, extra: ["title": Self.title])
        return CompletionRequest(
            system: Self.planner, user: user, schema: ResponseSchema(name: "story_outline", schema: schema),
            temperature: 0.7, maxOutputTokens: 60 + 50 * parts.count)
    }

    /// The parts a first outline's `told` texts are, just before `beats`.
    static func toldParts(_ count: Int, before beats: ClosedRange<Int>) -> Range<Int> {
        (beats.lowerBound - count)..<beats.lowerBound
    }

    /// One line of an outline: held to 120 characters by the grammar, so that a small model's
    /// line cannot run on (one ran a request to 420 tokens), and a sentence under 15 words fits.
    static let line: JSONValue = ["type": "string", "maxLength": .number(Double(lineLimit))]
    static let lineLimit = 120

    /// One line for each act, from the story's start: the whole arc, written while part 2 is told.
    /// A story still without a title (the first outline's was refused) is asked for one again.
    func actLines(_ outline: StoryOutline) -> CompletionRequest {
        let count = StoryArc.acts(parts: plan.parts).count
        let known = outline.beats.keys.sorted().compactMap { part in outline.beats[part].map { "Part \(part): \($0)" } }
        let named = outline.title.isEmpty ? "So far:" : "The story is called “\(outline.title)”. So far:"
        let title = outline.title.isEmpty ? "the story's title (a few words, not a sentence of it), and " : ""
        let user = """
            \(planningPreamble)

            \(named)
            \(known.joined(separator: "\n"))

            Answer with \(title)one short sentence per act saying what happens in it, naming the characters, \
            so that the story runs from its start to its end. Keep every sentence under 15 words.
            """
        let extra: [String: JSONValue] = outline.title.isEmpty ? ["title": Self.title] : [:]
        return CompletionRequest(
            system: Self.planner, user: user, schema: ResponseSchema(name: "story_acts", schema: Self.lines((1...count).map { "act_\($0)" }, extra: extra)),
            temperature: 0.7, maxOutputTokens: 40 + 50 * count + (extra.isEmpty ? 0 : 30))
    }

    /// A title: held to `titleLimit` characters by the grammar.
    static let title: JSONValue = ["type": "string", "maxLength": .number(Double(titleLimit))]
    static let titleLimit = 60

    /// What every planning request starts with: the trip, the style and the arc, the same for
    /// the whole journey, so that the planner's slot keeps it read and each request reads only
    /// what follows (the first outline read 919 tokens, 35 s on two cores, when the arc came
    /// after the story so far).
    var planningPreamble: String {
        context + "\n\nThe story runs in \(arcText):\n" + actList
    }

    private var arcText: String {
        let count = StoryArc.acts(parts: plan.parts).count
        return "\(count) act\(count == 1 ? "" : "s")"
    }

    private var actList: String {
        StoryArc.acts(parts: plan.parts).enumerated().map { index, act in
            "Act \(index + 1) (\(act.stage.name), \(Self.partsLabel(act.parts))): \(act.stage.guidance)."
        }.joined(separator: "\n")
    }

    /// The key of a part's line among the keys of one answer: as wide as the widest
    /// (`part_03` beside `part_12`). The grammar that holds the model to a schema writes keys in
    /// the order the schema lists them, which is sorted: with `part_3` beside `part_12` the model
    /// was made to write part 10's line after part 1's, lost the order, and copied the story's
    /// prose into the lines, cut at their length; with keys in order it wrote one sentence each.
    static func key(ofPart part: Int, among parts: some Collection<Int>) -> String {
        let width = String(parts.max() ?? part).count
        let digits = String(part)
        return "part_" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// An object of one `line` per key, every key required. A key per line, not an array: asked
    /// for arrays, the model on this machine gave the same line twice, or act lines as beats.
    static func lines(_ keys: [String], extra: [String: JSONValue] = [:]) -> JSONValue {
        var properties = extra
        for key in keys { properties[key] = line }
        return [
            "type": "object",
            "properties": .object(properties),
            "required": .array((extra.keys.sorted() + keys).map(JSONValue.string)),
            "additionalProperties": false,
        ]
    }

    /// One sentence for each of `parts`, continuing the outline.
    func beats(_ parts: ClosedRange<Int>, outline: StoryOutline) -> CompletionRequest {
        let act = StoryArc.act(ofPart: parts.lowerBound, parts: plan.parts)
        var lines = [planningPreamble, outlineText(outline)].filter { !$0.isEmpty }
        let recent = outline.recentBeats(before: parts.lowerBound)
        if !recent.isEmpty {
            lines.append("What happened most recently:\n" + recent.map { "Part \($0.part): \($0.beat)" }.joined(separator: "\n"))
        }
        var task = "Answer with one short sentence of your own for each of \(Self.partsLabel(parts, joiner: " and ")) saying what happens in it, naming the characters, continuing straight on. "
        task += "They are in the \(act.stage.name) (\(act.stage.guidance))"
        if let summary = outline.actSummary(ofPart: parts.lowerBound, parts: plan.parts) { task += ": \(summary)" }
        task += "."
        if parts.upperBound == plan.parts { task += " The story ends in part \(plan.parts)." }
        task += " Keep every sentence under 15 words, and say something new in each: do not copy earlier lines."
        lines.append(task)
        return CompletionRequest(
            system: Self.planner, user: lines.joined(separator: "\n\n"),
            schema: ResponseSchema(name: "story_beats", schema: Self.lines(parts.map { Self.key(ofPart: $0, among: parts) })),
            temperature: 0.7, maxOutputTokens: 40 + 50 * parts.count)
    }

    /// What the beats of `parts` must not copy: the beats just before them (a small model
    /// writes an earlier beat again) and the stage's own guidance (or writes "they face a new
    /// challenge in the rising action"). The acts' lines and the title may be taken up: a beat
    /// says how its act goes on.
    func unoriginal(beats parts: ClosedRange<Int>, outline: StoryOutline) -> String {
        let act = StoryArc.act(ofPart: parts.lowerBound, parts: plan.parts)
        return (outline.recentBeats(before: parts.lowerBound).map(\.beat) + [act.stage.guidance]).joined(separator: "\n")
    }

    /// Part `number` (after the first), from its beat and how the part before it ended.
    func part(_ number: Int, outline: StoryOutline?, beginning: String? = nil, previousEnding: String?, words: Int) -> CompletionRequest {
        let stage = StoryArc.stage(ofPart: number, parts: plan.parts)
        var lines = [context] + began(beginning)
        if let outline {
            if !outlineText(outline).isEmpty { lines.append(outlineText(outline)) }
            let recent = outline.recentBeats(before: number, count: 3)
            if !recent.isEmpty { lines.append("The parts just told:\n" + recent.map { "Part \($0.part): \($0.beat)" }.joined(separator: "\n")) }
        }
        if let previousEnding { lines.append("Part \(number - 1) ended: “\(previousEnding)”") }
        var task = "Write part \(number) of \(plan.parts) (the \(stage.name): \(stage.guidance))."
        if let beat = outline?.beats[number] { task += " What happens in it: \(beat)" }
        task += " About \(words) words, continuing straight on from where part \(number - 1) ended, without repeating it."
        if number == plan.parts { task += " This is the last part: bring the story to its end." }
        lines.append(task)
        return CompletionRequest(system: system, user: lines.joined(separator: "\n\n"), temperature: 0.8, maxOutputTokens: Self.tokens(forWords: words), discouragesRepetition: true)
    }

    /// More of part `number`, which stopped short, from where it stopped.
    func continuation(_ number: Int, outline: StoryOutline?, beginning: String? = nil, soFar: String, words: Int) -> CompletionRequest {
        var lines = [context] + began(beginning)
        if let outline, !outlineText(outline).isEmpty { lines.append(outlineText(outline)) }
        var task = "Part \(number) of \(plan.parts) so far ends: “\(soFar)”\n\nGo on with part \(number) from there, without repeating it: about \(words) more words."
        if let beat = outline?.beats[number] { task += " What happens in this part: \(beat)" }
        if number == plan.parts { task += " This is the last part: bring the story to its end." }
        lines.append(task)
        return CompletionRequest(system: system, user: lines.joined(separator: "\n\n"), temperature: 0.8, maxOutputTokens: Self.tokens(forWords: words), discouragesRepetition: true)
    }

    /// How the story began, right after the trip: the same for every part after the first, so
    /// the model's cache keeps it read.
    private func began(_ beginning: String?) -> [String] {
        beginning.map { ["How the story began: “\($0)”"] } ?? []
    }

    private func outlineText(_ outline: StoryOutline) -> String {
        let acts = StoryArc.acts(parts: plan.parts)
        let summaries = zip(acts, outline.actSummaries).enumerated().map { index, pair in
            "Act \(index + 1) (\(pair.0.stage.name), \(Self.partsLabel(pair.0.parts))): \(pair.1)"
        }
        let title = outline.title.isEmpty ? "The story's plan:" : "The story is called “\(outline.title)”. Its plan:"
        return summaries.isEmpty ? (outline.title.isEmpty ? "" : "The story is called “\(outline.title)”.") : title + "\n" + summaries.joined(separator: "\n")
    }

    static func partsLabel(_ parts: ClosedRange<Int>, joiner: String = "–") -> String {
        parts.count == 1 ? "part \(parts.lowerBound)" : parts.count == 2 ? "parts \(parts.lowerBound)\(joiner)\(parts.upperBound)" : "parts \(parts.lowerBound)–\(parts.upperBound)"
    }
}

/// The model's structured answers, read strictly: a shape that is off is an error, not a guess.
enum StoryAnswers {
    struct FirstOutline: Sendable, Hashable {
        var title: String
        var lines: Lines
    }

    /// The lines an answer had for its parts: those that say what happens, and those the model
    /// wrote but that are no summary of its own (`SpokenProse.isPlanLine`).
    struct Lines: Sendable, Hashable {
        var usable: [Int: String] = [:]
        var unusable: Set<Int> = []

        var isEmpty: Bool { usable.isEmpty && unusable.isEmpty }

        func contains(_ part: Int) -> Bool { usable[part] != nil || unusable.contains(part) }
    }

    /// The first outline's answer: its title ("" when it is no title: `SpokenProse.isTitle`),
    /// and the lines of `parts` (those that came); `source` is what its lines must not copy.
    static func firstOutline(_ text: String, parts: [Int], source: String) -> FirstOutline? {
        guard let json = JSONValue(parsing: text), json["title"]?.stringValue != nil else { return nil }
        let lines = lines(json, parts: parts, source: source)
        guard let last = parts.last, lines.contains(last) else { return nil }
        return FirstOutline(title: title(in: json, source: source) ?? "", lines: lines)
    }

    /// The answer's title when it is one, without quotes or a part label.
    static func title(in json: JSONValue, source: String) -> String? {
        guard let raw = clean(json["title"]?.stringValue), SpokenProse.isTitle(raw, source: source, limit: StoryPrompts.titleLimit) else { return nil }
        return title(raw)
    }

    /// The acts' lines, when there is one for every act.
    static func actLines(_ text: String, count: Int) -> [String]? {
        guard let json = JSONValue(parsing: text) else { return nil }
        let lines = (1...max(1, count)).compactMap { clean(json["act_\($0)"]?.stringValue) }
        return lines.count == count ? lines : nil
    }

    /// The story's name as the model gave it, without quotes or a part label ("…, Part 1: The
    /// Case Begins" names the first part, not the story).
    static func title(_ text: String) -> String {
        let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”'*# "))
        let cut = bare.replacingOccurrences(of: #"\s*[,:;–—-]?\s*\b(Part|Chapter|Episode)\s+(\d+|One|1)\b.*$"#, with: "", options: [.regularExpression, .caseInsensitive])
        return cut.isEmpty ? bare : cut
    }

    /// The beats of `parts` written, by part; nil when none could be read.
    static func beats(_ text: String, parts: ClosedRange<Int>, source: String) -> Lines? {
        guard let json = JSONValue(parsing: text) else { return nil }
        let beats = lines(json, parts: Array(parts), source: source)
        return beats.isEmpty ? nil : beats
    }

    private static func lines(_ json: JSONValue, parts: [Int], source: String) -> Lines {
        var lines = Lines()
        for part in parts {
            guard let line = clean(json[StoryPrompts.key(ofPart: part, among: parts)]?.stringValue) else { continue }
            if SpokenProse.isPlanLine(line, source: source, limit: StoryPrompts.lineLimit) {
                lines.usable[part] = line
            } else {
                lines.unusable.insert(part)
            }
        }
        return lines
    }

    private static func clean(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
