import LanguageModels
import StoryModel
import VendorHTTP

/// The speaker-labelling request: numbered spans in their context, the roster, and the
/// structured answer `{"labels": [{"span": "S12", "speaker": "c3"}]}`.
enum SpanPrompt {
    static let system = """
        You attribute dialogue in a novel. In the passage, each span to label is marked [S<number>] … [/S<number>]; \
        the other text is context. For every marked span, answer with the id of the character who speaks it \
        from the roster, "new:<Full Name>" for a speaker who is not in the roster, or "narration" if the span \
        is not spoken by anyone. Use only the span ids and character ids given. Do not quote or rewrite the text.
        """

    static let schema = ResponseSchema(name: "speaker_labels", schema: [
        "type": "object",
        "properties": [
            "labels": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": [
                        "span": ["type": "string", "description": "a span id from the passage, like S12"],
                        "speaker": ["type": "string", "description": "a roster id, new:<Full Name>, or narration"],
                    ],
                    "required": ["span", "speaker"],
                    "additionalProperties": false,
                ],
            ],
        ],
        "required": ["labels"],
        "additionalProperties": false,
    ])

    static func spanID(_ segment: Int) -> String { "S\(segment)" }

    static func rosterLines(_ characters: [Character]) -> String {
        characters.map { character in
            let aliases = character.aliases.filter { $0 != character.name }
            return "\(character.id): \(character.name)" + (aliases.isEmpty ? "" : " (also: \(aliases.joined(separator: ", ")))")
        }.joined(separator: "\n")
    }

    static func request(batch: LabellingBatch, text: ScalarText, segments: [Segment], chapters: [Chapter], roster: [Character], title: String, correction: String? = nil) -> CompletionRequest {
        let targets = Set(batch.segments)
        var passage = ""
        var chapter: Int?
        for window in batch.windows {
            if window.chapter != chapter {
                passage += (chapter == nil ? "" : "\n\n") + "Chapter: \(chapters[window.chapter].title)\n"
                chapter = window.chapter
            } else {
                passage += "\n…\n"
            }
            var piece = ""
            var cursor = window.range.lowerBound
            // Segments inside the window: targets are numbered; other dialogue shows the
            // offline analysis's (confident) speaker, which is cheaper context than more text.
            var index = firstSegment(endingAfter: window.range.lowerBound, in: segments)
            while index < segments.count, segments[index].start < window.range.upperBound {
                let segment = segments[index]
                if targets.contains(index), segment.end <= window.range.upperBound {
                    piece += text.string(cursor, segment.start)
                    piece += "[\(spanID(index))] " + text.string(segment.start, segment.end) + " [/\(spanID(index))]"
                    cursor = segment.end
                } else if segment.kind == .dialogue, let speaker = segment.speaker, segment.start >= cursor {
                    piece += text.string(cursor, segment.start) + "(\(speaker)) "
                    cursor = segment.start
                }
                index += 1
            }
            piece += text.string(cursor, window.range.upperBound)
            passage += piece.trimmingWhitespace
        }
        var user = """
            Story: \(title)

            Roster:
            \(rosterLines(roster))

            Passage (a character id in parentheses before a quotation says who speaks it):
            \(passage)

            Label these spans: \(batch.segments.map(spanID).joined(separator: ", "))
            """
        if let correction {
            user += "\n\nYour previous answer could not be used: \(correction). Answer again, once per span, using only the span ids and roster ids above."
        }
        return CompletionRequest(system: system, user: user, schema: schema, temperature: 0, maxOutputTokens: maxOutputTokens(spans: batch.segments.count))
    }

    /// The first segment whose end lies after `offset` (segments are in text order).
    static func firstSegment(endingAfter offset: Int, in segments: [Segment]) -> Int {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Room for the answer: about 12 tokens a label, with headroom for long new names.
    static func maxOutputTokens(spans: Int) -> Int {
        256 + spans * 24
    }

    /// The answer a model is expected to give, for estimating output tokens.
    static func typicalAnswer(batch: LabellingBatch) -> String {
        let labels: [JSONValue] = batch.segments.map { ["span": .string(spanID($0)), "speaker": "c10"] }
        return JSONValue.object(["labels": .array(labels)]).canonicalText
    }

    enum Speaker: Hashable {
        case character(String)
        case newCharacter(String)
        case narration
    }

    /// Reads and checks an answer; the reason it cannot be used otherwise.
    static func parse(_ text: String, batch: LabellingBatch, rosterIDs: Set<String>) -> Result<[Int: Speaker], AnswerProblem> {
        guard let json = JSONValue(parsing: text) else { return .failure(AnswerProblem("the answer is not valid JSON")) }
        guard let labels = json["labels"]?.arrayValue else { return .failure(AnswerProblem("the answer has no \"labels\" list")) }
        let wanted = Dictionary(uniqueKeysWithValues: batch.segments.map { (spanID($0), $0) })
        var result: [Int: Speaker] = [:]
        for label in labels {
            guard let span = label["span"]?.stringValue, let speaker = label["speaker"]?.stringValue else {
                return .failure(AnswerProblem("a label lacks \"span\" or \"speaker\""))
            }
            guard let segment = wanted[span] else { return .failure(AnswerProblem("unknown span id \(span)")) }
            let trimmed = speaker.trimmingWhitespace
            if trimmed.lowercased() == "narration" {
                result[segment] = .narration
            } else if trimmed.lowercased().hasPrefix("new:") {
                let name = String(trimmed.dropFirst(4)).trimmingWhitespace
                guard !name.isEmpty else { return .failure(AnswerProblem("a new character has no name")) }
                result[segment] = .newCharacter(name)
            } else if rosterIDs.contains(trimmed) {
                result[segment] = .character(trimmed)
            } else {
                return .failure(AnswerProblem("unknown character id \(trimmed)"))
            }
        }
        return .success(result)
    }
}

/// Why a model's answer was not used.
struct AnswerProblem: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    var trimmingWhitespace: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
