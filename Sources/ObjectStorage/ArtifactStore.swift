import Foundation
import NIOCore

/// Where finished files live — exports, chat videos, journey audio (issue 52): this machine's
/// data directory (the embedded default) or an S3 bucket that every server and worker shares.
/// Keys are relative paths (`renders/<story>/story.m4b`), the same in both, so a record written
/// on one store names its file in the other too.
public protocol ArtifactStore: Sendable {
    /// The store for an operator (a folder, or an endpoint and bucket; never keys).
    var place: String { get }

    /// Keeps the finished file at `file` under `key`, whole or not at all: a reader sees the old
    /// object or the new one, never part of one. The local file is consumed (moved into place,
    /// or uploaded and removed), so temporary files never pile up on a worker.
    func keep(_ file: URL, as key: String, contentType: String) async throws

    /// Keeps `data` under `key`, whole or not at all.
    func keep(_ data: Data, as key: String, contentType: String) async throws

    /// The object's size and version tag, nil when there is none.
    func object(_ key: String) async throws -> StoredObject?

    /// The object's bytes (all, or `range`, inclusive as HTTP counts it) as they are read.
    func read(_ key: String, range: ClosedRange<Int>?) async throws -> AsyncThrowingStream<ByteBuffer, any Error>

    /// Removes the object; one that is not there is fine.
    func delete(_ key: String) async throws

    /// Removes every object under `prefix` (a story's renders when the story goes).
    func delete(prefix: String) async throws

    /// The object as a file on this machine, when the store is this machine's disk: a web server
    /// sends it with its own file streaming.
    func localFile(_ key: String) -> URL?
}

/// What a store says of one object without reading it.
public struct StoredObject: Sendable, Equatable {
    public var size: Int
    /// Changes whenever the object does (S3's ETag; size and time for a file): a client
    /// revalidates its copy with it.
    public var tag: String

    public init(size: Int, tag: String) {
        self.size = size
        self.tag = tag
    }
}

extension ArtifactStore {
    /// Whether the store keeps `key` in `file` itself (the data directory as the store): then
    /// there is nothing to copy, and nothing to clean up after keeping.
    public func holds(_ file: URL, as key: String) -> Bool {
        localFile(key)?.standardizedFileURL.path == file.standardizedFileURL.path
    }

    /// The object's size in bytes, nil when there is none.
    public func size(of key: String) async throws -> Int? { try await object(key)?.size }

    /// The whole object in memory: only for small ones (timings, manifests).
    public func data(_ key: String, limit: Int = 64 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in try await read(key, range: nil) {
            data.append(contentsOf: chunk.readableBytesView)
            if data.count > limit { throw ArtifactError.tooLarge(key, limit: limit) }
        }
        return data
    }
}

/// Why the store could not do what was asked.
public enum ArtifactError: Error, CustomStringConvertible, Equatable {
    case notFound(String)
    case tooLarge(String, limit: Int)
    /// The store did not answer, or refused (a network down, a store failing, wrong keys):
    /// worth trying again later; `reason` is for operators.
    case unavailable(place: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let key): "'\(key)' is not in the store"
        case .tooLarge(let key, let limit): "'\(key)' is larger than \(limit) bytes"
        case .unavailable(let place, let reason): "the file store (\(place)) did not answer: \(reason)"
        }
    }
}

/// Files under one folder on this machine (the data directory).
public struct DirectoryStore: ArtifactStore {
    public let root: URL

    public init(root: URL) { self.root = root }

    public var place: String { root.path }

    public func url(_ key: String) -> URL { root.appendingPathComponent(key) }

    public func keep(_ file: URL, as key: String, contentType: String) async throws {
        let target = url(key)
        if file.standardizedFileURL.path == target.standardizedFileURL.path { return }
        let directory = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Into the target's folder under a hidden name first (a copy when the file is on another
        // disk), then one rename: a reader never opens half a file.
        let staged = directory.appendingPathComponent(".\(target.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).keeping")
        try FileManager.default.moveItem(at: file, to: staged)
        guard rename(staged.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: staged)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)])
        }
    }

    /// Written beside its place and renamed into it (`.atomic`), with no detour through a temporary folder.
    public func keep(_ data: Data, as key: String, contentType: String) async throws {
        let target = url(key)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target, options: .atomic)
    }

    public func object(_ key: String) async throws -> StoredObject? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url(key).path),
              let size = (attributes[.size] as? NSNumber)?.intValue else { return nil }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return StoredObject(size: size, tag: "\"\(size)-\(Int(modified * 1_000))\"")
    }

    public func read(_ key: String, range: ClosedRange<Int>?) async throws -> AsyncThrowingStream<ByteBuffer, any Error> {
        guard let handle = FileHandle(forReadingAtPath: url(key).path) else { throw ArtifactError.notFound(key) }
        let reader = FileChunks(handle: handle, range: range)
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }

    public func delete(_ key: String) async throws {
        do {
            try FileManager.default.removeItem(at: url(key))
        } catch CocoaError.fileNoSuchFile {
        }
    }

    public func delete(prefix: String) async throws {
        let folder = url(prefix)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
    }

    public func localFile(_ key: String) -> URL? { url(key) }
}

