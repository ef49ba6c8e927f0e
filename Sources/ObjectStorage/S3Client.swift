import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Where a bucket is and how to sign for it: `http://ACCESS:SECRET@HOST:PORT/BUCKET[/PREFIX]?region=R`
/// (the form `scripts/s3-test` prints), path-style addressing, as SeaweedFS, Ceph RGW and MinIO
/// expect and AWS S3 still accepts.
public struct S3Location: Sendable, Equatable {
    public var endpoint: String
    public var bucket: String
    /// Where in the bucket StoryVoice keeps its objects ("" or "staging/", ending in "/"): one
    /// bucket can hold several installations, or tests side by side.
    public var prefix: String
    public var region: String
    public var accessKey: String
    public var secretKey: String

    public init(endpoint: String, bucket: String, prefix: String = "", region: String = "us-east-1", accessKey: String, secretKey: String) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.region = region
        self.accessKey = accessKey
        self.secretKey = secretKey
    }

    /// Reads the URL form; nil when a part is missing.
    public init?(url text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme, let host = components.host,
              let user = components.percentEncodedUser?.removingPercentEncoding, let password = components.percentEncodedPassword?.removingPercentEncoding,
              !user.isEmpty, !password.isEmpty else { return nil }
        let path = components.path.split(separator: "/").map(String.init)
        guard let bucket = path.first, !bucket.isEmpty else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        let region = components.queryItems?.first { $0.name == "region" }?.value ?? "us-east-1"
        self.init(endpoint: "\(scheme)://\(host)\(port)", bucket: bucket, prefix: path.dropFirst().joined(separator: "/"), region: region,
                  accessKey: user, secretKey: password)
    }

    var host: String {
        URLComponents(string: endpoint).map { components in components.host.map { $0 + (components.port.map { ":\($0)" } ?? "") } ?? "" } ?? ""
    }
}

/// What an S3-compatible store answered when it refused: its `<Code>` ("NoSuchKey",
/// "SignatureDoesNotMatch") and HTTP status, or a transport failure.
public struct S3Error: Error, CustomStringConvertible, Equatable {
    public var code: String
    public var status: Int
    public var message: String

    public var description: String { "S3 \(status) \(code): \(message)" }

    public init(code: String, status: Int, message: String) {
        self.code = code
        self.status = status
        self.message = message
    }
}

/// A small S3 client for one bucket: create it, put (one request, or multipart for a file
/// larger than `partSize`, read a part at a time), get whole or a byte range, head, delete.
/// Every request is signed with ``SignatureV4`` and its payload's SHA-256.
public struct S3Client: Sendable {
    public let location: S3Location
    public let partSize: Int
    let signer: SignatureV4
    let http: HTTPClient
    let timeout: TimeAmount

    /// S3's smallest part is 5 MiB (except the last).
    public static let minimumPartSize = 5 << 20

    public init(location: S3Location, partSize: Int = 8 << 20, http: HTTPClient = .shared, timeout: TimeAmount = .seconds(60)) {
        self.location = location
        self.partSize = max(Self.minimumPartSize, partSize)
        self.signer = SignatureV4(credentials: .init(accessKey: location.accessKey, secretKey: location.secretKey), region: location.region)
        self.http = http
        self.timeout = timeout
    }

    /// Creates the bucket; one that exists and is ours is fine.
    public func createBucket() async throws {
        let response = try await send("PUT", path: "/\(location.bucket)")
        if response.status == 200 || (response.status == 409 && response.code == "BucketAlreadyOwnedByYou") { return }
        throw response.error
    }

    /// Stores `data` under `key`.
    public func put(_ data: Data, key: String, contentType: String = "application/octet-stream") async throws {
        let response = try await send("PUT", path: objectPath(key), headers: ["Content-Type": contentType], body: data)
        guard response.status == 200 else { throw response.error }
    }

