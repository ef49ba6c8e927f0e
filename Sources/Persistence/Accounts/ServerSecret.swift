import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's one 32-byte secret, from which purpose-specific keys are derived (HKDF-SHA256),
/// so encrypting API keys and signing access tokens never share key material.
///
/// Read from `STORYVOICE_SECRET_KEY` (base64 of 32 bytes) when set; otherwise from `secret.key`
/// in the data directory, which is created with mode 0600 on first start.
public struct ServerSecret: Sendable {
    private let key: SymmetricKey

    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw PersistenceError.invalidSecretKey(reason: "it must be 32 bytes, not \(key.bitCount / 8)")
        }
        self.key = key
    }

    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PersistenceError.invalidSecretKey(reason: "it is not base64")
        }
        try self.init(key: SymmetricKey(data: data))
    }

    /// A key for one purpose, e.g. "provider-api-keys" or "access-tokens".
    public func derivedKey(for purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key,
            salt: Data("storyvoice".utf8),
            info: Data(purpose.utf8),
            outputByteCount: 32
        )
    }

    /// The secret from the environment, or the data directory's key file (created if missing).
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        dataDirectory: DataDirectory
    ) throws -> ServerSecret {
        if let value = environment["STORYVOICE_SECRET_KEY"], !value.isEmpty {
            return try ServerSecret(base64: value)
        }
        try dataDirectory.create()
        return try loadOrCreateKeyFile(at: dataDirectory.secretKeyFile.path)
    }

    static func loadOrCreateKeyFile(at path: String) throws -> ServerSecret {
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // O_EXCL: two processes starting at once agree on whichever file was created first.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            let encoded = Array((fresh.base64EncodedString() + "\n").utf8)
            let written = encoded.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == encoded.count else {
                throw PersistenceError.secretKeyFileUnreadable(path: path, reason: "could not write it")
            }
            return try ServerSecret(key: SymmetricKey(data: fresh))
        }
        guard errno == EEXIST else {
            throw PersistenceError.secretKeyFileUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let contents: String
        do {
            contents = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw PersistenceError.secretKeyFileUnreadable(path: path, reason: "\(error)")
        }
        do {
            return try ServerSecret(base64: contents)
        } catch {
            throw PersistenceError.secretKeyFileUnreadable(path: path, reason: "it does not hold base64 of 32 bytes")
        }
    }
}

/// Seals and opens short secrets (provider API keys) with AES-GCM.
/// The stored form is nonce ‖ ciphertext ‖ tag, so each value carries its own random nonce.
/// A value sealed `boundTo` a context (its owner and vendor) opens only for that context: a
/// sealed key copied into another user's row, or under another vendor, does not open.
public struct SecretBox: Sendable {
    private let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    public init(secret: ServerSecret) {
        self.init(key: secret.derivedKey(for: "provider-api-keys"))
    }

    public func seal(_ plaintext: String, boundTo context: String? = nil) throws -> Data {
        let sealed = try context.map { try AES.GCM.seal(Data(plaintext.utf8), using: key, authenticating: Data($0.utf8)) }
            ?? AES.GCM.seal(Data(plaintext.utf8), using: key)
        guard let combined = sealed.combined else { throw PersistenceError.decryptionFailed }
        return combined
    }

    public func open(_ sealed: Data, boundTo context: String? = nil) throws -> String {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try context.map { try AES.GCM.open(box, using: key, authenticating: Data($0.utf8)) } ?? AES.GCM.open(box, using: key)
            guard let text = String(data: plain, encoding: .utf8) else { throw PersistenceError.decryptionFailed }
            return text
        } catch {
            throw PersistenceError.decryptionFailed
        }
    }
}
