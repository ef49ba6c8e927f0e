import Foundation

/// A JWS in compact serialisation (`header.payload.signature`, each base64url), split and
/// decoded but not yet trusted.
struct CompactJWS {
    /// The header's `alg` (nil when absent).
    var algorithm: String?
    /// The header's `x5c`: standard base64 DER certificates, leaf first.
    var certificateChain: [String]?
    var payload: Data
    /// The bytes the signature covers: `header.payload` as sent.
    var signingInput: Data
    var signature: Data

    private struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    /// - Throws: ``AppStoreError/malformed(_:)`` when `text` is not a compact JWS.
    init(_ text: String) throws(AppStoreError) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed("it is not a signed transaction (a JWS has three parts separated by dots, this has \(parts.count))")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2])
        else {
            throw .malformed("a part of the JWS is not base64url")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerBytes) else {
            throw .malformed("the JWS header is not JSON")
        }
        algorithm = header.alg
        certificateChain = header.x5c
        self.payload = payload
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }
}

/// Base64url without padding (RFC 7515 §2), as JWS uses it.
public enum Base64URL {
    public static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Nil for characters outside the base64url alphabet (standard `+` and `/` included).
    public static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
