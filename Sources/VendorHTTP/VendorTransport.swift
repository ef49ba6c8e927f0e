import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// One HTTP request to a vendor's API, as the transport sends it.
public struct VendorRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    /// Headers, the key's header included (the only place a key goes).
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: HTTPMethod = .POST, url: String, headers: [(name: String, value: String)], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A 2xx reply's headers and body (Twilio answers a created call with 201).
public struct VendorReply: Sendable {
    public var headers: HTTPHeaders
    public var body: Data
}

/// The reliability rules every vendor call shares (language models and cloud speech alike):
/// the provider's concurrency limiter, a timeout per attempt, retries with exponential backoff
/// and jitter on 429, 5xx and timeouts (honouring `Retry-After`), no retry for other 4xx or a
/// refused connection, and the key scrubbed from anything the vendor says.
public struct VendorTransport: Sendable {
    public let key: Secret?
    /// Seconds for one attempt, from sending to the last byte of the reply.
    public let timeout: Double
    public let retry: RetryPolicy
    public let limiter: ConcurrencyLimiter
    public let httpClient: HTTPClient
    /// Replies larger than this are cut off (and then fail to parse).
    public let maxReplyBytes: Int
    let sleep: @Sendable (Double) async throws -> Void

    /// - Parameter sleep: waits between attempts, in seconds (injected so tests can see the waits).
    public init(
        key: Secret?, timeout: Double = 60, retry: RetryPolicy = .standard, limiter: ConcurrencyLimiter,
        httpClient: HTTPClient = .vendors, maxReplyBytes: Int = 32 << 20,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.key = key
        self.timeout = timeout
        self.retry = retry
        self.limiter = limiter
        self.httpClient = httpClient
        self.maxReplyBytes = maxReplyBytes
        self.sleep = sleep
    }

    /// Sends `request` until it gets a 200 (returned) or a failure that retrying cannot fix, or
    /// the attempts run out (thrown). `errorMessage` reads the human message out of the vendor's
    /// error body, if it has one.
    public func send(
        _ request: VendorRequest, logger: Logger, errorMessage: (Data) -> String? = { _ in nil }
    ) async throws(VendorFailure) -> VendorReply {
        var attempt = 0
        while true {
            attempt += 1
            logger.debug("sending request", metadata: ["attempt": "\(attempt)", "url": "\(request.url)", "bytes": "\(request.body?.count ?? 0)"])
            let outcome = await exchange(request)
            let failure: VendorFailure
            var wait: Double?
            switch outcome {
            case .reply(let status, let retryAfter, let headers, let data):
                logger.debug("reply", metadata: ["attempt": "\(attempt)", "status": "\(status)", "bytes": "\(data.count)"])
                if (200..<300).contains(status) { return VendorReply(headers: headers, body: data) }
                failure = VendorFailure(Self.kind(status: status, retryAfter: retryAfter, body: data), detail: errorMessage(data).map(scrub))
                if let retryAfter, retryAfter > retry.maxRetryAfter { throw failure }
                wait = retryAfter
            case .failed(let transportFailure):
                logger.debug("request failed", metadata: ["attempt": "\(attempt)", "error": "\(transportFailure.kind) \(transportFailure.detail ?? "")"])
                failure = transportFailure
            }
            // A timed-out request may have been slow by chance; a refused connection will not change.
            guard Self.isRetryable(failure.kind), attempt < retry.maxAttempts else { throw failure }
            let delay = wait ?? retry.backoff(afterAttempt: attempt)
            logger.info("retrying after a transient failure", metadata: ["kind": "\(failure.kind)", "wait_s": "\(delay)"])
            do { try await sleep(delay) } catch { throw VendorFailure(.timeout(seconds: timeout), detail: "cancelled") }
        }
    }

