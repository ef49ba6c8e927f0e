import Analysis
import Foundation
import LanguageModels
import Logging
import StoryModel
import TestSupport
import VendorHTTP

let testKey = "sk-analysis-0a1b2c3d4e5f6789"

/// A paragraph of a fixture story.
enum Line {
    case narration(String)
    /// A quotation, its true speaker, the offline analysis's guess and confidence.
    case quote(String, truth: String, offline: String, confidence: Double)
}

/// A story built from lines, with the offline analysis that labels it, and the truth.
struct Fixture {
    var document: StoryDocument
    var analysis: StoryAnalysis
    /// Segment index → true speaker id.
    var truth: [Int: String]

    init(title: String = "The Test Story", characters: [Character], chapters: [[Line]]) {
        var text = ""
        var segments: [Segment] = []
        var chapterSpans: [Chapter] = []
        var truth: [Int: String] = [:]
        var offset: Int { text.unicodeScalars.count }
        func narrate(_ string: String) {
            guard !string.isEmpty else { return }
            if let last = segments.last, last.kind == .narration, last.end == offset {
                segments[segments.count - 1].end += string.unicodeScalars.count
            } else {
                segments.append(Segment(start: offset, end: offset + string.unicodeScalars.count, kind: .narration))
            }
            text += string
        }
        for (number, lines) in chapters.enumerated() {
            let start = offset
            narrate("Chapter \(number + 1)\n\n")
            for line in lines {
                switch line {
                case .narration(let string):
                    narrate(string + "\n\n")
                case .quote(let string, let speaker, let offline, let confidence):
                    let quoted = "\u{201C}\(string)\u{201D}"
                    truth[segments.count] = speaker
                    segments.append(Segment(start: offset, end: offset + quoted.unicodeScalars.count, kind: .dialogue, speaker: offline, confidence: confidence))
                    text += quoted
                    narrate(" she went on.\n\n")
                }
            }
            chapterSpans.append(Chapter(title: "Chapter \(number + 1)", start: start, end: offset))
        }
        var cast = characters
        for index in cast.indices {
            cast[index].lines = segments.filter { $0.speaker == cast[index].id }.count
        }
        document = StoryDocument(title: title, text: text, chapters: chapterSpans)
        analysis = StoryAnalysis(title: title, characters: cast, chapters: chapterSpans, segments: segments)
        self.truth = truth
    }
}

let cast = [
    Character(id: "c1", name: "Anna Bell", aliases: ["Anna"]),
    Character(id: "c2", name: "Tom Reed", aliases: ["Tom"]),
    Character(id: "c3", name: "Mrs. Gray"),
]

func makeModel(_ provider: Provider = .openai, server: LoopbackServer, limit: Int = 4, retry: RetryPolicy = RetryPolicy(maxAttempts: 1)) -> RemoteLanguageModel {
    RemoteLanguageModel(
        provider: provider, model: "gpt-4o-mini", baseURL: provider == .openai ? server.baseURL + "/v1" : server.baseURL,
        key: Secret(testKey), timeout: loopbackTimeout, retry: retry, limiter: ConcurrencyLimiter(limit: limit),
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    )
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-analysis-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Span markers ("[S4]") in the prompts of labelling requests.
func sentSpans(_ requests: [RecordedRequest], provider: Provider = .openai) -> [String] {
    requests.compactMap { VendorWire.prompt(of: $0, provider: provider) }
        .filter { $0.user.contains("Label these spans: ") }
        .flatMap { listedIDs($0.user, after: "Label these spans: ") }
}

/// A small two-chapter story: six quotations, two of them uncertain offline (segments 3 and 9).
func smallStory() -> Fixture {
    Fixture(characters: cast, chapters: [
        [
            .narration("The rain had not stopped for three days, and the house smelled of wet wool."),
            .quote("Is the kettle on?", truth: "c1", offline: "c1", confidence: 0.95),
            .quote("It has been on since dawn.", truth: "c2", offline: "c1", confidence: 0.4),
            .narration("Anna looked at the window, where the garden had become a pond."),
            .quote("Then we shall have tea.", truth: "c1", offline: "c1", confidence: 0.9),
        ],
        [
            .narration("Mrs. Gray arrived at noon with a basket of eggs and a great deal of news."),
            .quote("You will never guess who has come to the village.", truth: "c3", offline: "c3", confidence: 0.85),
            .quote("The new curate, I suppose.", truth: "c1", offline: "c2", confidence: 0.3),
            .quote("Indeed it is, and he is very tall.", truth: "c3", offline: "c3", confidence: 0.9),
        ],
    ])
}
