import Audio
import Foundation
import ProcessWorkers
import Logging
import Speech
import StoryModel

/// eSpeak NG: a small formant synthesizer with many English accents and voice variants.
///
/// Its voices are every English accent espeak-ng lists (MBROLA ones excepted: they need the
/// non-free mbrola program) combined with a curated set of its human-sounding variants. Each
/// synthesis runs `espeak-ng` as its own process, text from a file, WAV on standard output.
public actor EspeakEngine: SpeechSynthesizer {
    public nonisolated let engineID = "espeak-ng"
    public static let installHint = "Install it with 'sudo apt-get install espeak-ng' or run scripts/setup."

    /// The variants offered with every accent. espeak-ng ships about a hundred; many are
    /// novelty effects (whisper, croak, robots, demonic, Klatt buzz) that would spoil a book,
    /// so only the numbered standard variants and other plain human voices are used.
    public static let standardVariants: [String] = [
        "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8",
        "f1", "f2", "f3", "f4", "f5",
        "Andy", "Denis", "Gene", "Michael", "Mike", "max", "robert", "victor", "grandpa",
        "Alicia", "Andrea", "Annie", "aunty", "belinda", "linda", "steph", "anika", "grandma",
    ]
    /// Variants that sound old; the listing gives ages, but m1 and f1 claim 70 and do not sound it.
    static let elderlyVariants: Set<String> = ["grandpa", "grandma"]

    private let executableName: String
    private let locator: ExecutableLocator
    private let variants: [String]
    private let logger: Logger
    private var cachedVoices: [Voice]?

    public init(
        executable: String = "espeak-ng", locator: ExecutableLocator = ExecutableLocator(),
        variants: [String] = EspeakEngine.standardVariants, logger: Logger = Logger(label: "storyvoice.espeak-ng")
    ) {
        self.executableName = executable
        self.locator = locator
        self.variants = variants
        self.logger = logger
    }

    public func info() async -> EngineInfo {
        guard let process = process() else {
            return EngineInfo(id: engineID, name: "eSpeak NG", version: nil, installed: false, installHint: Self.installHint)
        }
        let version = try? await process.run(["--version"], requireSuccess: false)
        return EngineInfo(
            id: engineID, name: "eSpeak NG",
            version: version.flatMap { EspeakListing.version(fromVersionOutput: String(decoding: $0.standardOutput, as: UTF8.self)) },
            installed: true, installHint: Self.installHint)
    }

    public func voices() async throws -> [Voice] {
        if let cachedVoices { return cachedVoices }
        guard let process = process() else { return [] }
        let accents = EspeakListing.parse(String(decoding: try await process.run(["--voices=en"]).standardOutput, as: UTF8.self))
            .filter { !$0.isMBROLA && !$0.isVariant && $0.language != "variant" }
        let listedVariants = EspeakListing.parse(String(decoding: try await process.run(["--voices=variant"]).standardOutput, as: UTF8.self))
            .filter(\.isVariant)
        let versionOutput = String(decoding: (try? await process.run(["--version"], requireSuccess: false))?.standardOutput ?? [], as: UTF8.self)
        let dataDirectory = EspeakListing.dataDirectory(fromVersionOutput: versionOutput)

        var seenLanguages = Set<String>()
        let languages = accents.map(\.language).filter { seenLanguages.insert($0).inserted }
        let variantsByName = Dictionary(listedVariants.map { ($0.variantName, $0) }, uniquingKeysWith: { first, _ in first })
        let offered = variants.compactMap { variantsByName[$0] }
        if offered.count < variants.count {
            logger.debug("espeak-ng lacks variants", metadata: ["missing": "\(variants.filter { variantsByName[$0] == nil })"])
        }

        var voices: [Voice] = []
        for language in languages {
            let accent = EspeakListing.accentTag(forLanguage: language)
            for variant in offered {
                let name = variant.variantName
                voices.append(Voice(
                    id: "\(engineID):\(language)+\(name)", engine: engineID, engineVoice: "\(language)+\(name)",
                    displayName: "\(Self.accentName(accent)) \(variant.name)",
                    gender: variant.gender,
                    age: Self.elderlyVariants.contains(name) ? .elderly : .adult,
                    accent: accent,
                    pitch: Self.relativePitch(ofVariant: name, gender: variant.gender, dataDirectory: dataDirectory),
                    quality: VoiceQuality.formant.rawValue,
                    style: ["formant"]))
            }
        }
        cachedVoices = voices
        return voices
    }

    public func synthesize(_ text: String, voice: Voice, settings: SpeechSettings) async throws -> PCMAudio {
        guard let process = process() else {
            throw SpeechError.engineNotInstalled(engine: engineID, hint: Self.installHint)
        }
        guard voice.engine == engineID, try await voices().contains(where: { $0.engineVoice == voice.engineVoice }) else {
            throw SpeechError.unknownVoice(voice.id)
        }
        let arguments = [
            "-v", voice.engineVoice,
            "-s", String(Self.wordsPerMinute(rate: settings.rate)),
            "-p", String(EspeakPitchScale.value(forSemitones: settings.pitch)),
            "-a", String(Int((100 * min(max(settings.volume, 0), 2)).rounded())),
            "-b", "1",  // the text is UTF-8
            "--stdout",
        ]
        // The text goes in a file, which espeak-ng reads whole (no input pipe to feed).
        let output = try await TemporaryDirectory.with(prefix: "espeak") { directory in
            let file = directory.path("text.txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return try await process.run(arguments + ["-f", file], outputLimit: EngineProcess.audioLimit(forText: text))
        }
        let audio: PCMAudio
        do {
            audio = try WAV.decode(Data(output.standardOutput))
        } catch {
            throw SpeechError.engineFailed(engine: engineID, status: "unreadable audio", message: "\(error). \(EngineProcess.excerpt(output.standardError))")
        }
        try EngineProcess.requireSpeech(audio, engine: engineID, text: text)
        return audio
    }

    /// espeak-ng's normal rate is 175 words a minute; it accepts 80–450 (beyond that it clamps
    /// or garbles), so the multiplier is clamped to what it can honour.
    static func wordsPerMinute(rate: Double) -> Int {
        Int((175 * rate).rounded()).clamped(to: 80...450)
    }

    /// A variant's pitch in semitones against espeak-ng's own reference for its gender
    /// (100 Hz male, 180 Hz female, the middle of the standard variants' ranges).
    static func relativePitch(ofVariant name: String, gender: Gender, dataDirectory: String?) -> Double {
        guard let dataDirectory,
              let contents = try? String(contentsOfFile: "\(dataDirectory)/voices/!v/\(name)", encoding: .utf8)
        else { return 0 }
        let hz = EspeakListing.variantPitchHz(fileContents: contents)
        let reference = gender == .female ? 180.0 : 100.0
        return ((12 * log2(hz / reference)) * 10).rounded() / 10
    }

    static func accentName(_ tag: String) -> String {
        AccentCatalog.name(ofTag: tag) ?? tag
    }

    private func process() -> EngineProcess? {
        locator.locate(executableName).map { EngineProcess(engine: engineID, executable: $0) }
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
