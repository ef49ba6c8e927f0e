import Audio
import Foundation
import Narration
import Platform
import Speech
import StoryModel
import StoryText

/// `storyvoice narrate`: a story to an audiobook with a voice per character, in two steps so a
/// caller can report the cast before the long render. Everything that can fail for a reason
/// the user can fix (no voices, a folder that does not exist, a bad cast) fails in `prepare`,
/// before any audio is made.
public struct AudiobookNarration: Sendable {
    public struct Request: Sendable {
        public var document: StoryDocument
        public var output: URL
        /// Voices from a cast file, winning over the automatic casting.
        public var castFile: Cast?
        /// Let automatic casting choose paid cloud voices too.
        public var includePaidVoices = false
        /// Fastest voices, or the best (neural wherever possible, slower than real time).
        public var preference: CastingPreference = .fastest
        /// A model that suggests the voices the cast file leaves open.
        public var modelCasting: ModelCasting?
        public var options = NarrationOptions()
        /// Rendered lines are cached here; nil renders every line anew (in a folder removed afterwards).
        public var cacheDirectory: URL?
        public var transcriber: (any SpeechTranscriber)?
        /// Where each engine's speed on this book is noted, for later estimates.
        public var speeds: RenderSpeedLog?

        public init(document: StoryDocument, output: URL) {
            self.document = document
            self.output = output
        }
    }

    /// The analysis and the cast, written beside the output before rendering starts.
    public struct Plan: Sendable {
        public var analysis: StoryAnalysis
        public var cast: Cast
        public var castFile: URL
        /// List price of the cloud voices in the cast, nil when every voice is free.
        public var cloudCost: Double?
        /// What a model said it did (`--cast-with-llm`).
        public var modelSummary: String?
        public var speakingCharacters: Int { analysis.characters.filter { $0.lines > 0 }.count }
        let catalog: VoiceCatalog
    }

    public let request: Request
    private let engines: @Sendable () -> [any SpeechSynthesizer]

    /// - Parameter engines: the speech engines to cast from (`Engines.available()` on this machine).
    public init(_ request: Request, engines: @escaping @Sendable () -> [any SpeechSynthesizer] = { Engines.available() }) {
        self.request = request
        self.engines = engines
    }

    /// Analyses the story, casts it and writes `NAME.cast.json` beside the output.
    public func prepare() async throws -> Plan {
        let directory = request.output.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw ServiceError(.notFound, code: "no_folder", "The folder \(directory.path) does not exist.")
        }
        // Before any line is rendered (hours, for a novel): only WAV is written without ffmpeg.
        if AudioFormat(fileExtension: request.output.pathExtension) != .wav, !AudioEncoder.isAvailable() {
            throw ServiceError(.unavailable, code: "no_encoder",
                             "Writing .\(request.output.pathExtension) needs ffmpeg, which is not installed: run scripts/setup (or install ffmpeg), or write a .wav.")
        }
        let analysis = StoryAnalyzer().analyze(request.document)
        let catalog = await VoiceCatalog.load(from: engines())
        guard !catalog.voices.isEmpty else { throw NarrationError.noVoices }

        var overrides = request.castFile
        var modelSummary: String?
        // Paid voices are cast only when asked for; a cast file may still name them.
        let castable = CastableVoices.automatic(catalog.voices, includingPaid: request.includePaidVoices)
        func cast(_ overrides: Cast?) -> Cast {
            CastableVoices.cast(analysis, voices: castable, preference: request.preference, narrator: overrides?.narrator,
                                characters: overrides?.characters ?? [:])
        }
        if let modelCasting = request.modelCasting {
            let suggested = try await modelCasting.suggest(
                analysis: analysis, title: request.document.title, voices: castable, overrides: overrides,
                narrator: cast(nil).narrator)
            overrides = suggested.cast
            modelSummary = suggested.summary
        }
        let cast = cast(overrides)
        let castFile = request.output.deletingPathExtension().appendingPathExtension("cast.json")
        try CastFile.write(cast, to: castFile)
        return Plan(
            analysis: analysis, cast: cast, castFile: castFile,
            cloudCost: CloudCost.of(cast, analysis: analysis, text: request.document.text, catalog: catalog),
            modelSummary: modelSummary, catalog: catalog)
    }

    /// Renders every line (through the cache), assembles and encodes the book.
    public func render(_ plan: Plan, progress: @escaping @Sendable (NarrationProgress) -> Void) async throws -> NarrationResult {
        let cacheDirectory = request.cacheDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-nocache-\(UUID.random().uuidString)")
        defer { if request.cacheDirectory == nil { try? FileManager.default.removeItem(at: cacheDirectory) } }
        let narrator = Narrator(catalog: plan.catalog, cache: try SegmentCache(directory: cacheDirectory), transcriber: request.transcriber,
                                speeds: request.speeds)
        return try await narrator.narrate(
            document: request.document, analysis: plan.analysis, cast: plan.cast, to: request.output, options: request.options,
            progress: progress)
    }
}

/// Reads and writes cast files: `{"narrator": {...}, "characters": {"c1": {...}}}`.
public enum CastFile {
    public static func read(_ url: URL) throws -> Cast {
        do {
            return try JSONDecoder().decode(Cast.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw ServiceError(.invalid, code: "invalid_cast",
                             "\(url.path) is not a valid cast file: \(error.localizedDescription). Start from the NAME.cast.json that narrate writes.")
        }
    }

    public static func write(_ cast: Cast, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(cast).write(to: url, options: .atomic)
    }
}
