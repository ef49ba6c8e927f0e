import Crypto
import Foundation

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`), as S3-compatible stores (SeaweedFS, Ceph RGW,
/// AWS S3) check it: the canonical request, the string to sign, the key derived by four HMACs
/// and the `Authorization` header. Pure: the time and the payload's hash are given, so the
/// signer is tested against AWS's published examples.
/// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
public struct SignatureV4: Sendable {
    public struct Credentials: Sendable {
        public var accessKey: String
        public var secretKey: String

        public init(accessKey: String, secretKey: String) {
            self.accessKey = accessKey
            self.secretKey = secretKey
        }
    }

    public var credentials: Credentials
    public var region: String
    public var service: String

    public init(credentials: Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The SHA-256 of an empty body, and the marker of a body not hashed (S3 over TLS allows it).
    public static let emptyPayloadHash = hex(SHA256.hash(data: Data()))
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256` for S3, and
    /// `Authorization`. `path` is the URI path as sent (each segment already percent-encoded),
    /// `query` the parameters unencoded; `headers` are those sent and signed (`host` among them).
    public func sign(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String],
        payloadHash: String, date: Date
    ) -> [String: String] {
        let (stamp, day) = Self.timestamps(date)
        var signedHeaders = headers
        signedHeaders["x-amz-date"] = stamp
        if service == "s3" { signedHeaders["x-amz-content-sha256"] = payloadHash }
        let canonical = canonicalRequest(method: method, path: path, query: query, headers: signedHeaders, payloadHash: payloadHash)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Data(canonical.request.utf8)))].joined(separator: "\n")
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: signingKey(day: day)))
        var added = ["x-amz-date": stamp]
        if service == "s3" { added["x-amz-content-sha256"] = payloadHash }
        added["Authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
        return added
    }

    /// The canonical request and the list of signed header names.
    func canonicalRequest(method: String, path: String, query: [(String, String)], headers: [String: String], payloadHash: String) -> (request: String, signedHeaders: String) {
        let names = headers.keys.map { $0.lowercased() }.sorted()
        let values = Dictionary(headers.map { ($0.key.lowercased(), Self.trimmed($0.value)) }, uniquingKeysWith: { first, _ in first })
        let canonicalHeaders = names.map { "\($0):\(values[$0] ?? "")\n" }.joined()
        let canonicalQuery = query.map { (Self.encode($0.0), Self.encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let signedHeaders = names.joined(separator: ";")
        return ([method, path.isEmpty ? "/" : path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n"), signedHeaders)
    }

    /// HMAC("AWS4" + secret, day) → region → service → "aws4_request".
    func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// "20150830T123600Z" and "20150830", in UTC.
    static func timestamps(_ date: Date) -> (stamp: String, day: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
        return (day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!), day)
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (AWS's `UriEncode`);
    /// with `keepSlash`, an object key's path (its "/" kept).
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where keepSlash:
                encoded.append("/")
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// A header value with its surrounding spaces removed and inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The hex SHA-256 of a body, for `payloadHash`.
    public static func payloadHash(_ body: some DataProtocol) -> String {
        hex(SHA256.hash(data: body))
    }
}
