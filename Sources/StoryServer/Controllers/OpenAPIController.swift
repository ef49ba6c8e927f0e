import Foundation
import Vapor

/// Serves the hand-written OpenAPI 3.1 document describing every route (kept true by a test).
struct OpenAPIController: Sendable {
    let publicDirectory: URL

    func register(routes: any RoutesBuilder) {
        routes.get("openapi.yaml", use: document)
    }

    @Sendable
    func document(_ request: Request) async throws -> Response {
        let path = publicDirectory.appendingPathComponent("openapi.yaml").path
        let buffer = try await request.fileio.collectFile(at: path)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "application", subType: "yaml")
        return Response(status: .ok, headers: headers, body: .init(buffer: buffer))
    }
}
