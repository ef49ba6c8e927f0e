import Vapor

/// Serves the web app from `Public/` to GET and HEAD only.
///
/// Vapor's `FileMiddleware` answers a file to any method, so `DELETE /index.html` said 200. Other
/// methods go on to the routes; one that reaches no route at a file's address is told 405 with
/// `Allow: GET, HEAD`, as a routed path asked with the wrong method is.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware
    private let publicDirectory: URL
    private let defaultFile = "index.html"

    init(publicDirectory: URL) {
        self.publicDirectory = publicDirectory.standardizedFileURL
        files = FileMiddleware(publicDirectory: publicDirectory.path + "/", defaultFile: defaultFile)
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.method == .GET || request.method == .HEAD {
            return try await files.respond(to: request, chainingTo: next)
        }
        do {
            return try await next.respond(to: request)
        } catch let notFound as RouteNotFound {
            guard servesFile(at: request.url.path) else { throw notFound }
            throw APIError.methodNotAllowed(path: request.url.path, method: request.method, allowed: ["GET", "HEAD"])
        }
    }

    /// Whether GET at `path` would answer a file: the same lookup `FileMiddleware` makes.
    private func servesFile(at path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("../") else { return false }
        var relative = Substring(decoded)
        while relative.hasPrefix("/") { relative.removeFirst() }
        var candidate = publicDirectory.appendingPathComponent(String(relative))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else { return true }
        guard decoded.hasSuffix("/") else { return false }
        candidate.appendPathComponent(defaultFile)
        return FileManager.default.fileExists(atPath: candidate.path)
    }
}
