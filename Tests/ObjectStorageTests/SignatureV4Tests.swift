import Foundation
@testable import ObjectStorage
import Testing

/// AWS's published examples: the SigV4 test suite's `get-vanilla` and `get-vanilla-query-order-key`
/// (service "service", us-east-1), and the S3 guide's "Examples: Signature calculations" (GET an
/// object with a range, PUT an object). Each signature is AWS's own; a change to the canonical
/// request, the scope or the key derivation breaks them.
@Suite struct SignatureV4Tests {
    static let suite = SignatureV4(
        credentials: .init(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), region: "us-east-1", service: "service")
    static let s3 = SignatureV4(
        credentials: .init(accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), region: "us-east-1")

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test("get-vanilla")
    func getVanilla() {
        let added = Self.suite.sign(method: "GET", path: "/", headers: ["Host": "example.amazonaws.com"],
                                    payloadHash: SignatureV4.emptyPayloadHash, date: Self.date("2015-08-30T12:36:00Z"))
        #expect(added["x-amz-date"] == "20150830T123600Z")
        #expect(added["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
        #expect(added["x-amz-content-sha256"] == nil)
    }

    @Test("the canonical query is sorted by name and each part percent-encoded")
    func canonicalQuery() {
        let canonical = Self.suite.canonicalRequest(
            method: "GET", path: "/", query: [("Param2", "value2"), ("Param1", "value 1/ü")], headers: ["host": "h"], payloadHash: "x")
        #expect(canonical.request.split(separator: "\n", omittingEmptySubsequences: false)[2] == "Param1=value%201%2F%C3%BC&Param2=value2")
    }

    @Test("the S3 guide's GET object with a range")
    func s3GetObject() {
        let added = Self.s3.sign(method: "GET", path: "/test.txt", headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
                                 payloadHash: SignatureV4.emptyPayloadHash, date: Self.date("2013-05-24T00:00:00Z"))
        #expect(added["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(added["x-amz-content-sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("the S3 guide's PUT object, its body hashed and a key needing encoding")
    func s3PutObject() {
        let body = Data("Welcome to Amazon S3.".utf8)
        let added = Self.s3.sign(
            method: "PUT", path: "/" + SignatureV4.encode("test$file.text", keepSlash: true),
            headers: ["Host": "examplebucket.s3.amazonaws.com", "Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: SignatureV4.payloadHash(body), date: Self.date("2013-05-24T00:00:00Z"))
        #expect(added["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(added["x-amz-content-sha256"] == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
    }

    @Test("the signing key is the four-HMAC chain of AWS's IAM example")
    func signingKey() {
        let signer = SignatureV4(credentials: .init(accessKey: "", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), region: "us-east-1", service: "iam")
        let key = signer.signingKey(day: "20150830").withUnsafeBytes { SignatureV4.hex(Array($0)) }
        #expect(key == "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9")
    }
}