    /// The error kind for a non-200 status. Google answers a bad key with 400 INVALID_ARGUMENT
    /// and the reason `API_KEY_INVALID` (not 401), which is a rejected key all the same.
    public static func kind(status: Int, retryAfter: Double?, body: Data = Data()) -> VendorFailure.Kind {
        switch status {
        case 401: .invalidKey
        case 400 where String(decoding: body, as: UTF8.self).contains("API_KEY_INVALID"): .invalidKey
        case 403, 404: .noAccess(status: status)
        case 429: .rateLimited(retryAfterSeconds: retryAfter)
        case 500...599: .providerError(status: status)
        default: .requestRejected(status: status)
        }
    }

    static func isRetryable(_ kind: VendorFailure.Kind) -> Bool {
        switch kind {
        case .rateLimited, .providerError, .timeout: true
        default: false
        }
    }

    /// Sends `request` like `send`, but hands a 200 reply's body to `line` one line at a time as
    /// it arrives (server-sent events, JSON lines), without the line ending. Failures before the
    /// reply starts are retried as `send` retries them; once lines have been handed on, a
    /// failure is thrown as it is. Cancelling the task closes the connection, which tells the
    /// server to stop generating.
    public func streamLines(
        _ request: VendorRequest, logger: Logger, errorMessage: (Data) -> String? = { _ in nil },
        line: (Substring) async throws -> Void
    ) async throws {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        var attempt = 0
        while true {
            attempt += 1
            try await limiter.acquireUnlessCancelled()
            let outcome: Result<(failure: VendorFailure, retryAfter: Double?)?, any Error>
            do {
                outcome = .success(try await streamAttempt(outgoing, errorMessage: errorMessage, line: line))
            } catch {
                outcome = .failure(error)
            }
            await limiter.release()
            guard let (failure, retryAfter) = try outcome.get() else { return }
            if let retryAfter, retryAfter > retry.maxRetryAfter { throw failure }
            guard Self.isRetryable(failure.kind), attempt < retry.maxAttempts else { throw failure }
            let delay = retryAfter ?? retry.backoff(afterAttempt: attempt)
            logger.info("retrying after a transient failure", metadata: ["kind": "\(failure.kind)", "wait_s": "\(delay)"])
            try await sleep(delay)
        }
    }

