import Crypto
import Foundation
import VendorHTTP

/// Answers on disk, keyed by a SHA-256 of the canonical request, so re-analysing unchanged
/// text sends nothing and costs nothing.
///
/// The key covers provider, model, both messages, the schema and the temperature; anything
/// else changing (a key, a timeout) does not change the answer and so does not miss the cache.
public struct ResponseCache: Sendable {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Bumped when the stored shape or key material changes.
    static let version = 1

    public static func key(for request: CompletionRequest, provider: Provider, model: String) -> String {
        var material: [String: JSONValue] = [
            "v": .number(Double(version)),
            "provider": .string(provider.rawValue),
            "model": .string(model),
            "system": .string(request.system),
            "user": .string(request.user),
            "temperature": .number(request.temperature),
        ]
        // Only when there is one, so answers cached before conversations existed keep their keys.
        if !request.history.isEmpty {
            material["history"] = .array(request.history.map { ["role": .string($0.role.rawValue), "text": .string($0.text)] })
        }
        if let schema = request.schema {
            material["schema"] = ["name": .string(schema.name), "schema": schema.schema]
        }
        return SHA256.hash(data: JSONValue.object(material).canonicalData).map { String(format: "%02x", $0) }.joined()
    }

    func url(for key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2)), isDirectory: true).appendingPathComponent("\(key).json")
    }

    public func load(_ key: String) -> CompletionResponse? {
        guard let data = try? Data(contentsOf: url(for: key)) else { return nil }
        return try? JSONDecoder().decode(CompletionResponse.self, from: data)
    }

    public func store(_ response: CompletionResponse, for key: String) throws {
        let destination = url(for: key)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written to a temporary file and renamed: a reader never sees half an answer.
        try JSONEncoder().encode(response).write(to: destination, options: .atomic)
    }
}
