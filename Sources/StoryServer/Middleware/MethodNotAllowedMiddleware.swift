import Vapor

/// A known path asked with a method it does not take answers 405 with `Allow`, not 404: the
/// client learns that the address is right and the method wrong (RFC 9110 §15.5.6).
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    /// Each path pattern's methods, matched like the router matches.
    private let router: TrieRouter<[HTTPMethod]>

    init(routes: Routes) {
        var methods: [String: (path: [PathComponent], methods: [HTTPMethod])] = [:]
        for route in routes.all {
            let key = route.path.map(\.description).joined(separator: "/")
            methods[key, default: (route.path, [])].methods.append(route.method)
        }
        let router = TrieRouter<[HTTPMethod]>()
        for (path, allowed) in methods.values { router.register(allowed, at: path) }
        self.router = router
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let notFound as RouteNotFound {
            let path = request.url.path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
            var parameters = Parameters()
            guard let allowed = router.route(path: path, parameters: &parameters), !allowed.contains(request.method) else {
                throw notFound
            }
            let names = Set(allowed.map(\.rawValue) + (allowed.contains(.GET) ? ["HEAD"] : [])).sorted()
            throw APIError.methodNotAllowed(path: request.url.path, method: request.method, allowed: names)
        }
    }
}