    /// Stores the file at `file` under `key`: one request when it fits a part, else a multipart
    /// upload of `partSize` pieces read one at a time (never the whole file in memory). A failed
    /// multipart upload is aborted, so no half-written object or stray parts stay behind.
    public func put(file: URL, key: String, contentType: String = "application/octet-stream") async throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        if size <= partSize {
            try await put(try handle.read(upToCount: size) ?? Data(), key: key, contentType: contentType)
            return
        }
        let upload = try await startMultipart(key: key, contentType: contentType)
        do {
            var parts: [String] = []
            while let piece = try handle.read(upToCount: partSize), !piece.isEmpty {
                parts.append(try await uploadPart(piece, number: parts.count + 1, upload: upload, key: key))
            }
            try await completeMultipart(upload: upload, key: key, etags: parts)
        } catch {
            _ = try? await send("DELETE", path: objectPath(key), query: [("uploadId", upload)])
            throw error
        }
    }

    /// The object, or the bytes in `range` of it (as HTTP's Range counts them, inclusive).
    public func get(_ key: String, range: ClosedRange<Int>? = nil) async throws -> Data {
        var headers: [String: String] = [:]
        if let range { headers["Range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        let response = try await send("GET", path: objectPath(key), headers: headers)
        guard response.status == 200 || response.status == 206 else { throw response.error }
        return response.body
    }

    /// The object, or the bytes in `range` of it, as they arrive (never the whole in memory).
    /// The request is retried like any other until the store starts answering; once bytes flow,
    /// a broken connection ends the stream with its error. `streamTimeout` bounds the whole read,
    /// which follows the pace of whoever consumes it (a listener's download).
    public func stream(_ key: String, range: ClosedRange<Int>? = nil, streamTimeout: TimeAmount = .hours(6)) async throws -> AsyncThrowingStream<ByteBuffer, any Error> {
        var headers: [String: String] = [:]
        if let range { headers["Range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        var attempt = 0
        while true {
            do {
                let response = try await http.execute(signedRequest("GET", path: objectPath(key), headers: headers), timeout: streamTimeout)
                let status = Int(response.status.code)
                if status == 200 || status == 206 { return Self.chunks(of: response.body) }
                let body = Data((try await response.body.collect(upTo: 1 << 20)).readableBytesView)
                let failed = Response(status: status, headers: response.headers, body: body)
                guard [500, 503].contains(status), attempt < Self.retryDelays.count else { throw failed.error }
            } catch let error as HTTPClientError where attempt < Self.retryDelays.count && error != .deadlineExceeded {
            }
            try await Task.sleep(for: Self.retryDelays[attempt])
            attempt += 1
        }
    }

    /// Pulls a chunk from the network only when the reader asks for one, so a slow listener
    /// holds back the store instead of filling memory.
    static func chunks(of body: HTTPClientResponse.Body) -> AsyncThrowingStream<ByteBuffer, any Error> {
        let reader = PullReader(body.makeAsyncIterator())
        return AsyncThrowingStream(unfolding: { try await reader.next() })
    }

    /// The object's size, or nil when there is none.
    public func size(of key: String) async throws -> Int? {
        try await head(key)?.size
    }

    /// The object's size and ETag (HEAD), or nil when there is none.
    public func head(_ key: String) async throws -> (size: Int, etag: String?)? {
        let response = try await send("HEAD", path: objectPath(key))
        if response.status == 404 { return nil }
        guard response.status == 200, let size = response.headers.first(name: "Content-Length").flatMap(Int.init) else { throw response.error }
        return (size, response.headers.first(name: "ETag"))
    }

    /// Removes the object (one that is not there is fine, as S3 has it).
    public func delete(_ key: String) async throws {
        let response = try await send("DELETE", path: objectPath(key))
        guard response.status == 204 || response.status == 200 else { throw response.error }
    }

    /// The keys under `prefix` (within the location's own prefix, which they do not repeat), in
    /// order (ListObjectsV2, `pageSize` a request).
    public func keys(prefix: String, pageSize: Int = 1000) async throws -> [String] {
        var keys: [String] = [], token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", location.prefix + prefix), ("max-keys", String(pageSize))]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", path: "/\(location.bucket)", query: query)
            guard response.status == 200 else { throw response.error }
            keys += Self.elements("Key", in: response.body).map { String($0.dropFirst(location.prefix.count)) }
            token = Self.element("IsTruncated", in: response.body) == "true" ? Self.element("NextContinuationToken", in: response.body) : nil
        } while token != nil
        return keys
    }

    /// Writes, reads back and deletes a small object under `probes/`: that the store answers,
    /// takes the keys and keeps what it is given. Returns the seconds the three took.
    public func probe() async throws -> Double {
        let started = ContinuousClock.now
        let key = "probes/\(UInt64.random(in: 0...UInt64.max))"
        let written = Data("StoryVoice checks that it can write, read and delete here.".utf8)
        try await createBucket()
        try await put(written, key: key, contentType: "text/plain")
        let read = try await get(key)
        try await delete(key)
        guard read == written else { throw S3Error(code: "ProbeMismatch", status: 200, message: "the object read back differs from the one written") }
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // MARK: - Multipart

    func startMultipart(key: String, contentType: String) async throws -> String {
        let response = try await send("POST", path: objectPath(key), query: [("uploads", "")], headers: ["Content-Type": contentType])
        guard response.status == 200, let upload = Self.element("UploadId", in: response.body) else { throw response.error }
        return upload
    }

    func uploadPart(_ data: Data, number: Int, upload: String, key: String) async throws -> String {
        let response = try await send("PUT", path: objectPath(key), query: [("partNumber", String(number)), ("uploadId", upload)], body: data)
        guard response.status == 200, let etag = response.headers.first(name: "ETag") else { throw response.error }
        return etag
    }

    func completeMultipart(upload: String, key: String, etags: [String]) async throws {
        let parts = etags.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(Self.escaped($0.element))</ETag></Part>" }.joined()
        let body = Data("<CompleteMultipartUpload>\(parts)</CompleteMultipartUpload>".utf8)
        let response = try await send("POST", path: objectPath(key), query: [("uploadId", upload)], headers: ["Content-Type": "application/xml"], body: body)
        // S3 may answer 200 with an <Error> inside when the completion fails late.
        guard response.status == 200, Self.element("Code", in: response.body) == nil else { throw response.error }
    }

    // MARK: - Requests

    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        var code: String? { S3Client.element("Code", in: body) }
        var error: S3Error {
            S3Error(code: code ?? "HTTP\(status)", status: status, message: S3Client.element("Message", in: body) ?? String(decoding: body.prefix(300), as: UTF8.self))
        }
    }

    func objectPath(_ key: String) -> String {
        "/\(location.bucket)/\(SignatureV4.encode(location.prefix + key, keepSlash: true))"
    }

    /// Waits before the 2nd, 3rd and 4th try of a request the store failed with "try again"
    /// (500 InternalError, 503 SlowDown) or that never reached it: S3 asks clients to retry
    /// those, and SeaweedFS answers 500 while it grows a bucket's volumes.
    static let retryDelays: [Duration] = [.milliseconds(200), .milliseconds(800), .seconds(2)]

    func send(_ method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:], body: Data = Data()) async throws -> Response {
        var attempt = 0
        while true {
            do {
                let response = try await sendOnce(method, path: path, query: query, headers: headers, body: body)
                guard [500, 503].contains(response.status), attempt < Self.retryDelays.count else { return response }
            } catch let error as HTTPClientError where attempt < Self.retryDelays.count && error != .deadlineExceeded {
                // Not answered (refused, reset): tried again; a request that ran out of time is not.
            }
            try await Task.sleep(for: Self.retryDelays[attempt])
            attempt += 1
        }
    }

    func sendOnce(_ method: String, path: String, query: [(String, String)], headers: [String: String], body: Data) async throws -> Response {
        let response = try await http.execute(signedRequest(method, path: path, query: query, headers: headers, body: body), timeout: timeout)
        let bytes = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: 1 << 30)
        return Response(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
    }

    func signedRequest(_ method: String, path: String, query: [(String, String)] = [], headers: [String: String], body: Data = Data()) -> HTTPClientRequest {
        var signed = headers
        signed["Host"] = location.host
        for (name, value) in signer.sign(method: method, path: path, query: query, headers: signed, payloadHash: SignatureV4.payloadHash(body), date: Date()) {
            signed[name] = value
        }
        let queryText = query.map { "\(SignatureV4.encode($0.0))=\(SignatureV4.encode($0.1))" }.joined(separator: "&")
        var request = HTTPClientRequest(url: location.endpoint + path + (queryText.isEmpty ? "" : "?\(queryText)"))
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signed where name != "Host" { request.headers.add(name: name, value: value) }
        if !body.isEmpty || method == "PUT" || method == "POST" {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return request
    }

    /// The text of the first `<name>` element of an S3 XML answer.
    static func element(_ name: String, in body: Data) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The text of every `<name>` element, XML entities decoded.
    static func elements(_ name: String, in body: Data) -> [String] {
        let text = String(decoding: body, as: UTF8.self)
        var found: [String] = [], from = text.startIndex
        while let start = text.range(of: "<\(name)>", range: from..<text.endIndex),
              let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) {
            found.append(unescaped(String(text[start.upperBound..<end.lowerBound])))
            from = end.upperBound
        }
        return found
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// One response body's iterator, advanced by one reader at a time (an `AsyncThrowingStream`'s
/// unfolding closure is never called concurrently).
final class PullReader: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) { self.iterator = iterator }

    func next() async throws -> ByteBuffer? { try await iterator.next() }
}
