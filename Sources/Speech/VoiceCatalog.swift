import Foundation

/// Every voice the installed engines offer, and which engine speaks each.
public struct VoiceCatalog: Sendable {
    /// Voices in engine order, then as each engine lists them.
    public private(set) var voices: [Voice]
    /// What each engine reported about itself, installed or not, in the order given.
    public private(set) var engines: [EngineInfo]
    /// Engines that are installed but failed to list their voices: engine id → what went wrong.
    public private(set) var failures: [String: String]

    private var synthesizers: [String: any SpeechSynthesizer]
    private var index: [String: Int]

    public init(voices: [Voice], engines: [EngineInfo], synthesizers: [any SpeechSynthesizer], failures: [String: String] = [:]) {
        var seen = Set<String>()
        self.voices = voices.filter { seen.insert($0.id).inserted }
        self.engines = engines
        self.failures = failures
        self.synthesizers = Dictionary(synthesizers.map { ($0.engineID, $0) }, uniquingKeysWith: { first, _ in first })
        self.index = Dictionary(uniqueKeysWithValues: self.voices.enumerated().map { ($1.id, $0) })
    }

    /// Asks every engine, concurrently, what it is and which voices it has. An engine that is
    /// missing contributes its `EngineInfo` and no voices; one whose listing fails is recorded
    /// in `failures` rather than hiding the others.
    public static func load(from engines: [any SpeechSynthesizer]) async -> VoiceCatalog {
        let results = await withTaskGroup(of: (Int, EngineInfo, Result<[Voice], any Error>).self) { group in
            for (position, engine) in engines.enumerated() {
                group.addTask {
                    let info = await engine.info()
                    guard info.installed else { return (position, info, .success([])) }
                    do {
                        return (position, info, .success(try await engine.voices()))
                    } catch {
                        return (position, info, .failure(error))
                    }
                }
            }
            var collected: [(Int, EngineInfo, Result<[Voice], any Error>)] = []
            for await result in group { collected.append(result) }
            return collected.sorted { $0.0 < $1.0 }
        }
        var voices: [Voice] = []
        var failures: [String: String] = [:]
        for (_, info, result) in results {
            switch result {
            case .success(let engineVoices): voices += engineVoices
            case .failure(let error): failures[info.id] = "\(error)"
            }
        }
        return VoiceCatalog(voices: voices, engines: results.map(\.1), synthesizers: engines, failures: failures)
    }

    /// The voice with this id. Ids are matched leniently where that cannot pick the wrong
    /// voice: case is ignored (`espeak-ng:en-US+F3`), `espeak:` means `espeak-ng:`, a voice
    /// may be named without its engine when only one engine has it (`en-us+f3`), and by a
    /// distinctive part of its engine name when that is unique within the engine
    /// (`festival:slt` for `festival:cmu_us_slt_arctic_hts`).
    public func voice(id: String) -> Voice? {
        if let position = index[id] { return voices[position] }
        let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return nil }
        let (engine, name): (String?, String) = {
            guard let colon = wanted.firstIndex(of: ":") else { return (nil, wanted) }
            let engine = String(wanted[..<colon])
            return (Self.engineAliases[engine] ?? engine, String(wanted[wanted.index(after: colon)...]))
        }()
        let pool = voices.filter { engine == nil || $0.engine.lowercased() == engine }
        let exact = pool.filter { $0.engineVoice.lowercased() == name }
        let partial = pool.filter { voice in
            voice.engineVoice.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0 == name }
        }
        // Within one engine an exact name wins; across engines any other match makes it ambiguous.
        if engine != nil, let voice = Self.unique(exact) { return voice }
        var seen = Set<String>()
        return Self.unique((exact + partial).filter { seen.insert($0.id).inserted })
    }

    /// This catalogue with `other`'s engines and voices after its own (a voice id already here
    /// keeps this catalogue's voice and engine).
    public func merging(_ other: VoiceCatalog) -> VoiceCatalog {
        VoiceCatalog(
            voices: voices + other.voices, engines: engines + other.engines,
            synthesizers: Array(synthesizers.values) + other.synthesizers.values.filter { synthesizers[$0.engineID] == nil },
            failures: failures.merging(other.failures) { mine, _ in mine })
    }

    /// The engine that speaks `voice`, if it is in this catalogue's engines.
    public func engine(for voice: Voice) -> (any SpeechSynthesizer)? {
        synthesizers[voice.engine]
    }

    /// The installed engine info for an engine id.
    public func info(engine id: String) -> EngineInfo? {
        engines.first { $0.id == id }
    }

    static let engineAliases = ["espeak": "espeak-ng", "espeakng": "espeak-ng", "festival-hts": "festival"]

    private static func unique(_ candidates: [Voice]) -> Voice? {
        candidates.count == 1 ? candidates[0] : nil
    }
}
