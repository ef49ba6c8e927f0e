import Audio
import Crypto
import Foundation
import StoryModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store of rendered lines that every server and worker shares (an S3 bucket; issue 52),
/// behind each machine's own ``SegmentCache``: a line rendered anywhere is fetched, not
/// rendered again. Keys are ``SegmentCache/key(text:voice:engine:engineVersion:settings:renderVersion:)``s.
public protocol SharedSegmentStore: Sendable {
    /// The line's WAV, or nil when the store has none.
    func audio(for key: String) async throws -> Data?
    func store(audio: Data, for key: String) async throws
}

/// Content-addressed store of rendered utterances: one WAV per key, written atomically, so an
/// interrupted render resumes and an edit re-renders only what changed. With a `shared` store,
/// it is that store's local copy: a miss here is looked for there, a new line is put there.
public struct SegmentCache: Sendable {
    public let directory: URL
    public var shared: (any SharedSegmentStore)?

    public init(directory: URL, shared: (any SharedSegmentStore)? = nil) throws {
        self.directory = directory
        self.shared = shared
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Whether `key` is here, after copying it from the shared store when only that has it. A
    /// store that cannot be reached counts as not having it: the line is rendered here instead.
    public func fetchFromShared(_ key: String) async -> Bool {
        if sampleCount(for: key) != nil { return true }
        guard let shared, let wav = try? await shared.audio(for: key), wav.count >= 44 else { return false }
        return (try? write(wav, to: url(for: key))) != nil && sampleCount(for: key) != nil
    }

    /// Puts the line stored here under `key` into the shared store, so other machines find it.
    /// Throws the store's error; the line stays here either way.
    public func publish(_ key: String) async throws {
        guard let shared else { return }
        try await shared.store(audio: try Data(contentsOf: url(for: key)), for: key)
    }

    /// Where StoryVoice caches derived work (rendered lines, model answers): `$STORYVOICE_CACHE_DIR`,
    /// else `$XDG_CACHE_HOME/storyvoice`, else `~/.cache/storyvoice`.
    public static func cacheRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["STORYVOICE_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("storyvoice", isDirectory: true)
    }

    /// The default location of rendered lines: `segments/` under ``cacheRoot(environment:)``.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        cacheRoot(environment: environment).appendingPathComponent("segments", isDirectory: true)
    }

    /// The key of one rendering: everything that changes the audio, and nothing else.
    public static func key(text: String, voice: String, engine: String, engineVersion: String, settings: [String: Double], renderVersion: Int) -> String {
        var material = "v\(renderVersion)\u{1F}\(engine)\u{1F}\(engineVersion)\u{1F}\(voice)"
        for name in settings.keys.sorted() { material += "\u{1F}\(name)=\(settings[name]!)" }
        material += "\u{1F}\(text)"
        return SHA256.hash(data: Data(material.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func url(for key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2)), isDirectory: true).appendingPathComponent("\(key).wav")
    }

    /// The number of samples stored under `key`, or nil when it is not cached (or unreadable).
    public func sampleCount(for key: String) -> Int? {
        let path = url(for: key).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.intValue, size >= 44 else { return nil }
        return (size - 44) / 2
    }

    public func store(_ audio: PCMAudio, for key: String) throws {
        try write(WAV.encode(audio), to: url(for: key))
    }

    /// Writes `bytes` to `destination` through a temporary file and a rename.
    private func write(_ bytes: Data, to destination: URL) throws {
        let key = destination.deletingPathExtension().lastPathComponent
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(key).\(UUID.random().uuidString).tmp")
        try bytes.write(to: temporary)
        // rename(2) replaces atomically: a reader never sees half a file, and two workers
        // storing the same key cannot fail each other.
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "could not store \(destination.path): \(String(cString: strerror(code)))"])
        }
    }

    /// How the line under `key` was produced (stored beside its audio), if recorded.
    public func record(for key: String) -> LineRecord? {
        (try? Data(contentsOf: recordURL(for: key))).flatMap { try? JSONDecoder().decode(LineRecord.self, from: $0) }
    }

    public func storeRecord(_ record: LineRecord, for key: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(record).write(to: recordURL(for: key), options: .atomic)
    }

    /// The line under `key` as Ogg Opus, if it was stored.
    public func compressed(for key: String) -> Data? {
        try? Data(contentsOf: compressedURL(for: key))
    }

    public func storeCompressed(_ opus: Data, for key: String) throws {
        try opus.write(to: compressedURL(for: key), options: .atomic)
    }

    func compressedURL(for key: String) -> URL {
        url(for: key).deletingPathExtension().appendingPathExtension("opus")
    }

    func recordURL(for key: String) -> URL {
        url(for: key).deletingPathExtension().appendingPathExtension("json")
    }

    public func load(_ key: String) throws -> PCMAudio {
        try WAV.decode(Data(contentsOf: url(for: key)))
    }
}