    /// One attempt: nil once every line was handed on; the failure (and `Retry-After`) when the
    /// reply never started. A failure after it started is thrown: it cannot be retried.
    private func streamAttempt(
        _ outgoing: HTTPClientRequest, errorMessage: (Data) -> String?, line: (Substring) async throws -> Void
    ) async throws -> (failure: VendorFailure, retryAfter: Double?)? {
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(outgoing, deadline: .now() + .milliseconds(Int64(timeout * 1000)))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return (failure(for: error), nil)
        }
        let status = Int(response.status.code)
        guard status == 200 else {
            let body = Data((try? await response.body.collect(upTo: 1 << 20)).map { Array($0.readableBytesView) } ?? [])
            let retryAfter = response.headers.first(name: "retry-after").flatMap { RetryPolicy.retryAfterSeconds($0) }
            return (VendorFailure(Self.kind(status: status, retryAfter: retryAfter, body: body), detail: errorMessage(body).map(scrub)), retryAfter)
        }
        do {
            try await Self.splitLines(response.body, maxLineBytes: maxReplyBytes) { text in
                do { try await line(text) } catch { throw LineHandlerFailure(underlying: error) }
            }
        } catch let handled as LineHandlerFailure {
            throw handled.underlying
        } catch let failure as VendorFailure {
            throw failure
        } catch {
            if Task.isCancelled { throw CancellationError() }
            // The body ended early (a server that died mid-answer answers no more): the parser's
            // or the channel's error, whichever noticed first.
            if let error = error as? HTTPClientError, error != .remoteConnectionClosed { throw failure(for: error) }
            throw VendorFailure(.unparseableAnswer, detail: "the connection closed mid-answer")
        }
        return nil
    }

    /// What the caller's line handler threw, kept apart from the transport's own errors.
    private struct LineHandlerFailure: Error {
        var underlying: any Error
    }

    /// Hands on each `\n`-ended line of `body` (a trailing `\r` removed); a line longer than
    /// `maxLineBytes` is an unreadable answer, not a memory problem.
    private static func splitLines(_ body: HTTPClientResponse.Body, maxLineBytes: Int, _ line: (Substring) async throws -> Void) async throws {
        var pending: [UInt8] = []
        func emit(_ bytes: ArraySlice<UInt8>) async throws {
            var text = Substring(String(decoding: bytes, as: UTF8.self))
            if text.hasSuffix("\r") { text.removeLast() }
            try await line(text)
        }
        for try await chunk in body {
            pending.append(contentsOf: chunk.readableBytesView)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                try await emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
            if pending.count > maxLineBytes { throw VendorFailure(.unparseableAnswer, detail: "a line of the reply is over \(maxLineBytes) bytes") }
        }
        if !pending.isEmpty { try await emit(pending[...]) }
    }

    private enum Outcome {
        case reply(status: Int, retryAfter: Double?, headers: HTTPHeaders, body: Data)
        case failed(VendorFailure)
    }

    private func exchange(_ vendorRequest: VendorRequest) async -> Outcome {
        var request = HTTPClientRequest(url: vendorRequest.url)
        request.method = vendorRequest.method
        for header in vendorRequest.headers { request.headers.add(name: header.name, value: header.value) }
        if let body = vendorRequest.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let prepared = request
        let timeout = timeout, maxReplyBytes = maxReplyBytes, httpClient = httpClient
        do {
            return try await limiter.withPermit {
                let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
                let response = try await httpClient.execute(prepared, deadline: deadline)
                let buffer = try await response.body.collect(upTo: maxReplyBytes)
                let retryAfter = response.headers.first(name: "retry-after").flatMap { RetryPolicy.retryAfterSeconds($0) }
                return .reply(status: Int(response.status.code), retryAfter: retryAfter, headers: response.headers, body: Data(buffer.readableBytesView))
            }
        } catch is CancellationError {
            return .failed(VendorFailure(.timeout(seconds: timeout), detail: "cancelled"))
        } catch {
            return .failed(failure(for: error))
        }
    }

    /// What a transport error means for the user.
    private func failure(for error: any Error) -> VendorFailure {
        guard let error = error as? HTTPClientError else {
            return VendorFailure(.unreachable, detail: scrub(Self.describe(error)))
        }
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return VendorFailure(.timeout(seconds: timeout))
        case .connectTimeout:
            return VendorFailure(.unreachable, detail: "connection timed out")
        case .remoteConnectionClosed:
            return VendorFailure(.unparseableAnswer, detail: "the connection closed mid-answer")
        default:
            return VendorFailure(.unreachable, detail: scrub("\(error)"))
        }
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("Connection refused") {
            return "connection refused"
        }
        return text
    }

    /// `text` from outside (a vendor's message), cut to 500 characters and scrubbed of the key.
    public func scrub(_ text: String) -> String {
        Secret.scrub(String(text.prefix(500)), removing: key)
    }
}

extension Secret {
    /// Removes `key` from text that came from outside, so it can be logged or shown. Vendors
    /// sometimes echo a shortened key ("sk-abc***xyz"), so any 8-character run of the key goes too.
    public static func scrub(_ text: String, removing key: Secret?) -> String {
        guard let key = key?.value, key.count >= 4 else { return text }
        var text = text.replacingOccurrences(of: key, with: "<redacted>")
        let characters = Array(key)
        if characters.count >= 8 {
            for start in 0...(characters.count - 8) {
                text = text.replacingOccurrences(of: String(characters[start..<(start + 8)]), with: "<redacted>")
            }
        }
        return text
    }
}

extension VendorTransport: CustomReflectable {
    /// Dumps show the settings only: not the key (redacted anyway) and not the HTTP client,
    /// whose connection pool holds recent request heads, authorization headers included.
    public var customMirror: Mirror {
        Mirror(self, children: ["timeout": timeout, "retry": retry, "maxReplyBytes": maxReplyBytes, "hasKey": key != nil], displayStyle: .struct)
    }
}
