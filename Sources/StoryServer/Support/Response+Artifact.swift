import NIOCore
import ObjectStorage
import Vapor

extension Response {
    /// A kept file (export, video) streamed to the client from wherever the store keeps it, with
    /// `Range` honoured so players can seek and downloads resume: the data directory's own file
    /// through Vapor's file streaming, a bucket's object through a ranged, streamed read (never
    /// whole in memory). `disposition` is `attachment` to download, `inline` to play in place.
    static func artifact(
        _ key: String, in store: any ArtifactStore, mediaType: HTTPMediaType, filename: String?, disposition: String = "attachment",
        for request: Request
    ) async throws -> Response {
        let response: Response
        if let file = store.localFile(key) {
            guard FileManager.default.fileExists(atPath: file.path) else { throw missing }
            response = try await request.fileio.asyncStreamFile(at: file.path, mediaType: mediaType)
        } else {
            response = try await streamed(key, in: store, mediaType: mediaType, for: request)
        }
        if let filename { response.headers.replaceOrAdd(name: .contentDisposition, value: "\(disposition); filename=\"\(filename)\"") }
        return response
    }

    private static func streamed(_ key: String, in store: any ArtifactStore, mediaType: HTTPMediaType, for request: Request) async throws -> Response {
        let object: StoredObject?
        do {
            object = try await store.object(key)
        } catch {
            request.logger.error("The artifact store did not answer", metadata: ["store": "\(store.place)", "error": "\(error)"])
            throw APIError(status: .serviceUnavailable, code: "store_unavailable",
                           message: "The file is kept safe, but its store did not answer. Try again in a minute.", headers: ["Retry-After": "30"])
        }
        guard let object else { throw missing }
        let size = object.size
        var headers = HTTPHeaders()
        headers.contentType = mediaType
        headers.replaceOrAdd(name: .acceptRanges, value: "bytes")
        headers.replaceOrAdd(name: .eTag, value: object.tag)
        if request.headers.first(name: .ifNoneMatch) == object.tag { return Response(status: .notModified, headers: headers) }
        var status = HTTPResponseStatus.ok
        var range: ClosedRange<Int>?
        if let asked = request.headers.range {
            guard let wanted = byteRange(asked, size: size) else {
                headers.replaceOrAdd(name: .contentRange, value: "bytes */\(size)")
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            range = wanted
            status = .partialContent
            headers.replaceOrAdd(name: .contentRange, value: "bytes \(wanted.lowerBound)-\(wanted.upperBound)/\(size)")
        }
        let count = range?.count ?? size
        guard count > 0 else { return Response(status: status, headers: headers) }
        let chunks = try await store.read(key, range: range)
        let body = Response.Body(asyncStream: { writer in
            do {
                for try await chunk in chunks { try await writer.writeBuffer(chunk) }
                try await writer.write(.end)
            } catch {
                // Headers are gone: the client sees a short body and may resume with a range.
                request.logger.warning("A stored file stopped mid-way", metadata: ["key": "\(key)", "error": "\(error)"])
                try await writer.write(.error(error))
            }
        }, count: count)
        return Response(status: status, headers: headers, body: body)
    }

    static let missing = APIError(status: .notFound, code: "file_missing", message: "The file is gone from the server. Make it again (export once more).")

    /// The one range asked for, clipped to the file; nil when none of it is in the file. Several
    /// ranges are answered with the first (players ask for one).
    static func byteRange(_ asked: HTTPHeaders.Range, size: Int) -> ClosedRange<Int>? {
        guard asked.unit == .bytes, let first = asked.ranges.first, size > 0 else { return nil }
        switch first {
        case .start(let start):
            return start < size ? start...(size - 1) : nil
        case .tail(let length):
            return length > 0 ? max(0, size - length)...(size - 1) : nil
        case .within(let start, let end):
            return start <= end && start < size ? start...min(end, size - 1) : nil
        }
    }
}