/// A file read a chunk at a time by one reader (an unfolding stream never calls concurrently).
final class FileChunks: @unchecked Sendable {
    private let handle: FileHandle
    private var left: Int
    static let chunkSize = 256 << 10

    init(handle: FileHandle, range: ClosedRange<Int>?) {
        self.handle = handle
        if let range {
            try? handle.seek(toOffset: UInt64(range.lowerBound))
            left = range.count
        } else {
            left = .max
        }
    }

    deinit { try? handle.close() }

    func next() throws -> ByteBuffer? {
        guard left > 0, let data = try handle.read(upToCount: min(left, Self.chunkSize)), !data.isEmpty else { return nil }
        left -= data.count
        return ByteBuffer(bytes: data)
    }
}

/// Objects in an S3 bucket (under the location's prefix): any server reads what any worker kept.
public struct BucketStore: ArtifactStore {
    public let client: S3Client

    public init(client: S3Client) { self.client = client }

    public var place: String { "\(client.location.endpoint), bucket \(client.location.bucket)" }

    /// Uploaded whole (multipart for a large file; a failed one is aborted, so no half object
    /// is left), then the local file is removed.
    public func keep(_ file: URL, as key: String, contentType: String) async throws {
        try await answering { try await client.put(file: file, key: key, contentType: contentType) }
        try? FileManager.default.removeItem(at: file)
    }

    public func keep(_ data: Data, as key: String, contentType: String) async throws {
        try await answering { try await client.put(data, key: key, contentType: contentType) }
    }

    public func object(_ key: String) async throws -> StoredObject? {
        guard let head = try await answering({ try await client.head(key) }) else { return nil }
        return StoredObject(size: head.size, tag: head.etag ?? "\"\(head.size)\"")
    }

    public func read(_ key: String, range: ClosedRange<Int>?) async throws -> AsyncThrowingStream<ByteBuffer, any Error> {
        try await answering {
            do {
                return try await client.stream(key, range: range)
            } catch let error as S3Error where error.status == 404 {
                throw ArtifactError.notFound(key)
            }
        }
    }

    public func delete(_ key: String) async throws { try await answering { try await client.delete(key) } }

    public func delete(prefix: String) async throws {
        try await answering {
            for key in try await client.keys(prefix: prefix.hasSuffix("/") ? prefix : prefix + "/") { try await client.delete(key) }
        }
    }

    /// Failures of the store itself (not a missing key) as `ArtifactError.unavailable`, so
    /// callers tell users "try again" in one way whatever the transport said.
    private func answering<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ArtifactError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ArtifactError.unavailable(place: place, reason: "\(error)")
        }
    }

    public func localFile(_ key: String) -> URL? { nil }
}

extension S3Location {
    /// `STORYVOICE_S3_URL` (`http://ACCESS:SECRET@HOST:PORT/BUCKET?region=R`), or the same in
    /// parts, for secret stores that hand out one value per variable: `STORYVOICE_S3_ENDPOINT`,
    /// `STORYVOICE_S3_BUCKET`, `STORYVOICE_S3_ACCESS_KEY`, `STORYVOICE_S3_SECRET_KEY`, and
    /// optionally `STORYVOICE_S3_REGION` and `STORYVOICE_S3_PREFIX`. Nil when neither is set; a
    /// setting that cannot be used is an error, never a silent fallback to one machine's disk.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3Location? {
        func value(_ name: String) -> String? { environment["STORYVOICE_S3_\(name)"].flatMap { $0.isEmpty ? nil : $0 } }
        if let text = value("URL") {
            guard let location = S3Location(url: text) else {
                throw S3Error(code: "InvalidConfiguration", status: 0, message: "STORYVOICE_S3_URL is not http(s)://ACCESS:SECRET@HOST[:PORT]/BUCKET[?region=R]")
            }
            return location
        }
        let parts = ["ENDPOINT", "BUCKET", "ACCESS_KEY", "SECRET_KEY"]
        let given = parts.filter { value($0) != nil }
        if given.isEmpty { return nil }
        guard given.count == parts.count, let endpoint = value("ENDPOINT"), let scheme = URLComponents(string: endpoint)?.scheme,
              ["http", "https"].contains(scheme) else {
            let missing = parts.filter { value($0) == nil }.map { "STORYVOICE_S3_\($0)" }
            throw S3Error(code: "InvalidConfiguration", status: 0, message: missing.isEmpty
                ? "STORYVOICE_S3_ENDPOINT is not an http(s):// address"
                : "the store is half set: \(missing.joined(separator: ", ")) missing")
        }
        return S3Location(endpoint: endpoint, bucket: value("BUCKET")!, prefix: value("PREFIX") ?? "", region: value("REGION") ?? "us-east-1",
                          accessKey: value("ACCESS_KEY")!, secretKey: value("SECRET_KEY")!)
    }
}
